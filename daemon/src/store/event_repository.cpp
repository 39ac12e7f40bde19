#include "store/event_repository.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace aev::store {

const char* const kEventColumns =
    "id, org_id, app_id, channel_id, seq, identifier, payload, agent_id, event_type, trace_id, span_id, "
    "parent_span_id, metadata, occurred_at, received_at, source, api_key_id, user_id, semantic_kind, end_user, "
    "session, trace_name";

StoredEvent eventFromRow(const Row& r) {
  StoredEvent e;
  e.id = r.i64("id");
  e.orgId = r.i64("org_id");
  e.appId = r.i64("app_id");
  e.channelId = r.i64("channel_id");
  e.seq = r.i64("seq");
  e.identifier = r.str("identifier");
  e.payloadJson = r.str("payload");
  e.agentId = r.optStr("agent_id");
  e.eventType = r.optStr("event_type");
  e.traceId = r.optStr("trace_id");
  e.spanId = r.optStr("span_id");
  e.parentSpanId = r.optStr("parent_span_id");
  e.metadataJson = r.optStr("metadata");
  e.occurredAt = r.optI64("occurred_at");
  e.receivedAt = r.i64("received_at");
  e.source = r.str("source");
  e.apiKeyId = r.optI64("api_key_id");
  e.userId = r.optI64("user_id");
  // What a trace rollup reads besides the event's own fields (TraceRepository::rebuild).
  e.telemetry.semanticKind = r.optStr("semantic_kind");
  e.telemetry.endUser = r.optStr("end_user");
  e.telemetry.session = r.optStr("session");
  e.telemetry.traceName = r.optStr("trace_name");
  return e;
}

namespace {

// Rows per SQLite INSERT statement. A statement is prepared once per distinct text, so
// a batch is cut greedily into power-of-two shapes (seven texts) instead of one text per
// batch size: a group of 15 single publishes is 8 + 4 + 2 + 1 rows, four statements. Each
// statement costs SQLite about as much as a third of a row (its cursors on the table and
// the indexes, the AUTOINCREMENT counter), so fewer and larger statements are cheaper
// (39 parameters a row keeps 64 rows far under SQLite's parameter limit).
constexpr std::size_t kStatementShapes[] = {64, 32, 16, 8, 4, 2, 1};
constexpr std::size_t kInsertColumns = 39;

std::size_t rowsForNextStatement(std::size_t remaining) {
  for (auto shape : kStatementShapes)
    if (remaining >= shape) return shape;
  return remaining;
}

constexpr const char* kInsertColumnList =
    "org_id, app_id, channel_id, seq, identifier, payload, agent_id, event_type, trace_id, span_id, parent_span_id, "
    "metadata, occurred_at, received_at, source, api_key_id, user_id, ts, model, provider, status, agent, tool, "
    "finish_reason, semantic_kind, service, operation, error_type, environment, release_tag, end_user, input_tokens, "
    "output_tokens, cost_usd, duration_ms, session, trace_name, cached_input_tokens, reasoning_tokens";

const std::string& insertSql(std::size_t rows) {
  static const auto texts = [] {
    std::map<std::size_t, std::string> out;
    for (auto shape : kStatementShapes) {
      std::string sql = std::string("INSERT INTO events (") + kInsertColumnList + ") VALUES ";
      std::string row = "(?";
      for (std::size_t c = 1; c < kInsertColumns; ++c) row += ",?";
      row += ")";
      for (std::size_t i = 0; i < shape; ++i) sql += (i == 0 ? "" : ",") + row;
      out[shape] = sql;
    }
    return out;
  }();
  return texts.at(rows);
}

// The 39 values of an event's row, in insertColumnsSql() order.
void appendRow(Params& params, const StoredEvent& e) {
  // One push_back per column (GCC 12 misreports a braced list of variants here).
  params.emplace_back(e.orgId);
  params.emplace_back(e.appId);
  params.emplace_back(e.channelId);
  params.emplace_back(e.seq);
  params.emplace_back(e.identifier);
  params.emplace_back(e.payloadJson);
  params.push_back(optionalValue(e.agentId));
  params.push_back(optionalValue(e.eventType));
  params.push_back(optionalValue(e.traceId));
  params.push_back(optionalValue(e.spanId));
  params.push_back(optionalValue(e.parentSpanId));
  params.push_back(optionalValue(e.metadataJson));
  params.push_back(optionalValue(e.occurredAt));
  params.emplace_back(e.receivedAt);
  params.emplace_back(e.source);
  params.push_back(optionalValue(e.apiKeyId));
  params.push_back(optionalValue(e.userId));
  const auto& t = e.telemetry;
  params.emplace_back(e.effectiveTime());
  for (const auto* text : {&t.model, &t.provider, &t.status, &t.agent, &t.tool, &t.finishReason, &t.semanticKind,
                           &t.service, &t.operation, &t.errorType, &t.environment, &t.release, &t.endUser})
    params.push_back(optionalValue(*text));
  params.push_back(optionalValue(t.inputTokens));
  params.push_back(optionalValue(t.outputTokens));
  params.push_back(optionalValue(t.costUsd));
  params.push_back(optionalValue(t.durationMs));
  params.push_back(optionalValue(t.session));
  params.push_back(optionalValue(t.traceName));
  params.push_back(optionalValue(t.cachedInputTokens));
  params.push_back(optionalValue(t.reasoningTokens));
}

// PostgreSQL array types of the columns, in appendRow order.
constexpr const char* kColumnArrayTypes[kInsertColumns] = {
    "bigint[]", "bigint[]", "bigint[]", "bigint[]", "text[]",   "text[]",   "text[]",   "text[]",   "text[]",  "text[]",
    "text[]",   "text[]",   "bigint[]", "bigint[]", "text[]",   "bigint[]", "bigint[]", "bigint[]", "text[]",  "text[]",
    "text[]",   "text[]",   "text[]",   "text[]",   "text[]",   "text[]",   "text[]",   "text[]",   "text[]",  "text[]",
    "text[]",   "bigint[]", "bigint[]", "float8[]", "float8[]", "text[]",   "text[]",   "bigint[]", "bigint[]"};

// Appends a value as an element of a PostgreSQL array literal.
void appendArrayElement(std::string& out, const SqlValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) {
    out += std::to_string(*i);
  } else if (const auto* d = std::get_if<double>(&v)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", *d);
    out += buf;
  } else if (const auto* s = std::get_if<std::string>(&v)) {
    out += '"';
    std::size_t plain = 0;
    for (std::size_t k = 0; k < s->size(); ++k) {
      if ((*s)[k] != '"' && (*s)[k] != '\\') continue;
      out.append(*s, plain, k - plain);
      out += '\\';
      plain = k;
    }
    out.append(*s, plain, std::string::npos);
    out += '"';
  } else {
    out += "NULL";
  }
}

// The events' rows as one PostgreSQL array literal per column (appendRow order).
std::vector<std::string> columnArrays(const std::vector<StoredEvent>& events) {
  std::vector<std::string> columns(kInsertColumns, "{");
  Params row;
  row.reserve(kInsertColumns);
  for (std::size_t i = 0; i < events.size(); ++i) {
    row.clear();
    appendRow(row, events[i]);
    for (std::size_t k = 0; k < kInsertColumns; ++k) {
      if (i) columns[k] += ',';
      appendArrayElement(columns[k], row[k]);
    }
  }
  for (auto& column : columns) column += '}';
  return columns;
}

}  // namespace

ChannelsGone::ChannelsGone(std::vector<std::int64_t> channelIds)
    : std::runtime_error("channel " + std::to_string(channelIds.front()) + " no longer exists"),
      channelIds_(std::move(channelIds)) {}

bool EventFilter::matches(const StoredEvent& e) const {
  return (!agentId || e.agentId == agentId) && (!eventType || e.eventType == eventType) &&
         (!traceId || e.traceId == traceId) && (!identifier || e.identifier == *identifier) &&
         (!endUser || e.telemetry.endUser == endUser);
}

void EventRepository::insertBatch(Connection& c, std::vector<StoredEvent>& events) {
  if (events.empty()) return;
  const bool oneChannel = std::all_of(events.begin(), events.end(),
                                      [&](const StoredEvent& e) { return e.channelId == events.front().channelId; });
  if (oneChannel && c.dialect() == Dialect::PostgreSQL) {
    insertIntoOneChannelPostgres(c, events);
    insertAttributes(c, events);
    return;
  }
  // Reserve each channel's sequence range. The UPDATE takes the channel row's lock
  // until commit, so on PostgreSQL concurrent writers of one channel commit in
  // sequence order; SQLite has a single writer anyway.
  std::map<std::int64_t, std::int64_t> perChannel;
  for (const auto& e : events) ++perChannel[e.channelId];
  // A deleted channel has no row to update: that refuses the batch (publishers look
  // channels up from a cache, events/channel_directory.h).
  std::map<std::int64_t, std::int64_t> nextSeq;
  std::vector<std::int64_t> gone;
  for (const auto& [channelId, n] : perChannel) {
    auto rows = c.query("UPDATE channels SET last_seq = last_seq + ? WHERE id = ? RETURNING last_seq", {n, channelId});
    if (rows.empty())
      gone.push_back(channelId);
    else
      nextSeq[channelId] = rows.front().i64("last_seq") - n + 1;
  }
  if (!gone.empty()) throw ChannelsGone(std::move(gone));
  for (auto& e : events) e.seq = nextSeq[e.channelId]++;

  if (c.dialect() == Dialect::PostgreSQL)
    insertRowsAsArrays(c, events);
  else
    insertRowsInShapes(c, events);
  insertAttributes(c, events);
}

void EventRepository::insertIntoOneChannelPostgres(Connection& c, std::vector<StoredEvent>& events) {
  // The sequence reservation and the rows in one statement (one round trip): the CTE's
  // UPDATE takes the channel row's lock and yields the range's base; row i of the arrays
  // gets base + i. A deleted channel updates nothing, so nothing is inserted.
  static const std::string sql = [] {
    std::string names, select;
    for (std::size_t k = 0; k < kInsertColumns; ++k) {
      const std::string name = "c" + std::to_string(k);
      names += name + ", ";
      select += k ? ", " : "";
      select += k == 3 ? "ch.base + u.ord" : "u." + name;  // column 3 is seq
    }
    std::string text =
        "WITH ch AS (UPDATE channels SET last_seq = last_seq + ? WHERE id = ? RETURNING last_seq - ? AS base) "
        "INSERT INTO events (" +
        std::string(kInsertColumnList) + ") SELECT " + select + " FROM ch, unnest(";
    for (std::size_t k = 0; k < kInsertColumns; ++k) text += std::string(k ? ", ?::" : "?::") + kColumnArrayTypes[k];
    return text + ") WITH ORDINALITY AS u(" + names + "ord) RETURNING id, seq";
  }();
  const auto n = static_cast<std::int64_t>(events.size());
  Params params{n, events.front().channelId, n};
  params.reserve(3 + kInsertColumns);
  for (auto& column : columnArrays(events)) params.emplace_back(std::move(column));
  std::map<std::int64_t, std::int64_t> idOfSeq;
  for (const auto& r : c.query(sql, std::move(params))) idOfSeq[r.i64("seq")] = r.i64("id");
  if (idOfSeq.empty()) throw ChannelsGone({events.front().channelId});
  if (idOfSeq.size() != events.size()) throw std::logic_error("event insert returned a partial batch");
  auto seq = idOfSeq.begin()->first;  // the range's first
  for (auto& e : events) {
    e.seq = seq++;
    e.id = idOfSeq.at(e.seq);
  }
}

void EventRepository::insertRowsInShapes(Connection& c, std::vector<StoredEvent>& events) {
  for (std::size_t start = 0; start < events.size();) {
    const std::size_t rows = rowsForNextStatement(events.size() - start);
    Params params;
    params.reserve(rows * kInsertColumns);
    for (std::size_t i = start; i < start + rows; ++i) appendRow(params, events[i]);
    // No RETURNING (it made SQLite collect the rows in a temporary table: a quarter of
    // the insert's cost): the events table is AUTOINCREMENT and this connection holds the
    // write lock, so one statement's rows take consecutive ids in VALUES order, the last
    // of them sqlite3_last_insert_rowid.
    const auto result = c.query(insertSql(rows), std::move(params));
    if (result.affected != rows || result.lastInsertRowid < static_cast<std::int64_t>(rows))
      throw std::logic_error("event insert stored " + std::to_string(result.affected) + " of " +
                             std::to_string(rows) + " rows");
    auto id = result.lastInsertRowid - static_cast<std::int64_t>(rows) + 1;
    for (std::size_t i = start; i < start + rows; ++i) events[i].id = id++;
    start += rows;
  }
}

void EventRepository::insertRowsAsArrays(Connection& c, std::vector<StoredEvent>& events) {
  // One statement (one round trip, one prepared text) for any number of rows: each
  // column's values travel as one array, unnest() turns them back into rows.
  static const std::string sql = [] {
    std::string text = std::string("INSERT INTO events (") + kInsertColumnList + ") SELECT * FROM unnest(";
    for (std::size_t k = 0; k < kInsertColumns; ++k) text += std::string(k ? ", ?::" : "?::") + kColumnArrayTypes[k];
    return text + ") RETURNING id, channel_id, seq";
  }();
  Params params;
  params.reserve(kInsertColumns);
  for (auto& column : columnArrays(events)) params.emplace_back(std::move(column));
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> ids;
  for (const auto& r : c.query(sql, std::move(params))) ids[{r.i64("channel_id"), r.i64("seq")}] = r.i64("id");
  for (auto& e : events) e.id = ids.at({e.channelId, e.seq});
}

void EventRepository::insertAttributes(Connection& c, const std::vector<StoredEvent>& events) {
  // Custom attributes, one row each, and the org's attribute keys (last seen, per
  // environment) for /analytics/dimensions: one upsert per distinct key in the batch.
  std::map<std::tuple<std::int64_t, std::string, std::string>, std::pair<std::int64_t, std::string>> keys;
  for (const auto& e : events) {
    for (const auto& [key, value] : e.telemetry.attributes) {
      c.exec("INSERT INTO event_attributes (event_id, org_id, ts, key, value) VALUES (?, ?, ?, ?, ?)",
             {e.id, e.orgId, e.effectiveTime(), key, value});
      auto& seen = keys[{e.orgId, e.telemetry.environment.value_or(""), key}];
      if (e.receivedAt >= seen.first) seen = {e.receivedAt, e.source};
    }
  }
  for (const auto& [k, seen] : keys)
    c.exec(
        "INSERT INTO attribute_keys (org_id, environment, key, source, last_seen) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (org_id, environment, key) DO UPDATE SET last_seen = excluded.last_seen, source = excluded.source "
        "WHERE excluded.last_seen >= attribute_keys.last_seen",
        {std::get<0>(k), std::get<1>(k), std::get<2>(k), seen.second, seen.first});
}

void EventRepository::addUsage(Connection& c, std::int64_t orgId, const std::string& period, std::int64_t count) {
  c.exec(
      "INSERT INTO usage_counters (org_id, period, events) VALUES (?, ?, ?) ON CONFLICT (org_id, period) DO UPDATE "
      "SET events = usage_counters.events + excluded.events",
      {orgId, period, count});
}

std::int64_t EventRepository::usage(Connection& c, std::int64_t orgId, const std::string& period) {
  auto rows = c.query("SELECT events FROM usage_counters WHERE org_id = ? AND period = ?", {orgId, period});
  return rows.empty() ? 0 : rows.front().i64("events");
}

std::vector<StoredEvent> EventRepository::page(Connection& c, std::int64_t orgId, std::int64_t channelId,
                                               std::int64_t offset, std::int64_t limit) {
  std::vector<StoredEvent> out;
  for (const auto& r :
       c.query(std::string("SELECT ") + kEventColumns +
                   " FROM events WHERE org_id = ? AND channel_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?",
               {orgId, channelId, limit, offset}))
    out.push_back(eventFromRow(r));
  return out;
}

std::int64_t EventRepository::count(Connection& c, std::int64_t orgId, std::int64_t channelId) {
  return c.query("SELECT COUNT(*) AS n FROM events WHERE org_id = ? AND channel_id = ?", {orgId, channelId})
      .front()
      .i64("n");
}

namespace {

// " AND ..." for the query's filter and time window, its values appended to params.
std::string listConditions(const EventListQuery& q, Params& params) {
  std::string sql;
  const auto add = [&](const char* condition, SqlValue value) {
    sql += condition;
    params.push_back(std::move(value));
  };
  if (q.filter.agentId) add(" AND agent_id = ?", *q.filter.agentId);
  if (q.filter.eventType) add(" AND event_type = ?", *q.filter.eventType);
  if (q.filter.traceId) add(" AND trace_id = ?", *q.filter.traceId);
  if (q.filter.identifier) add(" AND identifier = ?", *q.filter.identifier);
  if (q.filter.endUser) add(" AND end_user = ?", *q.filter.endUser);
  if (q.since) add(" AND received_at >= ?", *q.since);
  if (q.until) add(" AND received_at < ?", *q.until);
  return sql;
}

}  // namespace

std::vector<StoredEvent> EventRepository::list(Connection& c, std::int64_t orgId, std::int64_t channelId,
                                               const EventListQuery& q) {
  Params params{orgId, channelId};
  std::string sql = std::string("SELECT ") + kEventColumns + " FROM events WHERE org_id = ? AND channel_id = ?" +
                    listConditions(q, params);
  if (q.beforeSeq) {
    sql += " AND seq < ?";
    params.push_back(*q.beforeSeq);
  }
  sql += " ORDER BY seq DESC LIMIT ? OFFSET ?";
  params.push_back(q.limit);
  params.push_back(q.beforeSeq ? 0 : q.offset);
  std::vector<StoredEvent> out;
  for (const auto& r : c.query(sql, std::move(params))) out.push_back(eventFromRow(r));
  return out;
}

std::int64_t EventRepository::countMatching(Connection& c, std::int64_t orgId, std::int64_t channelId,
                                            const EventListQuery& q) {
  Params params{orgId, channelId};
  const std::string sql =
      "SELECT COUNT(*) AS n FROM events WHERE org_id = ? AND channel_id = ?" + listConditions(q, params);
  return c.query(sql, std::move(params)).front().i64("n");
}

std::vector<StoredEvent> EventRepository::after(Connection& c, std::int64_t orgId, std::int64_t channelId,
                                                std::int64_t afterSeq, const EventFilter& f, std::int64_t limit) {
  std::string sql =
      std::string("SELECT ") + kEventColumns + " FROM events WHERE org_id = ? AND channel_id = ? AND seq > ?";
  Params params{orgId, channelId, afterSeq};
  if (f.agentId) sql += " AND agent_id = ?", params.push_back(*f.agentId);
  if (f.eventType) sql += " AND event_type = ?", params.push_back(*f.eventType);
  if (f.traceId) sql += " AND trace_id = ?", params.push_back(*f.traceId);
  if (f.identifier) sql += " AND identifier = ?", params.push_back(*f.identifier);
  if (f.endUser) sql += " AND end_user = ?", params.push_back(*f.endUser);
  sql += " ORDER BY seq LIMIT ?";
  params.push_back(limit);
  std::vector<StoredEvent> out;
  for (const auto& r : c.query(sql, std::move(params))) out.push_back(eventFromRow(r));
  return out;
}

std::optional<std::int64_t> EventRepository::seqOf(Connection& c, std::int64_t orgId, std::int64_t channelId,
                                                   std::int64_t eventId) {
  auto rows =
      c.query("SELECT seq FROM events WHERE org_id = ? AND channel_id = ? AND id = ?", {orgId, channelId, eventId});
  if (rows.empty()) return std::nullopt;
  return rows.front().i64("seq");
}

std::optional<StoredEvent> EventRepository::find(Connection& c, std::int64_t orgId, std::int64_t eventId) {
  auto rows =
      c.query(std::string("SELECT ") + kEventColumns + " FROM events WHERE org_id = ? AND id = ?", {orgId, eventId});
  if (rows.empty()) return std::nullopt;
  return eventFromRow(rows.front());
}

std::optional<std::pair<std::int64_t, std::int64_t>> EventRepository::newest(Connection& c, std::int64_t orgId,
                                                                             std::int64_t channelId) {
  auto rows = c.query("SELECT id, seq FROM events WHERE org_id = ? AND channel_id = ? ORDER BY seq DESC LIMIT 1",
                      {orgId, channelId});
  if (rows.empty()) return std::nullopt;
  return std::make_pair(rows.front().i64("id"), rows.front().i64("seq"));
}

}  // namespace aev::store

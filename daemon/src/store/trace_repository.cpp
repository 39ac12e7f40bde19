#include "store/trace_repository.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "common/json_text.h"
#include "store/event_repository.h"
#include "store/trace_texts.h"

namespace aev::store {

const char* const kTraceColumns =
    "trace_id, app_id, channel_id, start_time, end_time, event_count, error_count, tool_call_count, handoff_count, "
    "agents, event_types, input_tokens, output_tokens, cost_usd, session_id, user_id, name, tags, input_text, "
    "input_at, output_text, output_at, cached_input_tokens, reasoning_tokens";

namespace {

std::string toJsonArray(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    appendJsonString(out, values[i]);
  }
  return out + "]";
}

std::vector<std::string> fromJsonArray(const std::string& text) {
  std::vector<std::string> out;
  try {
    auto arr = Poco::JSON::Parser().parse(text).extract<Poco::JSON::Array::Ptr>();
    for (std::size_t i = 0; i < arr->size(); ++i) out.push_back(arr->getElement<std::string>(i));
  } catch (...) {
  }
  return out;
}

}  // namespace

TraceRecord traceFromRow(const Row& r) {
  TraceRecord t;
  t.traceId = r.str("trace_id");
  t.appId = r.i64("app_id");
  t.channelId = r.i64("channel_id");
  t.startTime = r.i64("start_time");
  t.endTime = r.i64("end_time");
  t.eventCount = r.i64("event_count");
  t.errorCount = r.i64("error_count");
  t.toolCallCount = r.i64("tool_call_count");
  t.handoffCount = r.i64("handoff_count");
  t.agents = fromJsonArray(r.str("agents"));
  t.eventTypes = fromJsonArray(r.str("event_types"));
  t.inputTokens = r.i64("input_tokens");
  t.outputTokens = r.i64("output_tokens");
  t.cachedInputTokens = r.i64("cached_input_tokens");
  t.reasoningTokens = r.i64("reasoning_tokens");
  t.costUsd = r.f64("cost_usd");
  t.sessionId = r.optStr("session_id");
  t.userId = r.optStr("user_id");
  t.name = r.optStr("name");
  t.tags = tagsFromJson(r.str("tags"));
  t.inputText = r.optStr("input_text");
  t.inputAt = r.optI64("input_at");
  t.outputText = r.optStr("output_text");
  t.outputAt = r.optI64("output_at");
  return t;
}

namespace {

// docs/features.md#telemetry-fields, as ingest derives NewEvent::isError (the flag itself is not stored):
// an `agent.error` event, or metadata.status = "error".
bool isErrorEvent(const StoredEvent& e) {
  if (e.eventType == "agent.error") return true;
  if (!e.metadataJson) return false;
  try {
    auto metadata = Poco::JSON::Parser().parse(*e.metadataJson).extract<Poco::JSON::Object::Ptr>();
    return metadata && metadata->has("status") && metadata->get("status").isString() &&
           metadata->getValue<std::string>("status") == "error";
  } catch (...) {
    return false;
  }
}

// One tool call, counted once (docs/api.md#traces): the start of a start/end pair, or a
// tool span (OTLP sends a call as one span: agent.tool_call.end, or agent.error when it
// failed). A hand-off span is a hand-off, never a tool.
bool isToolCall(const StoredEvent& e) {
  if (e.eventType == "agent.tool_call.start") return true;
  return e.source == "otlp" && e.telemetry.semanticKind == "tool";
}

bool isHandoff(const StoredEvent& e) {
  return e.eventType == "agent.handoff" || (e.source == "otlp" && e.telemetry.semanticKind == "handoff");
}

void addUnique(std::vector<std::string>& list, const std::string& value) {
  auto it = std::lower_bound(list.begin(), list.end(), value);
  if (it == list.end() || *it != value) list.insert(it, value);
}

void addTags(std::map<std::string, std::string>& tags, const std::vector<std::pair<std::string, std::string>>& more) {
  for (const auto& [key, value] : more)
    if (tags.size() < kTraceTagLimit || tags.count(key)) tags.emplace(key, value);  // the first value stays
}

// An event's end: its time plus its duration (docs/api.md#traces).
std::int64_t endOf(const StoredEvent& e) {
  const auto duration = e.telemetry.durationMs.value_or(0.0);
  return e.effectiveTime() + (duration > 0 ? static_cast<std::int64_t>(duration * 1000.0) : 0);
}

}  // namespace

std::string traceConditions(Dialect dialect, std::int64_t orgId, const TraceQuery& q, Params& params, bool facets) {
  std::string sql;
  if (q.userId) sql += " AND user_id = ?", params.emplace_back(*q.userId);
  if (q.sessionId) sql += " AND session_id = ?", params.emplace_back(*q.sessionId);
  if (q.appId) sql += " AND app_id = ?", params.emplace_back(*q.appId);
  if (q.channelId) sql += " AND channel_id = ?", params.emplace_back(*q.channelId);
  if (q.since) sql += " AND start_time >= ?", params.emplace_back(*q.since);
  if (q.until) sql += " AND start_time < ?", params.emplace_back(*q.until);
  if (q.withErrors) sql += *q.withErrors ? " AND error_count > 0" : " AND error_count = 0";
  const std::pair<const char*, const std::optional<std::string>*> eventColumns[] = {
      {kFacetModel, &q.model}, {kFacetProvider, &q.provider}, {kFacetTool, &q.tool}};
  const bool environment = q.environmentValues && !q.environmentValues->empty();
  if (facets) {
    // The traces that have the value among their facets (store/trace_facets.h): one
    // range of the facets' primary key per filter value, no event read.
    for (const auto& [dimension, value] : eventColumns)
      if (*value) sql += traceFacetCondition(orgId, dimension, {**value}, params);
    if (environment) sql += traceFacetCondition(orgId, kFacetEnvironment, *q.environmentValues, params);
    if (q.tag) sql += traceFacetCondition(orgId, kFacetTagPrefix + q.tag->first, {q.tag->second}, params);
  } else {
    // Before the facets' backfill is done (a store upgraded with events in it): one
    // probe of events_org_trace_time per candidate trace.
    constexpr const char* kTraceEvents =
        " AND EXISTS (SELECT 1 FROM events e WHERE e.org_id = traces.org_id AND e.trace_id = traces.trace_id";
    for (const auto& [column, value] : eventColumns) {
      if (!*value) continue;
      sql += std::string(kTraceEvents) + " AND e." + column + " = ?)";
      params.emplace_back(**value);
    }
    if (environment) {
      sql += std::string(kTraceEvents) + " AND e.environment IN (?";
      for (std::size_t i = 1; i < q.environmentValues->size(); ++i) sql += ", ?";
      sql += "))";
      for (const auto& v : *q.environmentValues) params.emplace_back(v);
    }
    if (q.tag) {
      // Then one probe of event_attributes_event (event_id, key) per event of the trace.
      sql += std::string(kTraceEvents) +
             " AND EXISTS (SELECT 1 FROM event_attributes a WHERE a.event_id = e.id AND a.key = ? AND a.value = ?))";
      params.emplace_back(q.tag->first);
      params.emplace_back(q.tag->second);
    }
  }
  if (q.agent) {
    // agents is a JSON array of strings: look for the name as a JSON string, quotes
    // included, so only a whole element matches. instr/strpos compare bytes: exact and
    // case-sensitive on both dialects (SQLite's LIKE ignores ASCII case, so "Alice"
    // also found "alice" there and not on PostgreSQL).
    std::string quoted;
    appendJsonString(quoted, *q.agent);
    sql += dialect == Dialect::SQLite ? " AND instr(agents, ?) > 0" : " AND strpos(agents, ?) > 0";
    params.emplace_back(quoted);
  }
  return sql;
}

namespace {

// Fixed column expressions only (never text from the request).
std::string orderClause(const TraceQuery& q) {
  const char* dir = q.ascending ? " ASC" : " DESC";
  switch (q.orderBy) {
    case TraceQuery::Order::Duration:
      return std::string(" ORDER BY end_time - start_time") + dir + ", start_time DESC, id DESC";
    case TraceQuery::Order::Events:
      return std::string(" ORDER BY event_count") + dir + ", start_time DESC, id DESC";
    case TraceQuery::Order::Errors:
      return std::string(" ORDER BY error_count") + dir + ", start_time DESC, id DESC";
    case TraceQuery::Order::Tokens:
      return std::string(" ORDER BY input_tokens + output_tokens") + dir + ", start_time DESC, id DESC";
    case TraceQuery::Order::Cost:
      return std::string(" ORDER BY cost_usd") + dir + ", start_time DESC, id DESC";
    case TraceQuery::Order::Start:
      break;
  }
  return std::string(" ORDER BY start_time") + dir + ", id" + dir;
}

}  // namespace

void TraceRepository::apply(Connection& c, const std::vector<StoredEvent>& events) { applyRollups(c, events, true); }

void TraceRepository::applyRollups(Connection& c, const std::vector<StoredEvent>& events, bool withFacets) {
  std::map<std::pair<std::int64_t, std::string>, std::vector<const StoredEvent*>> byTrace;
  for (const auto& e : events)
    if (e.traceId && !e.traceId->empty()) byTrace[{e.orgId, *e.traceId}].push_back(&e);
  constexpr std::size_t kKnownLimit = 10000;
  constexpr std::size_t kKnownFacetLimit = 256;  // per trace; beyond, facets are written again
  TraceFacetMap facets;
  for (const auto& [key, list] : byTrace) {
    const auto& [orgId, traceId] = key;
    // This batch's share of the rollup.
    TraceRecord delta;
    FacetSet deltaFacets;
    std::optional<std::string> explicitName, rootName;
    delta.startTime = delta.endTime = list.front()->effectiveTime();
    for (const auto* e : list) {
      const auto when = e->effectiveTime();
      delta.startTime = std::min(delta.startTime, when);
      delta.endTime = std::max(delta.endTime, endOf(*e));
      const bool toolCall =
          e->telemetry.semanticKind == "tool" || (e->eventType && e->eventType->rfind("agent.tool_call.", 0) == 0);
      auto texts = conversationTexts(e->payloadJson, toolCall);
      if (texts.input && (!delta.inputAt || when < *delta.inputAt)) delta.inputText = texts.input, delta.inputAt = when;
      if (texts.output && (!delta.outputAt || when >= *delta.outputAt))
        delta.outputText = texts.output, delta.outputAt = when;
      addTags(delta.tags, e->telemetry.attributes);
      if (withFacets) addFacetsOf(*e, deltaFacets);
      ++delta.eventCount;
      if (e->isError) ++delta.errorCount;
      if (isToolCall(*e)) ++delta.toolCallCount;
      if (isHandoff(*e)) ++delta.handoffCount;
      const auto& t = e->telemetry;
      if (!delta.sessionId && t.session) delta.sessionId = t.session;
      if (!delta.userId && t.endUser) delta.userId = t.endUser;
      if (!explicitName && t.traceName) explicitName = t.traceName;
      if (!rootName && e->source == "otlp" && !e->parentSpanId && !e->identifier.empty()) rootName = e->identifier;
      if (e->agentId && !e->agentId->empty()) addUnique(delta.agents, *e->agentId);
      if (e->eventType) addUnique(delta.eventTypes, *e->eventType);
      delta.inputTokens += e->telemetry.inputTokens.value_or(0);
      delta.outputTokens += e->telemetry.outputTokens.value_or(0);
      delta.cachedInputTokens += e->telemetry.cachedInputTokens.value_or(0);
      delta.reasoningTokens += e->telemetry.reasoningTokens.value_or(0);
      delta.costUsd += e->telemetry.costUsd.value_or(0.0);
    }
    delta.name = explicitName ? explicitName : rootName;

    std::optional<KnownLists> known;
    {
      std::lock_guard lock(knownMutex_);
      if (auto it = known_.find(key); it != known_.end()) known = it->second;
    }
    KnownLists written;
    bool done = false;
    if (known) {
      written.agents = known->agents;
      written.eventTypes = known->eventTypes;
      for (const auto& a : delta.agents) addUnique(written.agents, a);
      for (const auto& t : delta.eventTypes) addUnique(written.eventTypes, t);
      written.agentsJson = written.agents == known->agents ? known->agentsJson : toJsonArray(written.agents);
      written.eventTypesJson =
          written.eventTypes == known->eventTypes ? known->eventTypesJson : toJsonArray(written.eventTypes);
      written.tags = known->tags;
      addTags(written.tags, {delta.tags.begin(), delta.tags.end()});
      written.tagsJson = written.tags == known->tags ? known->tagsJson : tagsJson(written.tags);
      const bool sqlite = c.dialect() == Dialect::SQLite;
      std::string sql = std::string("UPDATE traces SET start_time = ") + (sqlite ? "min" : "LEAST") +
                        "(start_time, ?), end_time = " + (sqlite ? "max" : "GREATEST") +
                        "(end_time, ?), event_count = event_count + ?, error_count = error_count + ?, "
                        "tool_call_count = tool_call_count + ?, handoff_count = handoff_count + ?, "
                        "input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, "
                        "cached_input_tokens = cached_input_tokens + ?, reasoning_tokens = reasoning_tokens + ?, "
                        "cost_usd = cost_usd + ?, agents = ?, event_types = ?, tags = ?, "
                        "session_id = COALESCE(session_id, ?), user_id = COALESCE(user_id, ?), "
                        "name = COALESCE(?, name, ?)";
      Params params{delta.startTime,
                    delta.endTime,
                    delta.eventCount,
                    delta.errorCount,
                    delta.toolCallCount,
                    delta.handoffCount,
                    delta.inputTokens,
                    delta.outputTokens,
                    delta.cachedInputTokens,
                    delta.reasoningTokens,
                    delta.costUsd,
                    written.agentsJson,
                    written.eventTypesJson,
                    written.tagsJson,
                    optionalValue(delta.sessionId),
                    optionalValue(delta.userId),
                    optionalValue(explicitName),
                    optionalValue(rootName)};
      // The earliest input and the latest output win (every SET expression reads the old row).
      if (delta.inputText) {
        sql +=
            ", input_text = CASE WHEN input_at IS NULL OR input_at > ? THEN ? ELSE input_text END, "
            "input_at = CASE WHEN input_at IS NULL OR input_at > ? THEN ? ELSE input_at END";
        params.insert(params.end(), {*delta.inputAt, *delta.inputText, *delta.inputAt, *delta.inputAt});
      }
      if (delta.outputText) {
        sql +=
            ", output_text = CASE WHEN output_at IS NULL OR output_at <= ? THEN ? ELSE output_text END, "
            "output_at = CASE WHEN output_at IS NULL OR output_at <= ? THEN ? ELSE output_at END";
        params.insert(params.end(), {*delta.outputAt, *delta.outputText, *delta.outputAt, *delta.outputAt});
      }
      sql += " WHERE org_id = ? AND trace_id = ? AND id = ? AND agents = ? AND event_types = ? AND tags = ?";
      params.insert(params.end(),
                    {orgId, traceId, known->rowId, known->agentsJson, known->eventTypesJson, known->tagsJson});
      done = c.exec(sql, std::move(params)) == 1;
      if (done) {
        // The row is the one this instance last wrote (a rebuild makes a new id), so the
        // facets it wrote for it since are there: only new ones are written.
        written.rowId = known->rowId;
        written.facets = known->facets;
        for (auto& f : deltaFacets)
          if (!known->facets.count(f)) {
            if (written.facets.size() < kKnownFacetLimit) written.facets.insert(f);
            if (withFacets) facets[key].insert(f);
          }
      }
    }
    if (!done) {
      // Read and rewrite the rollup under its row lock: another node's transaction may be
      // folding into the same trace right now (PostgreSQL, READ COMMITTED), and a plain
      // read would let the later write drop the earlier one's counts. A rollup nobody has
      // created yet is inserted with this batch's share; when another writer created it
      // first, the insert waits for it, does nothing, and the row is read and locked.
      // (A rollup deleted between a refused insert and the read, by a rebuild, is looked
      // for again.)
      std::optional<TraceRecord> existing;
      bool inserted = false;
      const auto* first = list.front();
      for (int attempt = 0; attempt < 3 && !inserted; ++attempt) {
        if ((existing = lockedById(c, orgId, traceId))) break;
        written.agents = delta.agents;  // a new rollup holds this batch's share
        written.eventTypes = delta.eventTypes;
        written.agentsJson = toJsonArray(delta.agents);
        written.eventTypesJson = toJsonArray(delta.eventTypes);
        written.tags = delta.tags;
        written.tagsJson = tagsJson(delta.tags);
        inserted = c.exec(
                       "INSERT INTO traces (org_id, trace_id, app_id, channel_id, start_time, end_time, event_count, "
                       "error_count, tool_call_count, handoff_count, input_tokens, output_tokens, cost_usd, agents, "
                       "event_types, session_id, user_id, name, tags, input_text, input_at, output_text, output_at, "
                       "cached_input_tokens, reasoning_tokens) VALUES "
                       "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT (org_id, trace_id) DO NOTHING",
                       {orgId,
                        traceId,
                        first->appId,
                        first->channelId,
                        delta.startTime,
                        delta.endTime,
                        delta.eventCount,
                        delta.errorCount,
                        delta.toolCallCount,
                        delta.handoffCount,
                        delta.inputTokens,
                        delta.outputTokens,
                        delta.costUsd,
                        written.agentsJson,
                        written.eventTypesJson,
                        optionalValue(delta.sessionId),
                        optionalValue(delta.userId),
                        optionalValue(delta.name),
                        written.tagsJson,
                        optionalValue(delta.inputText),
                        optionalValue(delta.inputAt),
                        optionalValue(delta.outputText),
                        optionalValue(delta.outputAt),
                        delta.cachedInputTokens,
                        delta.reasoningTokens}) == 1;
      }
      if (!existing && !inserted)
        throw std::runtime_error("the rollup of trace " + traceId +
                                 " kept being created and deleted during the commit");
      if (existing) {
        TraceRecord t = *existing;
        t.startTime = std::min(t.startTime, delta.startTime);
        t.endTime = std::max(t.endTime, delta.endTime);
        t.eventCount += delta.eventCount;
        t.errorCount += delta.errorCount;
        t.toolCallCount += delta.toolCallCount;
        t.handoffCount += delta.handoffCount;
        t.inputTokens += delta.inputTokens;
        t.outputTokens += delta.outputTokens;
        t.cachedInputTokens += delta.cachedInputTokens;
        t.reasoningTokens += delta.reasoningTokens;
        t.costUsd += delta.costUsd;
        for (const auto& a : delta.agents) addUnique(t.agents, a);
        for (const auto& type : delta.eventTypes) addUnique(t.eventTypes, type);
        if (!t.sessionId) t.sessionId = delta.sessionId;
        if (!t.userId) t.userId = delta.userId;
        if (explicitName)
          t.name = explicitName;
        else if (!t.name)
          t.name = rootName;
        addTags(t.tags, {delta.tags.begin(), delta.tags.end()});
        if (delta.inputText && (!t.inputAt || *delta.inputAt < *t.inputAt))
          t.inputText = delta.inputText, t.inputAt = delta.inputAt;
        if (delta.outputText && (!t.outputAt || *delta.outputAt >= *t.outputAt))
          t.outputText = delta.outputText, t.outputAt = delta.outputAt;
        written.agents = t.agents;
        written.eventTypes = t.eventTypes;
        written.tags = t.tags;
        written.agentsJson = toJsonArray(t.agents);
        written.eventTypesJson = toJsonArray(t.eventTypes);
        written.tagsJson = tagsJson(t.tags);
        c.exec(
            "UPDATE traces SET start_time = ?, end_time = ?, event_count = ?, error_count = ?, tool_call_count = ?, "
            "handoff_count = ?, input_tokens = ?, output_tokens = ?, cost_usd = ?, agents = ?, event_types = ?, "
            "session_id = ?, user_id = ?, name = ?, tags = ?, input_text = ?, input_at = ?, output_text = ?, "
            "output_at = ?, cached_input_tokens = ?, reasoning_tokens = ? WHERE org_id = ? AND trace_id = ?",
            {t.startTime,
             t.endTime,
             t.eventCount,
             t.errorCount,
             t.toolCallCount,
             t.handoffCount,
             t.inputTokens,
             t.outputTokens,
             t.costUsd,
             written.agentsJson,
             written.eventTypesJson,
             optionalValue(t.sessionId),
             optionalValue(t.userId),
             optionalValue(t.name),
             written.tagsJson,
             optionalValue(t.inputText),
             optionalValue(t.inputAt),
             optionalValue(t.outputText),
             optionalValue(t.outputAt),
             t.cachedInputTokens,
             t.reasoningTokens,
             orgId,
             traceId});
      }
    }
    if (!done) {
      // Every facet of the batch (the row is new, rebuilt, or changed by another writer),
      // and the row's id for the next batch's guard.
      auto ids = c.query("SELECT id FROM traces WHERE org_id = ? AND trace_id = ?", {orgId, traceId});
      written.rowId = ids.empty() ? 0 : ids.front().i64("id");
      for (const auto& f : deltaFacets)
        if (written.facets.size() < kKnownFacetLimit) written.facets.insert(f);
      if (withFacets && !deltaFacets.empty()) facets[key] = std::move(deltaFacets);
    }
    std::lock_guard lock(knownMutex_);
    if (known_.size() >= kKnownLimit && !known_.count(key)) known_.clear();
    known_[key] = std::move(written);
  }
  facets_.write(c, facets);
}

void TraceRepository::forgetUncommitted() {
  std::lock_guard lock(knownMutex_);
  known_.clear();
}

std::vector<std::string> TraceRepository::idsInChannels(Connection& c, std::int64_t orgId,
                                                        const std::vector<std::int64_t>& channelIds) {
  std::set<std::string> ids;
  for (const auto channelId : channelIds)
    for (const auto& r :
         c.query("SELECT DISTINCT trace_id FROM events WHERE org_id = ? AND channel_id = ? AND trace_id IS NOT NULL",
                 {orgId, channelId}))
      ids.insert(r.str("trace_id"));
  return {ids.begin(), ids.end()};
}

void TraceRepository::rebuild(Connection& c, std::int64_t orgId, const std::vector<std::string>& traceIds) {
  for (const auto& traceId : traceIds) {
    c.exec("DELETE FROM traces WHERE org_id = ? AND trace_id = ?", {orgId, traceId});
    auto remaining = eventsWithTelemetry(c, orgId, traceId);
    for (auto& e : remaining) e.isError = isErrorEvent(e);
    applyRollups(c, remaining, false);   // no events left: no rollup
    facets_.rebuild(c, orgId, traceId);  // from the rows (the events above lack their environment)
    // The sums come from the store as well (the same columns apply() just added up).
    c.exec(
        "UPDATE traces SET input_tokens = COALESCE((SELECT SUM(input_tokens) FROM events WHERE org_id = ? AND "
        "trace_id = ?), 0), output_tokens = COALESCE((SELECT SUM(output_tokens) FROM events WHERE org_id = ? AND "
        "trace_id = ?), 0), cost_usd = COALESCE((SELECT SUM(cost_usd) FROM events WHERE org_id = ? AND trace_id = "
        "?), 0), cached_input_tokens = COALESCE((SELECT SUM(cached_input_tokens) FROM events WHERE org_id = ? AND "
        "trace_id = ?), 0), reasoning_tokens = COALESCE((SELECT SUM(reasoning_tokens) FROM events WHERE org_id = ? "
        "AND trace_id = ?), 0) WHERE org_id = ? AND trace_id = ?",
        {orgId, traceId, orgId, traceId, orgId, traceId, orgId, traceId, orgId, traceId, orgId, traceId});
  }
}

std::optional<TraceRecord> TraceRepository::byId(Connection& c, std::int64_t orgId, const std::string& traceId) {
  return byId(c, orgId, traceId, "");
}

std::optional<TraceRecord> TraceRepository::lockedById(Connection& c, std::int64_t orgId, const std::string& traceId) {
  // SQLite has one writer at a time (BEGIN IMMEDIATE): the write transaction is the lock.
  return byId(c, orgId, traceId, c.dialect() == Dialect::PostgreSQL ? " FOR UPDATE" : "");
}

std::optional<TraceRecord> TraceRepository::byId(Connection& c, std::int64_t orgId, const std::string& traceId,
                                                 const char* lockClause) {
  auto rows =
      c.query(std::string("SELECT ") + kTraceColumns + " FROM traces WHERE org_id = ? AND trace_id = ?" + lockClause,
              {orgId, traceId});
  if (rows.empty()) return std::nullopt;
  return traceFromRow(rows.front());
}

std::vector<TraceRecord> TraceRepository::list(Connection& c, std::int64_t orgId, const TraceQuery& q,
                                               std::int64_t offset, std::int64_t limit) {
  Params params{orgId};
  std::string sql = std::string("SELECT ") + kTraceColumns + " FROM traces WHERE org_id = ?" +
                    traceConditions(c.dialect(), orgId, q, params, facets_.complete(c)) + orderClause(q) +
                    " LIMIT ? OFFSET ?";
  params.emplace_back(limit);
  params.emplace_back(offset);
  std::vector<TraceRecord> out;
  for (const auto& r : c.query(sql, std::move(params))) out.push_back(traceFromRow(r));
  return out;
}

std::int64_t TraceRepository::count(Connection& c, std::int64_t orgId, const TraceQuery& q) {
  Params params{orgId};
  std::string sql = "SELECT COUNT(*) AS n FROM traces WHERE org_id = ?" +
                    traceConditions(c.dialect(), orgId, q, params, facets_.complete(c));
  return c.query(sql, std::move(params)).front().i64("n");
}

std::vector<StoredEvent> TraceRepository::events(Connection& c, std::int64_t orgId, const std::string& traceId) {
  std::vector<StoredEvent> out;
  for (const auto& r :
       c.query(std::string("SELECT ") + kEventColumns +
                   " FROM events WHERE org_id = ? AND trace_id = ? ORDER BY COALESCE(occurred_at, received_at), id",
               {orgId, traceId}))
    out.push_back(eventFromRow(r));
  return out;
}

}  // namespace aev::store

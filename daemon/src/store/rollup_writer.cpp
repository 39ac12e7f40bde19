#include "store/rollup_writer.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>

namespace aev::store {

namespace {

constexpr std::int64_t kMicrosPerSecond = 1000000;
constexpr double kMaxCostUsd = 1e6;
constexpr double kMaxDurationMs = 1e12;
// Events read per statement when a deletion takes its events out of the rollups.
constexpr std::int64_t kSubtractPage = 5000;

// Every (dimension, value) an event counts under: the totals, each rolled-up standard
// dimension the event has a value for (the analytics names, as GET /analytics/breakdown takes them)
// and each custom attribute.
template <class F>
void forEachDimension(const StoredEvent& e, F&& f) {
  const auto& t = e.telemetry;
  f(std::string(), std::string());
  const auto text = [&](const char* name, const std::optional<std::string>& v) {
    if (v) f(std::string(name), *v);
  };
  text("model", t.model);
  text("provider", t.provider);
  text("status", t.status);
  f(std::string("source"), e.source);
  f(std::string("app"), std::to_string(e.appId));
  f(std::string("channel"), std::to_string(e.channelId));
  if (e.apiKeyId) f(std::string("apiKey"), std::to_string(*e.apiKeyId));
  text("user", t.endUser);
  text("agent", t.agent);
  text("tool", t.tool);
  text("eventType", e.eventType);
  text("finishReason", t.finishReason);
  text("semanticKind", t.semanticKind);
  text("service", t.service);
  text("operation", t.operation);
  text("errorType", t.errorType);
  // Not "session" nor "traceName": see rolledUpDimension().
  for (const auto& [key, value] : t.attributes) f(kTagDimensionPrefix + key, value);
}

std::string hexOf(const std::string& bytes) {
  static const char* const digits = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

// A table per byte rather than comparisons: every sketch a PostgreSQL percentile reads
// comes through here (11 % of a 24-hour percentile's CPU before; bench/NOTEBOOK.md). Not
// common/encoding's hexDecode: that one is libsodium's constant-time decoder, meant for
// secrets, and took 12 ns a byte against this table's 2.2 (g++ -O2, 4 KB rows, one core,
// 2026-11-28); sketches are not secret and a percentile reads ~40 KB of them.
std::optional<std::string> bytesOfHex(const std::string& hex) {
  static constexpr auto kNibble = [] {
    std::array<std::int8_t, 256> t{};
    t.fill(-1);
    for (int c = 0; c < 10; ++c) t['0' + c] = static_cast<std::int8_t>(c);
    for (int c = 0; c < 6; ++c) t['a' + c] = t['A' + c] = static_cast<std::int8_t>(10 + c);
    return t;
  }();
  if (hex.size() % 2) return std::nullopt;
  std::string out(hex.size() / 2, '\0');
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int hi = kNibble[static_cast<unsigned char>(hex[2 * i])],
              lo = kNibble[static_cast<unsigned char>(hex[2 * i + 1])];
    if ((hi | lo) < 0) return std::nullopt;
    out[i] = static_cast<char>(hi * 16 + lo);
  }
  return out;
}

// A PostgreSQL array literal element.
void appendElement(std::string& out, const std::string& s) {
  out += '"';
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  out += '"';
}

}  // namespace

std::int64_t rollupCostNanos(double costUsd) {
  return static_cast<std::int64_t>(std::trunc(std::clamp(costUsd, -kMaxCostUsd, kMaxCostUsd) * 1e9 + 0.5));
}

std::int64_t rollupDurationMicros(double durationMs) {
  return static_cast<std::int64_t>(std::trunc(std::clamp(durationMs, -kMaxDurationMs, kMaxDurationMs) * 1000.0 + 0.5));
}

namespace {
std::string scaledSql(Dialect d, const std::string& column, const char* limit, const char* scale) {
  if (d == Dialect::SQLite)
    return "CAST(MAX(-" + std::string(limit) + ", MIN(" + limit + ", " + column + ")) * " + scale +
           " + 0.5 AS INTEGER)";
  // GREATEST/LEAST skip NULLs: the CASE keeps a NULL column NULL.
  return "(CASE WHEN " + column + " IS NULL THEN NULL ELSE TRUNC(GREATEST(-" + limit + "::float8, LEAST(" + limit +
         "::float8, " + column + ")) * " + scale + "::float8 + 0.5::float8)::bigint END)";
}
}  // namespace

std::string rollupCostNanosSql(Dialect d, const std::string& column) { return scaledSql(d, column, "1e6", "1e9"); }

std::string rollupDurationMicrosSql(Dialect d, const std::string& column) {
  return scaledSql(d, column, "1e12", "1000.0");
}

std::int64_t rollupBucketOf(std::int64_t ts, std::int64_t spanSeconds) {
  const std::int64_t step = spanSeconds * kMicrosPerSecond;
  std::int64_t q = ts / step;
  if (ts % step < 0) --q;
  return q * step;
}

std::string rollupSketchParamSql(Dialect d) { return d == Dialect::SQLite ? "CAST(? AS BLOB)" : "decode(?, 'hex')"; }

SqlValue rollupSketchParam(Dialect d, const analytics::LatencySketch& s) {
  if (s.empty()) return nullValue();
  return d == Dialect::SQLite ? s.serialize() : hexOf(s.serialize());
}

std::string rollupSketchColumnSql(Dialect d, const std::string& column) {
  return d == Dialect::SQLite ? column : "encode(" + column + ", 'hex')";
}

analytics::LatencySketch rollupSketchOf(Dialect d, const Row& r, const std::string& column) {
  if (r.isNull(column)) return {};
  auto bytes = d == Dialect::SQLite ? std::optional<std::string>(r.str(column)) : bytesOfHex(r.str(column));
  std::optional<analytics::LatencySketch> s;
  if (bytes) s = analytics::LatencySketch::deserialize(*bytes);
  if (!s) {
    spdlog::error("analytics rollups: a stored latency sketch is damaged; counted as empty");
    return {};
  }
  return *s;
}

void RollupTotals::add(const RollupTotals& o) {
  events += o.events;
  errors += o.errors;
  inputTokens += o.inputTokens;
  outputTokens += o.outputTokens;
  costNanos += o.costNanos;
  durations += o.durations;
  durationMicros += o.durationMicros;
  sketch.merge(o.sketch);
}

std::map<RollupKey, RollupTotals> RollupWriter::aggregate(const std::vector<StoredEvent>& events) {
  // Minutes from the events; hours and days from those minutes (a minute delta adds into
  // its hour and its day, which is what the events would add, in fewer map operations
  // when a batch's events share keys).
  std::map<RollupKey, RollupTotals> minutes;
  for (const auto& e : events) {
    const auto& t = e.telemetry;
    RollupTotals one;
    one.events = 1;
    one.errors = t.status == "error" ? 1 : 0;
    one.inputTokens = t.inputTokens.value_or(0);
    one.outputTokens = t.outputTokens.value_or(0);
    one.costNanos = t.costUsd ? rollupCostNanos(*t.costUsd) : 0;
    if (t.durationMs) {
      one.durations = 1;
      one.durationMicros = rollupDurationMicros(*t.durationMs);
      one.sketch.add(*t.durationMs);
    }
    const auto span = kRollupSpans[0];
    RollupKey key{e.orgId, {}, span, rollupBucketOf(e.effectiveTime(), span), {}, e.appId, t.environment.value_or("")};
    forEachDimension(e, [&](std::string dimension, const std::string& value) {
      key.dimension = std::move(dimension);
      key.value = value;
      minutes[key].add(one);
    });
  }
  std::map<RollupKey, RollupTotals> out;
  for (const auto& [minute, totals] : minutes) {
    for (std::size_t i = 1; i < std::size(kRollupSpans); ++i) {
      RollupKey coarser = minute;
      coarser.span = kRollupSpans[i];
      coarser.bucket = rollupBucketOf(minute.bucket, coarser.span);
      out[std::move(coarser)].add(totals);
    }
  }
  out.merge(minutes);  // disjoint keys (spans differ): every minute moves over
  return out;
}

void RollupWriter::add(Connection& c, const std::vector<StoredEvent>& events) {
  if (events.empty()) return;
  write(c, aggregate(events), false);
}

namespace {

// The state row, locked against a concurrent backfill step (PostgreSQL): a deletion
// either runs before the step (which then no longer sees the events) or after it (and
// then sees them counted).
std::pair<std::int64_t, std::int64_t> backfillState(Connection& c, bool forUpdate) {
  std::string sql = "SELECT backfill_until, backfilled_to FROM analytics_rollup_state WHERE id = 1";
  if (c.dialect() == Dialect::PostgreSQL) sql += forUpdate ? " FOR UPDATE" : " FOR SHARE";
  auto state = c.query(sql);
  if (state.empty()) return {0, 0};
  return {state.front().i64("backfill_until"), state.front().i64("backfilled_to")};
}

// Up to `limit` events matching `where` (over events e, with its values), oldest id first,
// with their custom attributes: what aggregate() reads.
std::vector<StoredEvent> readEvents(Connection& c, const std::string& where, const Params& params, std::int64_t limit) {
  Params p = params;
  p.emplace_back(limit);
  std::vector<StoredEvent> events;
  std::map<std::int64_t, std::size_t> indexOf;
  for (const auto& r :
       c.query("SELECT e.id, e.org_id, e.app_id, e.channel_id, e.api_key_id, e.source, e.event_type, e.ts, e.model, "
               "e.provider, e.status, e.end_user, e.agent, e.tool, e.finish_reason, e.semantic_kind, e.service, "
               "e.operation, e.error_type, e.environment, e.session, e.trace_name, e.input_tokens, e.output_tokens, "
               "e.cost_usd, e.duration_ms FROM events e" +
                   where + " ORDER BY e.id LIMIT ?",
               std::move(p))) {
    StoredEvent e;
    e.id = r.i64("id");
    e.orgId = r.i64("org_id");
    e.appId = r.i64("app_id");
    e.channelId = r.i64("channel_id");
    e.apiKeyId = r.optI64("api_key_id");
    e.source = r.str("source");
    e.eventType = r.optStr("event_type");
    e.occurredAt = r.i64("ts");
    auto& t = e.telemetry;
    t.model = r.optStr("model");
    t.provider = r.optStr("provider");
    t.status = r.optStr("status");
    t.endUser = r.optStr("end_user");
    t.agent = r.optStr("agent");
    t.tool = r.optStr("tool");
    t.finishReason = r.optStr("finish_reason");
    t.semanticKind = r.optStr("semantic_kind");
    t.service = r.optStr("service");
    t.operation = r.optStr("operation");
    t.errorType = r.optStr("error_type");
    t.environment = r.optStr("environment");
    t.session = r.optStr("session");
    t.traceName = r.optStr("trace_name");
    t.inputTokens = r.optI64("input_tokens");
    t.outputTokens = r.optI64("output_tokens");
    if (!r.isNull("cost_usd")) t.costUsd = r.f64("cost_usd");
    if (!r.isNull("duration_ms")) t.durationMs = r.f64("duration_ms");
    indexOf[e.id] = events.size();
    events.push_back(std::move(e));
  }
  if (events.empty()) return events;
  // The attributes of the ids read, by the index on event_id; those of other events in the
  // range are skipped below. (Not a join repeating `where`: SQLite bounds a rowid scan by
  // the first range terms it meets, which were the caller's wide ones, so each step read the
  // rest of the table: a backfill of 10M events would have taken hours.)
  for (const auto& r :
       c.query("SELECT event_id, key, value FROM event_attributes WHERE event_id >= ? AND event_id <= ?",
               {events.front().id, events.back().id})) {
    auto it = indexOf.find(r.i64("event_id"));
    if (it != indexOf.end()) events[it->second].telemetry.attributes.emplace_back(r.str("key"), r.str("value"));
  }
  return events;
}

}  // namespace

void RollupWriter::subtractWhere(Connection& c, std::int64_t orgId, const std::string& condition,
                                 const Params& params) {
  const auto [until, done] = backfillState(c, false);
  const std::string where = " WHERE e.org_id = ? AND (" + condition + ") AND (e.id > ? OR e.id <= ?) AND e.id > ?";
  std::int64_t after = 0;
  for (;;) {
    Params p{orgId};
    p.insert(p.end(), params.begin(), params.end());
    p.emplace_back(until);
    p.emplace_back(done);
    p.emplace_back(after);
    const auto events = readEvents(c, where, p, kSubtractPage);
    if (events.empty()) return;
    write(c, aggregate(events), true);
    if (static_cast<std::int64_t>(events.size()) < kSubtractPage) return;
    after = events.back().id;
  }
}

namespace {
// backfill_until while rollup writes are off: nothing counts as backfilled.
constexpr std::int64_t kRollupsStale = std::numeric_limits<std::int64_t>::max();
}  // namespace

std::string RollupWriter::applyWritesSetting(Connection& c, bool writes) {
  const bool stale = backfillState(c, true).first == kRollupsStale;
  if (writes == !stale) return "";
  c.exec("DELETE FROM analytics_rollups");
  if (!writes) {
    c.exec("UPDATE analytics_rollup_state SET backfill_until = ?, backfilled_to = 0 WHERE id = 1", {kRollupsStale});
    return "analytics rollups: writes off (analytics.rollup_writes=false): rollups emptied, analytics reads raw "
           "events";
  }
  c.exec(
      "UPDATE analytics_rollup_state SET backfill_until = (SELECT COALESCE(MAX(id), 0) FROM events), backfilled_to "
      "= 0 WHERE id = 1");
  return "analytics rollups: writes back on after a start without them: rebuilt by the background backfill";
}

RollupBackfillStep RollupWriter::backfillStep(Connection& c, std::int64_t chunk) {
  RollupBackfillStep out;
  std::tie(out.until, out.done) = backfillState(c, true);
  if (out.done >= out.until) {
    out.finished = true;
    return out;
  }
  const auto events = readEvents(c, " WHERE e.id > ? AND e.id <= ?", {out.done, out.until}, chunk);
  write(c, aggregate(events), false);
  out.folded = static_cast<std::int64_t>(events.size());
  out.done = static_cast<std::int64_t>(events.size()) < chunk ? out.until : events.back().id;
  c.exec("UPDATE analytics_rollup_state SET backfilled_to = ? WHERE id = 1", {out.done});
  out.finished = out.done >= out.until;
  return out;
}

void RollupWriter::write(Connection& c, const std::map<RollupKey, RollupTotals>& deltas, bool subtract) {
  if (deltas.empty()) return;
  if (c.dialect() == Dialect::PostgreSQL)
    writePostgres(c, deltas, subtract);
  else
    writeSqlite(c, deltas, subtract);
}

namespace {
const char* const kKeyMatch =
    "org_id = ? AND dimension = ? AND span_s = ? AND bucket = ? AND value = ? AND app_id = ? AND environment = ?";

void appendKey(Params& p, const RollupKey& k) {
  p.emplace_back(k.orgId);
  p.emplace_back(k.dimension);
  p.emplace_back(k.span);
  p.emplace_back(k.bucket);
  p.emplace_back(k.value);
  p.emplace_back(k.appId);
  p.emplace_back(k.environment);
}

void appendCounts(Params& p, const RollupTotals& t, std::int64_t sign) {
  for (auto v : {t.events, t.errors, t.inputTokens, t.outputTokens, t.costNanos, t.durations, t.durationMicros})
    p.emplace_back(sign * v);
}
}  // namespace

namespace {
// Keys per SQLite upsert statement: powers of two up to 64 (64 × 15 parameters stays under
// SQLite's oldest limit of 999), so a commit of n keys runs about n / 64 statements and at
// most seven statement texts are ever prepared.
constexpr int kSqliteUpsertLevels = 7;

std::string sqliteUpsertSql(std::size_t rows) {
  std::string sql =
      "INSERT INTO analytics_rollups (org_id, dimension, span_s, bucket, value, app_id, environment, events, errors, "
      "input_tokens, output_tokens, cost_nanos, durations, duration_micros, sketch) VALUES ";
  for (std::size_t i = 0; i < rows; ++i) {
    if (i) sql += ", ";
    sql += "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS BLOB))";
  }
  sql +=
      " ON CONFLICT (org_id, dimension, span_s, bucket, value, app_id, environment) DO UPDATE SET events = events + "
      "excluded.events, errors = errors + excluded.errors, input_tokens = input_tokens + excluded.input_tokens, "
      "output_tokens = output_tokens + excluded.output_tokens, cost_nanos = cost_nanos + excluded.cost_nanos, "
      "durations = durations + excluded.durations, duration_micros = duration_micros + excluded.duration_micros, "
      "sketch = aev_sketch_merge(sketch, excluded.sketch)";
  return sql;
}
}  // namespace

void RollupWriter::writeSqlite(Connection& c, const std::map<RollupKey, RollupTotals>& deltas, bool subtract) {
  if (!subtract) {
    // Adding: SQL merges the sketch too (aev_sketch_merge, store/sqlite_sketch_function.h),
    // so the keys go in multi-row upserts without reading their rows first.
    static const auto texts = [] {
      std::vector<std::string> t;
      for (int level = 0; level < kSqliteUpsertLevels; ++level) t.push_back(sqliteUpsertSql(std::size_t{1} << level));
      return t;
    }();
    auto it = deltas.begin();
    for (std::size_t left = deltas.size(); left > 0;) {
      int level = kSqliteUpsertLevels - 1;
      while ((std::size_t{1} << level) > left) --level;
      const std::size_t rows = std::size_t{1} << level;
      Params p;
      p.reserve(rows * 15);
      for (std::size_t i = 0; i < rows; ++i, ++it) {
        appendKey(p, it->first);
        appendCounts(p, it->second, 1);
        p.push_back(rollupSketchParam(Dialect::SQLite, it->second.sketch));
      }
      c.exec(texts[static_cast<std::size_t>(level)], std::move(p));
      left -= rows;
    }
    return;
  }
  // Subtracting (deletions, rare): each key's sketch read, reduced and written back.
  static const std::string select = std::string("SELECT sketch FROM analytics_rollups WHERE ") + kKeyMatch;
  static const std::string update =
      std::string(
          "UPDATE analytics_rollups SET events = events + ?, errors = errors + ?, input_tokens = input_tokens "
          "+ ?, output_tokens = output_tokens + ?, cost_nanos = cost_nanos + ?, durations = durations + ?, "
          "duration_micros = duration_micros + ?, sketch = CAST(? AS BLOB) WHERE ") +
      kKeyMatch;
  for (const auto& [key, delta] : deltas) {
    Params keyParams;
    appendKey(keyParams, key);
    auto rows = c.query(select, keyParams);
    if (rows.empty()) continue;  // nothing of it was ever rolled up
    auto sketch = rollupSketchOf(Dialect::SQLite, rows.front(), "sketch");
    if (!sketch.subtract(delta.sketch)) spdlog::warn("analytics rollups: a sketch held fewer values than deleted");
    Params p;
    appendCounts(p, delta, -1);
    p.push_back(rollupSketchParam(Dialect::SQLite, sketch));
    p.insert(p.end(), keyParams.begin(), keyParams.end());
    c.exec(update, std::move(p));
  }
}

namespace {
using DeltaRef = std::map<RollupKey, RollupTotals>::const_reference;

// The key columns of `rows` as PostgreSQL array literals, one per column, in key order (the
// order rows are locked in).
Params postgresKeyArrays(const std::vector<const std::pair<const RollupKey, RollupTotals>*>& rows) {
  std::vector<std::string> arrays(7, "{");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& k = rows[i]->first;
    const char* sep = i ? "," : "";
    arrays[0] += sep + std::to_string(k.orgId);
    arrays[1] += sep, appendElement(arrays[1], k.dimension);
    arrays[2] += sep + std::to_string(k.span);
    arrays[3] += sep + std::to_string(k.bucket);
    arrays[4] += sep, appendElement(arrays[4], k.value);
    arrays[5] += sep + std::to_string(k.appId);
    arrays[6] += sep, appendElement(arrays[6], k.environment);
  }
  Params p;
  for (auto& a : arrays) p.emplace_back(a + '}');
  return p;
}

// The seven counts (times `sign`) and the sketch of each row as array literals, the sketch
// as hex (NULL when empty): `sketchOf` gives the sketch a row is to hold.
template <class SketchOf>
void appendPostgresValueArrays(Params& p, const std::vector<const std::pair<const RollupKey, RollupTotals>*>& rows,
                               std::int64_t sign, SketchOf&& sketchOf) {
  std::vector<std::string> values(8, "{");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& delta = rows[i]->second;
    const char* sep = i ? "," : "";
    const std::int64_t counts[] = {delta.events,    delta.errors,    delta.inputTokens,   delta.outputTokens,
                                   delta.costNanos, delta.durations, delta.durationMicros};
    for (std::size_t c = 0; c < 7; ++c) values[c] += sep + std::to_string(sign * counts[c]);
    const analytics::LatencySketch& sketch = sketchOf(*rows[i]);
    values[7] += sep;
    values[7] += sketch.empty() ? std::string("NULL") : hexOf(sketch.serialize());
  }
  for (auto& v : values) p.emplace_back(v + '}');
}

constexpr const char* kPostgresRowsOf =
    "unnest(?::bigint[], ?::text[], ?::int[], ?::bigint[], ?::text[], ?::bigint[], ?::text[], ?::bigint[], "
    "?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::text[]) WITH ORDINALITY AS "
    "u(o, d, s, b, v, a, env, n, errs, inp, outp, cost, nd, dur, sk, ord)";
}  // namespace

void RollupWriter::writePostgres(Connection& c, const std::map<RollupKey, RollupTotals>& deltas, bool subtract) {
  std::vector<const std::pair<const RollupKey, RollupTotals>*> rows;
  rows.reserve(deltas.size());
  for (const auto& d : deltas) rows.push_back(&d);
  if (!subtract) {
    // Keys not stored yet go in whole, with their counts and sketch: a key new to this
    // commit costs one insert, not an insert, a lock and an update (a distinct end user a
    // minute makes three new keys an event). Those a row already holds conflict and are left
    // to the read-modify-write below.
    Params p = postgresKeyArrays(rows);
    appendPostgresValueArrays(p, rows, 1,
                              [](DeltaRef d) -> const analytics::LatencySketch& { return d.second.sketch; });
    // Answered by the ordinals of the keys that did not go in: one integer a row to read
    // back rather than the seven key columns of each (a Poco value a cell).
    std::vector<std::size_t> stored;
    for (const auto& r : c.query(
             std::string("WITH u AS (SELECT * FROM ") + kPostgresRowsOf +
                 "), ins AS (INSERT INTO analytics_rollups (org_id, dimension, span_s, bucket, value, app_id, "
                 "environment, events, errors, input_tokens, output_tokens, cost_nanos, durations, duration_micros, "
                 "sketch) SELECT o, d, s, b, v, a, env, n, errs, inp, outp, cost, nd, dur, decode(sk, 'hex') FROM u "
                 "ORDER BY ord ON CONFLICT DO NOTHING RETURNING org_id, dimension, span_s, bucket, value, app_id, "
                 "environment) SELECT u.ord FROM u WHERE NOT EXISTS (SELECT 1 FROM ins WHERE ins.org_id = u.o AND "
                 "ins.dimension = u.d AND ins.span_s = u.s AND ins.bucket = u.b AND ins.value = u.v AND ins.app_id = "
                 "u.a AND ins.environment = u.env) ORDER BY u.ord",
             std::move(p)))
      stored.push_back(static_cast<std::size_t>(r.i64("ord")) - 1);
    std::vector<const std::pair<const RollupKey, RollupTotals>*> left;
    left.reserve(stored.size());
    for (auto i : stored) left.push_back(rows.at(i));
    rows = std::move(left);
    if (rows.empty()) return;
  }
  // Rows that exist: read with their rows locked (FOR UPDATE, in key order, so writers on
  // several nodes queue rather than lose an update), their sketches merged here, written back.
  const Params keyParams = postgresKeyArrays(rows);
  std::vector<analytics::LatencySketch> sketches(rows.size());
  for (const auto& r : c.query(
           "SELECT k.ord, encode(r.sketch, 'hex') AS sketch FROM analytics_rollups r JOIN unnest(?::bigint[], "
           "?::text[], ?::int[], ?::bigint[], ?::text[], ?::bigint[], ?::text[]) WITH ORDINALITY AS k(o, d, s, b, v, "
           "a, env, ord) ON r.org_id = k.o AND r.dimension = k.d AND r.span_s = k.s AND r.bucket = k.b AND r.value = "
           "k.v AND r.app_id = k.a AND r.environment = k.env ORDER BY k.ord FOR UPDATE OF r",
           keyParams)) {
    if (r.isNull("sketch")) continue;
    auto bytes = bytesOfHex(r.str("sketch"));
    auto sketch = bytes ? analytics::LatencySketch::deserialize(*bytes) : std::nullopt;
    if (!sketch) spdlog::error("analytics rollups: a stored latency sketch is damaged; counted as empty");
    sketches.at(static_cast<std::size_t>(r.i64("ord")) - 1) = sketch.value_or(analytics::LatencySketch{});
  }
  // A key with no row (subtracting what was never rolled up) updates nothing: its sketch
  // stays empty here and the UPDATE's join finds no row for it.
  Params p = keyParams;
  std::size_t next = 0;  // appendPostgresValueArrays walks `rows` in order
  appendPostgresValueArrays(p, rows, subtract ? -1 : 1, [&](DeltaRef d) -> const analytics::LatencySketch& {
    auto& sketch = sketches[next++];
    if (!subtract)
      sketch.merge(d.second.sketch);
    else if (!sketch.subtract(d.second.sketch))
      spdlog::warn("analytics rollups: a sketch held fewer values than deleted");
    return sketch;
  });
  c.exec(std::string("UPDATE analytics_rollups r SET events = r.events + u.n, errors = r.errors + u.errs, "
                     "input_tokens = r.input_tokens + u.inp, output_tokens = r.output_tokens + u.outp, cost_nanos = "
                     "r.cost_nanos + u.cost, durations = r.durations + u.nd, duration_micros = r.duration_micros + "
                     "u.dur, sketch = decode(u.sk, 'hex') FROM ") +
             kPostgresRowsOf +
             " WHERE r.org_id = u.o AND r.dimension = u.d AND r.span_s = u.s AND r.bucket = u.b AND r.value = u.v "
             "AND r.app_id = u.a AND r.environment = u.env",
         std::move(p));
}

}  // namespace aev::store

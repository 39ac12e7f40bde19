#include "store/rollup_repository.h"

namespace aev::store {

namespace {

std::string whereOf(const RollupScope& s, std::int64_t span, std::int64_t from, std::int64_t to, Params& p) {
  std::string sql = " WHERE r.org_id = ? AND r.dimension = ? AND r.span_s = ? AND r.bucket >= ? AND r.bucket < ?";
  p.emplace_back(s.orgId);
  p.emplace_back(s.dimension);
  p.emplace_back(span);
  p.emplace_back(from);
  p.emplace_back(to);
  if (s.value) {
    sql += " AND r.value = ?";
    p.emplace_back(*s.value);
  }
  if (s.appId) {
    sql += " AND r.app_id = ?";
    p.emplace_back(*s.appId);
  }
  if (s.environments) {
    sql += " AND r.environment IN (";
    for (std::size_t i = 0; i < s.environments->size(); ++i) {
      sql += i ? ",?" : "?";
      p.emplace_back((*s.environments)[i]);
    }
    sql += ")";
    if (s.environments->empty()) sql += " AND 1 = 0";
  }
  return sql;
}

void readCounts(const Row& r, RollupTotals& t) {
  t.events += r.i64("events");
  t.errors += r.i64("errors");
  t.inputTokens += r.i64("input_tokens");
  t.outputTokens += r.i64("output_tokens");
  t.costNanos += r.i64("cost_nanos");
  t.durations += r.i64("durations");
  t.durationMicros += r.i64("duration_micros");
}

}  // namespace

bool RollupRepository::complete(Connection& c) {
  auto rows = c.query("SELECT backfill_until, backfilled_to FROM analytics_rollup_state WHERE id = 1");
  return !rows.empty() && rows.front().i64("backfilled_to") >= rows.front().i64("backfill_until");
}

std::map<std::string, RollupTotals> RollupRepository::byValue(Connection& c, const RollupScope& s,
                                                              std::int64_t spanSeconds, std::int64_t from,
                                                              std::int64_t to) {
  Params p;
  const std::string sql =
      "SELECT r.value, SUM(r.events) AS events, SUM(r.errors) AS errors, SUM(r.input_tokens) AS input_tokens, "
      "SUM(r.output_tokens) AS output_tokens, SUM(r.cost_nanos) AS cost_nanos, SUM(r.durations) AS durations, "
      "SUM(r.duration_micros) AS duration_micros FROM analytics_rollups r" +
      whereOf(s, spanSeconds, from, to, p) + " GROUP BY r.value";
  std::map<std::string, RollupTotals> out;
  for (const auto& r : c.query(sql, std::move(p))) readCounts(r, out[r.str("value")]);
  return out;
}

std::map<std::int64_t, RollupTotals> RollupRepository::bySeriesBucket(Connection& c, const RollupScope& s,
                                                                      const std::vector<RollupRange>& ranges,
                                                                      std::int64_t step, bool sketches) {
  std::map<std::int64_t, RollupTotals> out;
  if (ranges.empty()) return out;
  Params p;
  std::string sql;
  const std::string columns =
      "SELECT r.bucket, r.events, r.errors, r.input_tokens, r.output_tokens, r.cost_nanos, r.durations, "
      "r.duration_micros" +
      (sketches ? ", " + rollupSketchColumnSql(c.dialect(), "r.sketch") + " AS sketch" : std::string()) +
      " FROM analytics_rollups r";
  for (const auto& range : ranges) {
    if (!sql.empty()) sql += " UNION ALL ";
    sql += columns + whereOf(s, range.spanSeconds, range.from, range.to, p);
  }
  for (const auto& r : c.query(sql, std::move(p))) {
    auto& t = out[rollupBucketOf(r.i64("bucket"), step / 1000000)];
    readCounts(r, t);
    if (sketches && r.i64("durations") > 0) t.sketch.merge(rollupSketchOf(c.dialect(), r, "sketch"));
  }
  return out;
}

}  // namespace aev::store

#include "store/analytics_repository.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "store/rollup_writer.h"

namespace aev::store {

namespace {

// The columns a caller may name (group by or filter): analytics maps its dimension and
// filter names onto these; anything else is a programming error, not user input.
bool isTelemetryColumn(const std::string& c) {
  static const char* const kColumns[] = {"model",      "provider",      "status",        "source",  "app_id",
                                         "channel_id", "api_key_id",    "end_user",      "agent",   "tool",
                                         "event_type", "finish_reason", "semantic_kind", "service", "operation",
                                         "error_type", "environment",   "release_tag",   "session", "trace_name"};
  for (const char* k : kColumns)
    if (c == k) return true;
  return false;
}

const std::string& checked(const std::string& column) {
  if (!isTelemetryColumn(column)) throw std::logic_error("not a telemetry column: " + column);
  return column;
}

// The series' aggregates over events e.
constexpr const char* kEventCount = "COUNT(*)";
constexpr const char* kErrorCount = "SUM(CASE WHEN e.status = 'error' THEN 1 ELSE 0 END)";
constexpr const char* kTokens = "SUM(COALESCE(e.input_tokens, 0) + COALESCE(e.output_tokens, 0))";
// Costs are summed in integer nano-dollars (each event's cost rounded), as the rollups
// keep them (store/rollup_writer.h): the same total whatever order or split sums them.
std::string costNanos(Dialect d) { return "COALESCE(SUM(" + rollupCostNanosSql(d) + "), 0)"; }

// WHERE clause over events e (and its parameters) for a filter.
std::string analyticsWhereOf(const AnalyticsFilter& f, Params& params) {
  std::string sql = " WHERE e.org_id = ? AND e.ts >= ? AND e.ts < ?";
  params.emplace_back(f.orgId);
  params.emplace_back(f.since);
  params.emplace_back(f.until);
  for (const auto& [column, value] : f.textEquals) {
    sql += " AND e." + checked(column) + " = ?";
    params.emplace_back(value);
  }
  for (const auto& [column, value] : f.idEquals) {
    sql += " AND e." + checked(column) + " = ?";
    params.emplace_back(value);
  }
  if (f.environmentAnyOf) {
    sql += " AND e.environment IN (";
    for (std::size_t i = 0; i < f.environmentAnyOf->size(); ++i) {
      sql += i ? ",?" : "?";
      params.emplace_back((*f.environmentAnyOf)[i]);
    }
    sql += ")";
  }
  if (f.tag) {
    sql += " AND EXISTS (SELECT 1 FROM event_attributes fa WHERE fa.event_id = e.id AND fa.key = ? AND fa.value = ?)";
    params.emplace_back(f.tag->first);
    params.emplace_back(f.tag->second);
  }
  return sql;
}

// One SELECT per window [since, until) of the filter (each written by `select`, which
// appends its parameters in text order), joined by UNION ALL: one statement, so one round
// trip to PostgreSQL, for a window's separate raw edges.
template <class Select>
std::string unionOverWindows(const AnalyticsFilter& f, const std::vector<TimeRange>& windows, Select select) {
  std::string sql;
  for (const auto& w : windows) {
    auto part = f;
    part.since = w.from;
    part.until = w.to;
    if (!sql.empty()) sql += " UNION ALL ";
    sql += select(part);
  }
  return sql;
}

std::string aggregates(Dialect d) {
  return "COUNT(*) AS n, SUM(CASE WHEN e.status = 'error' THEN 1 ELSE 0 END) AS errors, "
         "COALESCE(SUM(e.input_tokens), 0) AS input_tokens, COALESCE(SUM(e.output_tokens), 0) AS output_tokens, " +
         costNanos(d) + " AS cost_nanos, COUNT(e.duration_ms) AS durations, COALESCE(SUM(" +
         rollupDurationMicrosSql(d) + "), 0) AS duration_micros";
}

std::vector<BreakdownRow> breakdownRowsOf(const Rows& rows) {
  std::vector<BreakdownRow> out;
  out.reserve(rows.size());
  for (const auto& r : rows) {
    BreakdownRow b;
    b.key = r.str("k");
    b.eventCount = r.i64("n");
    b.errorCount = r.i64("errors");
    b.inputTokens = r.i64("input_tokens");
    b.outputTokens = r.i64("output_tokens");
    b.costNanos = r.i64("cost_nanos");
    b.durations = r.i64("durations");
    b.durationMicros = r.i64("duration_micros");
    b.settle();
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace

std::vector<BreakdownRow> AnalyticsRepository::breakdownByColumn(Connection& c, const AnalyticsFilter& f,
                                                                 const std::string& column, std::int64_t limit) {
  Params params;
  const std::string col = "e." + checked(column);
  std::string sql = "SELECT " + col + " AS k, " + aggregates(c.dialect()) + " FROM events e" +
                    analyticsWhereOf(f, params) + " AND " + col + " IS NOT NULL GROUP BY " + col +
                    " ORDER BY n DESC, k LIMIT ?";
  params.emplace_back(limit);
  return breakdownRowsOf(c.query(sql, std::move(params)));
}

std::vector<BreakdownRow> AnalyticsRepository::breakdownByTag(Connection& c, const AnalyticsFilter& f,
                                                              const std::string& tagKey, std::int64_t limit) {
  // Driven from event_attributes (org, key, ts) so only events carrying the key are read.
  Params params{f.orgId, tagKey, f.since, f.until};
  std::string where = analyticsWhereOf(f, params);
  std::string sql = std::string("SELECT a.value AS k, ") + aggregates(c.dialect()) +
                    " FROM event_attributes a JOIN events e ON e.id = a.event_id" + where +
                    " AND a.org_id = ? AND a.key = ? AND a.ts >= ? AND a.ts < ? GROUP BY a.value ORDER BY n DESC, k "
                    "LIMIT ?";
  // analyticsWhereOf's parameters come first in the text: move the four attribute bounds after them.
  Params ordered(params.begin() + 4, params.end());
  ordered.insert(ordered.end(), params.begin(), params.begin() + 4);
  ordered.emplace_back(limit);
  return breakdownRowsOf(c.query(sql, std::move(ordered)));
}

BreakdownRow AnalyticsRepository::totals(Connection& c, const AnalyticsFilter& f) {
  Params params;
  std::string sql =
      std::string("SELECT '' AS k, ") + aggregates(c.dialect()) + " FROM events e" + analyticsWhereOf(f, params);
  auto rows = breakdownRowsOf(c.query(sql, std::move(params)));
  return rows.empty() ? BreakdownRow{} : rows.front();
}

std::vector<std::pair<std::int64_t, double>> AnalyticsRepository::series(Connection& c, const AnalyticsFilter& f,
                                                                         SeriesMetric metric,
                                                                         std::int64_t bucketMicros) {
  std::string value = kEventCount;
  switch (metric) {
    case SeriesMetric::EventCount:
      value = kEventCount;
      break;
    case SeriesMetric::ErrorCount:
      value = kErrorCount;
      break;
    case SeriesMetric::Tokens:
      value = kTokens;
      break;
    case SeriesMetric::CostUsd:
      value = costNanos(c.dialect());
      break;
  }
  Params params{bucketMicros, bucketMicros};
  std::string sql = std::string("SELECT (e.ts / ?) * ? AS bucket, ") + value + " AS v FROM events e" +
                    analyticsWhereOf(f, params) + " GROUP BY bucket ORDER BY bucket";
  std::vector<std::pair<std::int64_t, double>> out;
  for (const auto& r : c.query(sql, std::move(params)))
    out.emplace_back(r.i64("bucket"),
                     metric == SeriesMetric::CostUsd ? static_cast<double>(r.i64("v")) / 1e9 : r.f64("v"));
  return out;
}

std::vector<SeriesRow> AnalyticsRepository::seriesAll(Connection& c, const AnalyticsFilter& f,
                                                      std::int64_t bucketMicros) {
  return seriesAll(c, f, {{f.since, f.until}}, bucketMicros);
}

std::vector<SeriesRow> AnalyticsRepository::seriesAll(Connection& c, const AnalyticsFilter& f,
                                                      const std::vector<TimeRange>& windows,
                                                      std::int64_t bucketMicros) {
  if (windows.empty()) return {};
  Params params;
  std::string sql = unionOverWindows(f, windows, [&](const AnalyticsFilter& part) {
    params.emplace_back(bucketMicros);
    params.emplace_back(bucketMicros);
    return std::string("SELECT (e.ts / ?) * ? AS bucket, ") + kEventCount + " AS n, " + kErrorCount + " AS errors, " +
           kTokens + " AS tokens, " + costNanos(c.dialect()) + " AS cost FROM events e" +
           analyticsWhereOf(part, params) + " GROUP BY bucket";
  });
  sql += " ORDER BY bucket";
  std::vector<SeriesRow> out;
  for (const auto& r : c.query(sql, std::move(params)))
    out.push_back({r.i64("bucket"), r.i64("n"), r.i64("errors"), r.i64("tokens"), r.i64("cost")});
  return out;
}

std::vector<std::pair<std::int64_t, double>> AnalyticsRepository::durations(Connection& c, const AnalyticsFilter& f,
                                                                            std::int64_t bucketMicros) {
  return durations(c, f, {{f.since, f.until}}, bucketMicros);
}

std::vector<std::pair<std::int64_t, double>> AnalyticsRepository::durations(Connection& c, const AnalyticsFilter& f,
                                                                            const std::vector<TimeRange>& windows,
                                                                            std::int64_t bucketMicros) {
  if (windows.empty()) return {};
  Params params;
  const std::string sql = unionOverWindows(f, windows, [&](const AnalyticsFilter& part) {
    std::string bucket = "0";
    if (bucketMicros > 0) {
      bucket = "(e.ts / ?) * ?";
      params.emplace_back(bucketMicros);
      params.emplace_back(bucketMicros);
    }
    return "SELECT " + bucket + " AS bucket, e.duration_ms AS d FROM events e" + analyticsWhereOf(part, params) +
           " AND e.duration_ms IS NOT NULL";
  });
  // Sorted here rather than by ORDER BY: SQLite's sorter spills the window's rows to a
  // temporary file (its memory is the page cache), where std::sort of the pairs takes a
  // few milliseconds (bench/console_1m.sh).
  std::vector<std::pair<std::int64_t, double>> out;
  for (const auto& r : c.query(sql, std::move(params))) out.emplace_back(r.i64("bucket"), r.f64("d"));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<AttributeKeyRow> AnalyticsRepository::attributeKeys(
    Connection& c, std::int64_t orgId, const std::optional<std::vector<std::string>>& environments,
    std::int64_t limit) {
  Params params{orgId};
  std::string sql =
      "SELECT key, MAX(last_seen) AS last_seen, MIN(source) AS source FROM attribute_keys WHERE org_id = ?";
  if (environments) {
    sql += " AND environment IN (";
    for (std::size_t i = 0; i < environments->size(); ++i) {
      sql += i ? ",?" : "?";
      params.emplace_back((*environments)[i]);
    }
    sql += ")";
  }
  sql += " GROUP BY key ORDER BY last_seen DESC, key LIMIT ?";
  params.emplace_back(limit);
  std::vector<AttributeKeyRow> out;
  for (const auto& r : c.query(sql, std::move(params)))
    out.push_back({r.str("key"), r.i64("last_seen"), r.str("source")});
  return out;
}

}  // namespace aev::store

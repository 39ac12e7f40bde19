#pragma once
// Aggregations over the telemetry columns of events (migration v4) for /analytics/*.
// Every query is bounded by organization and by a [since, until) window on events.ts,
// the index events_org_ts; custom attributes come from event_attributes.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct AnalyticsFilter {
  std::int64_t orgId = 0;
  std::int64_t since = 0;  // µs, inclusive
  std::int64_t until = 0;  // µs, exclusive
  // Equality filters on telemetry columns (column name → value).
  std::vector<std::pair<std::string, std::string>> textEquals;
  std::vector<std::pair<std::string, std::int64_t>> idEquals;
  // events.environment must be one of these (an environment's slug, name or id).
  std::optional<std::vector<std::string>> environmentAnyOf;
  std::optional<std::pair<std::string, std::string>> tag;  // key, value
};

struct BreakdownRow {
  std::string key;
  std::int64_t eventCount = 0;
  std::int64_t errorCount = 0;
  std::int64_t inputTokens = 0;
  std::int64_t outputTokens = 0;
  double costUsd = 0;
  std::optional<double> avgDurationMs;
  // The exact sums behind costUsd and avgDurationMs (store/rollup_writer.h): rows from
  // raw events and from rollups add up in these, then settle() derives the two.
  std::int64_t costNanos = 0, durations = 0, durationMicros = 0;
  void settle() {
    costUsd = static_cast<double>(costNanos) / 1e9;
    avgDurationMs.reset();
    if (durations) avgDurationMs = static_cast<double>(durationMicros) / static_cast<double>(durations) / 1000.0;
  }
};

struct AttributeKeyRow {
  std::string key;
  std::int64_t lastSeen = 0;
  std::string source;
};

enum class SeriesMetric { EventCount, ErrorCount, Tokens, CostUsd };

// [from, to) in µs.
struct TimeRange {
  std::int64_t from = 0, to = 0;
};

// Every count and sum of one bucket (seriesAll).
struct SeriesRow {
  std::int64_t bucket = 0;  // start, µs
  std::int64_t events = 0, errors = 0, tokens = 0, costNanos = 0;
};

class AnalyticsRepository {
 public:
  // Grouped by a telemetry column (`column` is one of the names analytics maps its
  // dimensions to, never user text), or by the value of custom attribute `tagKey`.
  std::vector<BreakdownRow> breakdownByColumn(Connection& c, const AnalyticsFilter& f, const std::string& column,
                                              std::int64_t limit);
  std::vector<BreakdownRow> breakdownByTag(Connection& c, const AnalyticsFilter& f, const std::string& tagKey,
                                           std::int64_t limit);
  // The aggregates of every matching event (key ""): alert metrics read these.
  BreakdownRow totals(Connection& c, const AnalyticsFilter& f);
  // (bucket start µs, value) for buckets with events, oldest first.
  std::vector<std::pair<std::int64_t, double>> series(Connection& c, const AnalyticsFilter& f, SeriesMetric metric,
                                                      std::int64_t bucketMicros);
  // The four counts and sums of each bucket with events, oldest first: one scan where
  // series() would make four.
  std::vector<SeriesRow> seriesAll(Connection& c, const AnalyticsFilter& f, std::int64_t bucketMicros);
  // The same over several windows [since, until) of the filter in one statement (a
  // UNION ALL: one round trip to PostgreSQL); a bucket two windows share comes twice.
  std::vector<SeriesRow> seriesAll(Connection& c, const AnalyticsFilter& f, const std::vector<TimeRange>& windows,
                                   std::int64_t bucketMicros);
  // Every duration_ms in the window with its bucket start, ordered by bucket then
  // duration (bucketMicros 0: one bucket, start 0), for percentiles.
  std::vector<std::pair<std::int64_t, double>> durations(Connection& c, const AnalyticsFilter& f,
                                                         std::int64_t bucketMicros);
  // The same over several windows of the filter in one statement.
  std::vector<std::pair<std::int64_t, double>> durations(Connection& c, const AnalyticsFilter& f,
                                                         const std::vector<TimeRange>& windows,
                                                         std::int64_t bucketMicros);
  // Custom attribute keys seen (environment "" = any environment), newest first.
  std::vector<AttributeKeyRow> attributeKeys(Connection& c, std::int64_t orgId,
                                             const std::optional<std::vector<std::string>>& environments,
                                             std::int64_t limit);
};

}  // namespace aev::store

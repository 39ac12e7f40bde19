#pragma once
// /analytics/* (docs/features.md#telemetry-fields): breakdowns by the dimensions the plugin
// registry offers, custom attribute keys, time series and latency percentiles over the
// telemetry stored at ingest. No HTTP types; windows and limits are validated here.
#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/analytics_repository.h"
#include "store/database.h"
#include "store/rollup_repository.h"

namespace aev::analytics {

// What a request asks, already parsed (times in µs); filters by their query names.
struct Query {
  std::int64_t orgId = 0;
  std::optional<std::int64_t> since, until;
  std::map<std::string, std::string> filters;  // source, model, ..., errorType
  // `environment` resolved by the caller to the values events may carry (slug, name, id).
  std::optional<std::vector<std::string>> environmentValues;
  std::optional<std::string> filterTagKey, filterTagValue;
};

struct Breakdown {
  std::string dimension;
  std::vector<store::BreakdownRow> rows;
};

struct SeriesPoint {
  std::int64_t ts = 0;  // bucket start, µs
  double value = 0;
};

struct Series {
  std::string metric, interval;
  std::vector<SeriesPoint> points;
};

struct Latency {
  std::int64_t count = 0;
  double p50 = 0, p90 = 0, p95 = 0, p99 = 0, max = 0;
};

// Everything the console's analytics screen plots for one window: the six series (in
// metrics() order) and the latency percentiles, from two reads of the window.
struct Overview {
  std::vector<Series> series;
  Latency latency;
  // The same percentiles of LLM calls and of tool calls apart (semantic_kind llm | tool;
  // kLatencyKinds order); count 0 when the window has none.
  std::vector<std::pair<std::string, Latency>> latencyByKind;
};

// The semantic kinds the overview gives latency percentiles of (issue 27: p50 must not mix them).
inline const std::vector<std::string> kLatencyKinds = {"llm", "tool"};

class AnalyticsService {
 public:
  // `dimensions`: the names the registry offers (dimension plugins); a breakdown by a
  // name outside it is a 422.
  // `rollupReads` (analytics.rollup_reads): answer from the rollups where a query allows
  // (docs/features.md#analytics-rollups); false reads raw events only.
  AnalyticsService(store::Database& db, std::vector<std::string> dimensions, bool rollupReads = true)
      : db_(db), dimensions_(std::move(dimensions)), rollupReads_(rollupReads) {}

  static constexpr std::int64_t kDefaultWindowMicros = 24LL * 3600 * 1000000;
  static constexpr std::int64_t kMaxPoints = 10000;

  Breakdown breakdown(const Query& q, const std::string& dimension, const std::optional<std::string>& tagKey,
                      std::int64_t limit);
  std::vector<store::AttributeKeyRow> dimensions(std::int64_t orgId,
                                                 const std::optional<std::vector<std::string>>& environmentValues,
                                                 std::int64_t limit);
  Series timeseries(const Query& q, const std::string& metric, const std::string& interval);
  Latency latency(const Query& q);
  Overview overview(const Query& q, const std::string& interval);

  static const std::vector<std::string>& filterNames();
  static const std::vector<std::string>& metrics();
  const std::vector<std::string>& dimensionNames() const { return dimensions_; }

 private:
  store::AnalyticsFilter filterOf(const Query& q) const;
  // The window's filter and its buckets: their size and the first one's start (a 422
  // past kMaxPoints).
  struct Buckets {
    store::AnalyticsFilter filter;
    std::int64_t step = 0, first = 0;
  };
  Buckets bucketsOf(const Query& q, const std::string& interval) const;

  // The rollup rows that answer a query with this filter: a breakdown by `dimension`
  // (filters beyond app and environment: none), or else the totals or the one dimension
  // its single other filter names. nullopt: raw events only (rollup reads off, the
  // backfill not done, or filters the rollups cannot combine).
  std::optional<store::RollupScope> rollupScope(store::Connection& c, const store::AnalyticsFilter& f,
                                                const std::optional<std::string>& breakdownDimension);
  // What a caller of rollupSeries reads: the counts and sums, the latency sketches, or both
  // (what it does not read is not fetched: the raw edges' durations, the rollups' sketches).
  enum class SeriesNeed { Counts, Sketches, Both };
  // Counts, sums and sketches per series bucket of `step` µs (a minute, an hour or a UTC
  // day), raw edges and rollups of spans up to the step merged: at most three statements
  // (the raw edges' counts, their durations, every rollup span), whatever the window.
  std::map<std::int64_t, store::RollupTotals> rollupSeries(store::Connection& c, const store::AnalyticsFilter& f,
                                                           const store::RollupScope& scope, std::int64_t step,
                                                           SeriesNeed need);

  // Percentiles of the events of semantic kind `kind` the filter keeps: from the rollups'
  // semanticKind sketches when they serve the filter plus that kind, else raw events.
  Latency latencyOfKind(store::Connection& c, store::AnalyticsFilter f, const std::string& kind);

  store::Database& db_;
  std::vector<std::string> dimensions_;
  store::AnalyticsRepository repo_;
  bool rollupReads_ = true;
  std::atomic<bool> rollupsComplete_{false};
  store::RollupRepository rollups_;
};

}  // namespace aev::analytics

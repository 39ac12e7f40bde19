#include "analytics/analytics_service.h"

#include <algorithm>
#include <charconv>

#include "analytics/percentiles.h"
#include "common/clock.h"
#include "common/errors.h"

namespace aev::analytics {

namespace {

// The event column behind each standard dimension (the telemetry extractor fills them
// by the dimension_standard rules). `tag` is the custom attribute table instead.
const std::map<std::string, std::string>& dimensionColumns() {
  static const std::map<std::string, std::string> columns = {
      {"model", "model"},           {"provider", "provider"},         {"status", "status"},
      {"source", "source"},         {"app", "app_id"},                {"channel", "channel_id"},
      {"apiKey", "api_key_id"},     {"user", "end_user"},             {"agent", "agent"},
      {"tool", "tool"},             {"eventType", "event_type"},      {"finishReason", "finish_reason"},
      {"semanticKind", "semantic_kind"}, {"service", "service"},      {"operation", "operation"},
      {"errorType", "error_type"}};
  return columns;
}

struct FilterColumn {
  const char* column;
  bool isId;
};

const std::map<std::string, FilterColumn>& filterColumns() {
  static const std::map<std::string, FilterColumn> columns = {
      {"source", {"source", false}},       {"model", {"model", false}},     {"provider", {"provider", false}},
      {"app", {"app_id", true}},           {"channel", {"channel_id", true}}, {"apiKey", {"api_key_id", true}},
      {"user", {"end_user", false}},       {"service", {"service", false}}, {"operation", {"operation", false}},
      {"errorType", {"error_type", false}}};
  return columns;
}

std::int64_t intervalMicros(const std::string& interval) {
  if (interval == "minute") return 60LL * 1000000;
  if (interval == "hour") return 3600LL * 1000000;
  if (interval == "day") return 86400LL * 1000000;
  throw errors::invalidField("query.interval", "must be one of minute, hour, day", interval);
}

}  // namespace

const std::vector<std::string>& AnalyticsService::filterNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, _] : filterColumns()) out.push_back(name);
    return out;
  }();
  return names;
}

const std::vector<std::string>& AnalyticsService::metrics() {
  static const std::vector<std::string> names = {"event_count", "error_count",    "tokens",
                                                 "cost_usd",    "latency_p50_ms", "latency_p95_ms"};
  return names;
}

store::AnalyticsFilter AnalyticsService::filterOf(const Query& q) const {
  store::AnalyticsFilter f;
  f.orgId = q.orgId;
  f.until = q.until.value_or(clock::nowMicros());
  f.since = q.since.value_or(f.until - kDefaultWindowMicros);
  if (f.since >= f.until) throw errors::invalidField("query.since", "must be before until");
  for (const auto& [name, value] : q.filters) {
    auto it = filterColumns().find(name);
    if (it == filterColumns().end()) throw std::logic_error("unknown analytics filter " + name);
    if (!it->second.isId) {
      f.textEquals.emplace_back(it->second.column, value);
      continue;
    }
    std::int64_t id = 0;
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), id);
    if (ec != std::errc() || ptr != value.data() + value.size() || id <= 0)
      throw errors::invalidField("query." + name, "must be an id (a positive integer)", value);
    f.idEquals.emplace_back(it->second.column, id);
  }
  f.environmentAnyOf = q.environmentValues;
  if (q.filterTagKey.has_value() != q.filterTagValue.has_value())
    throw errors::invalidField(q.filterTagKey ? "query.filterTagValue" : "query.filterTagKey",
                               "filterTagKey and filterTagValue are used as a pair");
  if (q.filterTagKey) f.tag = std::make_pair(*q.filterTagKey, *q.filterTagValue);
  return f;
}

Breakdown AnalyticsService::breakdown(const Query& q, const std::string& dimension,
                                      const std::optional<std::string>& tagKey, std::int64_t limit) {
  if (std::find(dimensions_.begin(), dimensions_.end(), dimension) == dimensions_.end()) {
    std::string known;
    for (const auto& d : dimensions_) known += (known.empty() ? "" : ", ") + d;
    throw errors::invalidField("query.dimension", "must be one of " + (known.empty() ? "(none loaded)" : known),
                               dimension);
  }
  auto f = filterOf(q);
  Breakdown out;
  out.dimension = dimension;
  auto conn = db_.acquire();
  if (dimension == "tag") {
    if (!tagKey || tagKey->empty()) throw errors::invalidField("query.tagKey", "is required when dimension=tag");
    out.rows = repo_.breakdownByTag(*conn, f, *tagKey, limit);
    return out;
  }
  auto column = dimensionColumns().find(dimension);
  if (column == dimensionColumns().end())
    throw errors::invalidField("query.dimension",
                               "is offered by a plugin but has no indexed column; breakdowns support the standard "
                               "dimensions and tag",
                               dimension);
  out.rows = repo_.breakdownByColumn(*conn, f, column->second, limit);
  return out;
}

std::vector<store::AttributeKeyRow> AnalyticsService::dimensions(
    std::int64_t orgId, const std::optional<std::vector<std::string>>& environmentValues, std::int64_t limit) {
  auto conn = db_.acquire();
  return repo_.attributeKeys(*conn, orgId, environmentValues, limit);
}

Series AnalyticsService::timeseries(const Query& q, const std::string& metric, const std::string& interval) {
  if (std::find(metrics().begin(), metrics().end(), metric) == metrics().end())
    throw errors::invalidField("query.metric",
                               "must be one of event_count, error_count, tokens, cost_usd, latency_p50_ms, "
                               "latency_p95_ms",
                               metric);
  const auto step = intervalMicros(interval);
  auto f = filterOf(q);
  const std::int64_t first = f.since - f.since % step;
  if ((f.until - first + step - 1) / step > kMaxPoints)
    throw errors::invalidField("query.interval",
                               "gives more than " + std::to_string(kMaxPoints) + " points over this window", interval);
  Series out{metric, interval, {}};
  auto conn = db_.acquire();
  if (metric == "latency_p50_ms" || metric == "latency_p95_ms") {
    // Percentiles per bucket; buckets without a duration have no point.
    const double p = metric == "latency_p50_ms" ? 50 : 95;
    const auto samples = repo_.durations(*conn, f, step);
    std::vector<double> bucket;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      bucket.push_back(samples[i].second);
      if (i + 1 == samples.size() || samples[i + 1].first != samples[i].first) {
        out.points.push_back({samples[i].first, nearestRank(bucket, p)});
        bucket.clear();
      }
    }
    return out;
  }
  const auto kind = metric == "event_count"   ? store::SeriesMetric::EventCount
                    : metric == "error_count" ? store::SeriesMetric::ErrorCount
                    : metric == "tokens"      ? store::SeriesMetric::Tokens
                                              : store::SeriesMetric::CostUsd;
  // Counts and sums: every bucket of the window, zero where nothing happened.
  std::map<std::int64_t, double> values;
  for (const auto& [ts, v] : repo_.series(*conn, f, kind, step)) values[ts] = v;
  for (std::int64_t ts = first; ts < f.until; ts += step) {
    auto it = values.find(ts);
    out.points.push_back({ts, it == values.end() ? 0.0 : it->second});
  }
  return out;
}

Latency AnalyticsService::latency(const Query& q) {
  auto f = filterOf(q);
  auto conn = db_.acquire();
  std::vector<double> sorted;
  for (const auto& [_, d] : repo_.durations(*conn, f, 0)) sorted.push_back(d);
  Latency out;
  out.count = static_cast<std::int64_t>(sorted.size());
  if (sorted.empty()) return out;
  out.p50 = nearestRank(sorted, 50);
  out.p90 = nearestRank(sorted, 90);
  out.p95 = nearestRank(sorted, 95);
  out.p99 = nearestRank(sorted, 99);
  out.max = sorted.back();
  return out;
}

}  // namespace aev::analytics

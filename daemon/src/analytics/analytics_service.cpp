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
  static const std::map<std::string, std::string> columns = {{"model", "model"},
                                                             {"provider", "provider"},
                                                             {"status", "status"},
                                                             {"source", "source"},
                                                             {"app", "app_id"},
                                                             {"channel", "channel_id"},
                                                             {"apiKey", "api_key_id"},
                                                             {"user", "end_user"},
                                                             {"agent", "agent"},
                                                             {"tool", "tool"},
                                                             {"eventType", "event_type"},
                                                             {"finishReason", "finish_reason"},
                                                             {"semanticKind", "semantic_kind"},
                                                             {"service", "service"},
                                                             {"operation", "operation"},
                                                             {"errorType", "error_type"},
                                                             {"session", "session"},
                                                             {"traceName", "trace_name"}};
  return columns;
}

struct FilterColumn {
  const char* column;
  bool isId;
};

const std::map<std::string, FilterColumn>& filterColumns() {
  static const std::map<std::string, FilterColumn> columns = {
      {"source", {"source", false}},       {"model", {"model", false}},
      {"provider", {"provider", false}},   {"app", {"app_id", true}},
      {"channel", {"channel_id", true}},   {"apiKey", {"api_key_id", true}},
      {"user", {"end_user", false}},       {"service", {"service", false}},
      {"operation", {"operation", false}}, {"errorType", {"error_type", false}},
      {"session", {"session", false}}};
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

namespace {

// Percentiles per bucket of (bucket, duration) samples ordered by bucket then duration;
// buckets without a duration have no point.
std::vector<SeriesPoint> percentilePoints(const std::vector<std::pair<std::int64_t, double>>& samples, double p) {
  std::vector<SeriesPoint> out;
  std::vector<double> bucket;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    bucket.push_back(samples[i].second);
    if (i + 1 == samples.size() || samples[i + 1].first != samples[i].first) {
      out.push_back({samples[i].first, nearestRank(bucket, p)});
      bucket.clear();
    }
  }
  return out;
}

// Every bucket of [first, until), zero where `values` has none.
std::vector<SeriesPoint> zeroFilled(const std::map<std::int64_t, double>& values, std::int64_t first,
                                    std::int64_t until, std::int64_t step) {
  std::vector<SeriesPoint> out;
  for (std::int64_t ts = first; ts < until; ts += step) {
    auto it = values.find(ts);
    out.push_back({ts, it == values.end() ? 0.0 : it->second});
  }
  return out;
}

// The percentiles of every sample's duration, whatever its bucket.
Latency latencyOf(const std::vector<std::pair<std::int64_t, double>>& samples) {
  std::vector<double> durations;
  durations.reserve(samples.size());
  for (const auto& [_, d] : samples) durations.push_back(d);
  std::sort(durations.begin(), durations.end());
  Latency out;
  out.count = static_cast<std::int64_t>(durations.size());
  if (durations.empty()) return out;
  out.p50 = nearestRank(durations, 50);
  out.p90 = nearestRank(durations, 90);
  out.p95 = nearestRank(durations, 95);
  out.p99 = nearestRank(durations, 99);
  out.max = durations.back();
  return out;
}

}  // namespace

AnalyticsService::Buckets AnalyticsService::bucketsOf(const Query& q, const std::string& interval) const {
  Buckets b;
  b.step = intervalMicros(interval);
  b.filter = filterOf(q);
  b.first = b.filter.since - b.filter.since % b.step;
  if ((b.filter.until - b.first + b.step - 1) / b.step > kMaxPoints)
    throw errors::invalidField("query.interval",
                               "gives more than " + std::to_string(kMaxPoints) + " points over this window", interval);
  return b;
}

Series AnalyticsService::timeseries(const Query& q, const std::string& metric, const std::string& interval) {
  if (std::find(metrics().begin(), metrics().end(), metric) == metrics().end())
    throw errors::invalidField("query.metric",
                               "must be one of event_count, error_count, tokens, cost_usd, latency_p50_ms, "
                               "latency_p95_ms",
                               metric);
  const auto b = bucketsOf(q, interval);
  Series out{metric, interval, {}};
  auto conn = db_.acquire();
  if (metric == "latency_p50_ms" || metric == "latency_p95_ms") {
    out.points = percentilePoints(repo_.durations(*conn, b.filter, b.step), metric == "latency_p50_ms" ? 50 : 95);
    return out;
  }
  const auto kind = metric == "event_count"   ? store::SeriesMetric::EventCount
                    : metric == "error_count" ? store::SeriesMetric::ErrorCount
                    : metric == "tokens"      ? store::SeriesMetric::Tokens
                                              : store::SeriesMetric::CostUsd;
  // Counts and sums: every bucket of the window, zero where nothing happened.
  std::map<std::int64_t, double> values;
  for (const auto& [ts, v] : repo_.series(*conn, b.filter, kind, b.step)) values[ts] = v;
  out.points = zeroFilled(values, b.first, b.filter.until, b.step);
  return out;
}

Latency AnalyticsService::latency(const Query& q) {
  auto f = filterOf(q);
  auto conn = db_.acquire();
  return latencyOf(repo_.durations(*conn, f, 0));
}

Overview AnalyticsService::overview(const Query& q, const std::string& interval) {
  const auto b = bucketsOf(q, interval);
  auto conn = db_.acquire();
  std::map<std::int64_t, double> events, errors, tokens, cost;
  for (const auto& r : repo_.seriesAll(*conn, b.filter, b.step)) {
    events[r.bucket] = r.events;
    errors[r.bucket] = r.errors;
    tokens[r.bucket] = r.tokens;
    cost[r.bucket] = r.costUsd;
  }
  const auto samples = repo_.durations(*conn, b.filter, b.step);
  Overview out;
  for (const auto& [metric, values] : {std::pair{"event_count", &events}, std::pair{"error_count", &errors},
                                       std::pair{"tokens", &tokens}, std::pair{"cost_usd", &cost}})
    out.series.push_back({metric, interval, zeroFilled(*values, b.first, b.filter.until, b.step)});
  out.series.push_back({"latency_p50_ms", interval, percentilePoints(samples, 50)});
  out.series.push_back({"latency_p95_ms", interval, percentilePoints(samples, 95)});
  out.latency = latencyOf(samples);
  return out;
}

}  // namespace aev::analytics

#include "analytics/analytics_service.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "analytics/percentiles.h"
#include "analytics/rollup_window.h"
#include "analytics/sketch.h"
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

// The dimension a filter column is rolled up under (the inverse of dimensionColumns()).
std::optional<std::string> dimensionOfColumn(const std::string& column) {
  for (const auto& [name, c] : dimensionColumns())
    if (c == column) return name;
  return std::nullopt;
}

// A UTC day: day series buckets and day rollups both start at multiples of it since the
// epoch (no time zones: docs/features.md#analytics-rollups).
constexpr std::int64_t kDaySeconds = 86400;

bool isIdDimension(const std::string& d) { return d == "app" || d == "channel" || d == "apiKey"; }

// Breakdown order: most events first, then the key (ids as numbers, text byte-wise).
bool breakdownBefore(const store::BreakdownRow& a, const store::BreakdownRow& b, bool ids) {
  if (a.eventCount != b.eventCount) return a.eventCount > b.eventCount;
  if (ids && a.key.size() != b.key.size()) return a.key.size() < b.key.size();
  return a.key < b.key;
}

void addInto(store::BreakdownRow& row, const store::RollupTotals& t) {
  row.eventCount += t.events;
  row.errorCount += t.errors;
  row.inputTokens += t.inputTokens;
  row.outputTokens += t.outputTokens;
  row.costNanos += t.costNanos;
  row.durations += t.durations;
  row.durationMicros += t.durationMicros;
}

void addInto(store::BreakdownRow& row, const store::BreakdownRow& r) {
  row.eventCount += r.eventCount;
  row.errorCount += r.errorCount;
  row.inputTokens += r.inputTokens;
  row.outputTokens += r.outputTokens;
  row.costNanos += r.costNanos;
  row.durations += r.durations;
  row.durationMicros += r.durationMicros;
}

std::int64_t intervalMicros(const std::string& interval) {
  if (interval == "minute") return 60LL * 1000000;
  if (interval == "hour") return 3600LL * 1000000;
  if (interval == "day") return kDaySeconds * 1000000;
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
  std::function<std::vector<store::BreakdownRow>(const store::AnalyticsFilter&, std::int64_t)> raw;
  std::string rolledUpAs = dimension;
  if (dimension == "tag") {
    if (!tagKey || tagKey->empty()) throw errors::invalidField("query.tagKey", "is required when dimension=tag");
    raw = [&](const store::AnalyticsFilter& w, std::int64_t n) { return repo_.breakdownByTag(*conn, w, *tagKey, n); };
    rolledUpAs = store::kTagDimensionPrefix + *tagKey;
  } else {
    auto column = dimensionColumns().find(dimension);
    if (column == dimensionColumns().end())
      throw errors::invalidField("query.dimension",
                                 "is offered by a plugin but has no indexed column; breakdowns support the standard "
                                 "dimensions and tag",
                                 dimension);
    raw = [&, col = column->second](const store::AnalyticsFilter& w, std::int64_t n) {
      return repo_.breakdownByColumn(*conn, w, col, n);
    };
  }
  auto scope = rollupScope(*conn, f, rolledUpAs);
  if (!scope) {
    out.rows = raw(f, limit);
    return out;
  }
  // Whole days, hours and minutes from the rollups, the edges from raw events (every
  // group of them: a value below the limit in one part may rise above it in the sum).
  std::map<std::string, store::BreakdownRow> merged;
  for (const auto& part : splitWindow(f.since, f.until, kDaySeconds)) {
    if (part.span == 0) {
      auto w = f;
      w.since = part.from;
      w.until = part.to;
      for (const auto& r : raw(w, std::numeric_limits<std::int64_t>::max())) addInto(merged[r.key], r);
      continue;
    }
    for (const auto& [value, t] : rollups_.byValue(*conn, *scope, part.span, part.from, part.to))
      addInto(merged[value], t);
  }
  for (auto& [key, row] : merged) {
    if (row.eventCount == 0) continue;  // taken out again by retention or a deleted channel
    row.key = key;
    row.settle();
    out.rows.push_back(std::move(row));
  }
  const bool ids = isIdDimension(dimension);
  std::sort(out.rows.begin(), out.rows.end(),
            [ids](const store::BreakdownRow& a, const store::BreakdownRow& b) { return breakdownBefore(a, b, ids); });
  if (static_cast<std::int64_t>(out.rows.size()) > limit)
    out.rows.resize(static_cast<std::size_t>(std::max<std::int64_t>(limit, 0)));
  return out;
}

std::optional<store::RollupScope> AnalyticsService::rollupScope(store::Connection& c, const store::AnalyticsFilter& f,
                                                                const std::optional<std::string>& breakdownDimension) {
  if (!rollupReads_) return std::nullopt;
  store::RollupScope scope;
  scope.orgId = f.orgId;
  scope.environments = f.environmentAnyOf;
  std::vector<std::pair<std::string, std::string>> others;  // (dimension, value)
  for (const auto& [column, value] : f.textEquals) {
    auto d = dimensionOfColumn(column);
    if (!d) return std::nullopt;
    others.emplace_back(*d, value);
  }
  for (const auto& [column, id] : f.idEquals) {
    if (column == "app_id" && !scope.appId) {
      scope.appId = id;
      continue;
    }
    auto d = dimensionOfColumn(column);
    if (!d) return std::nullopt;
    others.emplace_back(*d, std::to_string(id));
  }
  if (f.tag) others.emplace_back(store::kTagDimensionPrefix + f.tag->first, f.tag->second);
  if (breakdownDimension && !store::rolledUpDimension(*breakdownDimension)) return std::nullopt;
  for (const auto& [dimension, _] : others)
    if (!store::rolledUpDimension(dimension)) return std::nullopt;
  if (breakdownDimension) {
    if (!others.empty()) return std::nullopt;
    scope.dimension = *breakdownDimension;
  } else if (others.size() > 1) {
    return std::nullopt;
  } else if (others.empty()) {
    scope.value = "";
  } else {
    scope.dimension = others.front().first;
    scope.value = others.front().second;
  }
  if (!rollupsComplete_.load(std::memory_order_relaxed)) {
    if (!rollups_.complete(c)) return std::nullopt;
    rollupsComplete_.store(true, std::memory_order_relaxed);
  }
  return scope;
}

std::map<std::int64_t, store::RollupTotals> AnalyticsService::rollupSeries(store::Connection& c,
                                                                           const store::AnalyticsFilter& f,
                                                                           const store::RollupScope& scope,
                                                                           std::int64_t step, SeriesNeed need) {
  std::vector<store::TimeRange> raw;
  std::vector<store::RollupRange> rolled;
  for (const auto& part : splitWindow(f.since, f.until, step / 1000000)) {
    if (part.span == 0)
      raw.push_back({part.from, part.to});
    else
      rolled.push_back({part.span, part.from, part.to});
  }
  const bool counts = need != SeriesNeed::Sketches, sketches = need != SeriesNeed::Counts;
  std::map<std::int64_t, store::RollupTotals> out;
  if (counts) {
    for (const auto& r : repo_.seriesAll(c, f, raw, step)) {
      auto& t = out[r.bucket];
      t.events += r.events;
      t.errors += r.errors;
      t.inputTokens += r.tokens;
      t.costNanos += r.costNanos;
    }
  }
  if (sketches) {
    for (const auto& [bucket, d] : repo_.durations(c, f, raw, step)) {
      auto& t = out[bucket];
      ++t.durations;
      t.sketch.add(d);
    }
  }
  for (auto& [bucket, t] : rollups_.bySeriesBucket(c, scope, rolled, step, sketches)) out[bucket].add(t);
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
  if (auto scope = rollupScope(*conn, b.filter, std::nullopt)) {
    const bool percentiles = metric == "latency_p50_ms" || metric == "latency_p95_ms";
    const auto series =
        rollupSeries(*conn, b.filter, *scope, b.step, percentiles ? SeriesNeed::Sketches : SeriesNeed::Counts);
    if (percentiles) {
      for (const auto& [ts, t] : series)
        if (t.durations > 0) out.points.push_back({ts, t.sketch.quantile(metric == "latency_p50_ms" ? 50 : 95)});
      return out;
    }
    std::map<std::int64_t, double> values;
    for (const auto& [ts, t] : series) {
      if (t.events == 0) continue;
      values[ts] = metric == "event_count"   ? static_cast<double>(t.events)
                   : metric == "error_count" ? static_cast<double>(t.errors)
                   : metric == "tokens"      ? static_cast<double>(t.inputTokens + t.outputTokens)
                                             : static_cast<double>(t.costNanos) / 1e9;
    }
    out.points = zeroFilled(values, b.first, b.filter.until, b.step);
    return out;
  }
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

namespace {
// The percentiles of a merged sketch (within its relative error); the count is exact.
Latency latencyOf(const LatencySketch& s, std::int64_t count) {
  Latency out;
  out.count = count;
  if (s.empty()) return out;
  out.p50 = s.quantile(50);
  out.p90 = s.quantile(90);
  out.p95 = s.quantile(95);
  out.p99 = s.quantile(99);
  out.max = s.quantile(100);
  return out;
}
}  // namespace

Latency AnalyticsService::latency(const Query& q) {
  auto f = filterOf(q);
  auto conn = db_.acquire();
  if (auto scope = rollupScope(*conn, f, std::nullopt)) {
    LatencySketch all;
    std::int64_t count = 0;
    for (const auto& [_, t] : rollupSeries(*conn, f, *scope, kDaySeconds * 1000000, SeriesNeed::Sketches)) {
      all.merge(t.sketch);
      count += t.durations;
    }
    return latencyOf(all, count);
  }
  return latencyOf(repo_.durations(*conn, f, 0));
}

Latency AnalyticsService::latencyOfKind(store::Connection& c, store::AnalyticsFilter f, const std::string& kind) {
  f.textEquals.emplace_back("semantic_kind", kind);
  if (auto scope = rollupScope(c, f, std::nullopt)) {
    LatencySketch all;
    std::int64_t count = 0;
    for (const auto& [_, t] : rollupSeries(c, f, *scope, kDaySeconds * 1000000, SeriesNeed::Sketches)) {
      all.merge(t.sketch);
      count += t.durations;
    }
    return latencyOf(all, count);
  }
  return latencyOf(repo_.durations(c, f, 0));
}

Overview AnalyticsService::overview(const Query& q, const std::string& interval) {
  const auto b = bucketsOf(q, interval);
  auto conn = db_.acquire();
  std::vector<std::pair<std::string, Latency>> byKind;
  for (const auto& kind : kLatencyKinds) byKind.emplace_back(kind, latencyOfKind(*conn, b.filter, kind));
  std::map<std::int64_t, double> events, errors, tokens, cost;
  if (auto scope = rollupScope(*conn, b.filter, std::nullopt)) {
    Overview out;
    std::vector<SeriesPoint> p50, p95;
    LatencySketch all;
    std::int64_t durations = 0;
    for (const auto& [ts, t] : rollupSeries(*conn, b.filter, *scope, b.step, SeriesNeed::Both)) {
      if (t.events > 0) {
        events[ts] = static_cast<double>(t.events);
        errors[ts] = static_cast<double>(t.errors);
        tokens[ts] = static_cast<double>(t.inputTokens + t.outputTokens);
        cost[ts] = static_cast<double>(t.costNanos) / 1e9;
      }
      if (t.durations > 0) {
        p50.push_back({ts, t.sketch.quantile(50)});
        p95.push_back({ts, t.sketch.quantile(95)});
        all.merge(t.sketch);
        durations += t.durations;
      }
    }
    for (const auto& [metric, values] : {std::pair{"event_count", &events}, std::pair{"error_count", &errors},
                                         std::pair{"tokens", &tokens}, std::pair{"cost_usd", &cost}})
      out.series.push_back({metric, interval, zeroFilled(*values, b.first, b.filter.until, b.step)});
    out.series.push_back({"latency_p50_ms", interval, std::move(p50)});
    out.series.push_back({"latency_p95_ms", interval, std::move(p95)});
    out.latency = latencyOf(all, durations);
    out.latencyByKind = std::move(byKind);
    return out;
  }
  for (const auto& r : repo_.seriesAll(*conn, b.filter, b.step)) {
    events[r.bucket] = static_cast<double>(r.events);
    errors[r.bucket] = static_cast<double>(r.errors);
    tokens[r.bucket] = static_cast<double>(r.tokens);
    cost[r.bucket] = static_cast<double>(r.costNanos) / 1e9;
  }
  const auto samples = repo_.durations(*conn, b.filter, b.step);
  Overview out;
  for (const auto& [metric, values] : {std::pair{"event_count", &events}, std::pair{"error_count", &errors},
                                       std::pair{"tokens", &tokens}, std::pair{"cost_usd", &cost}})
    out.series.push_back({metric, interval, zeroFilled(*values, b.first, b.filter.until, b.step)});
  out.series.push_back({"latency_p50_ms", interval, percentilePoints(samples, 50)});
  out.series.push_back({"latency_p95_ms", interval, percentilePoints(samples, 95)});
  out.latency = latencyOf(samples);
  out.latencyByKind = std::move(byKind);
  return out;
}

}  // namespace aev::analytics

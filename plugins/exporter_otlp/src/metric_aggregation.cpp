#include "metric_aggregation.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <tuple>

namespace otlp {

namespace {

using aev::json::Value;

// The data-point attributes of an event: the grouping keys that are present.
struct GroupKey {
  std::string model, provider, eventType, agent;
  auto tie() const { return std::tie(model, provider, eventType, agent); }
  bool operator<(const GroupKey& o) const { return tie() < o.tie(); }
};

struct Histogram {
  std::uint64_t count = 0;
  double sum = 0, min = 0, max = 0;
  std::vector<std::uint64_t> buckets;
  void add(double v) {
    if (buckets.empty()) buckets.assign(durationBoundsMs().size() + 1, 0);
    min = count == 0 ? v : std::min(min, v);
    max = count == 0 ? v : std::max(max, v);
    ++count;
    sum += v;
    // Bucket i holds values in (bounds[i-1], bounds[i]] (OTLP explicit-bounds histogram).
    const auto& bounds = durationBoundsMs();
    buckets[std::lower_bound(bounds.begin(), bounds.end(), v) - bounds.begin()]++;
  }
};

struct Totals {
  std::int64_t events = 0, errors = 0;
  std::optional<std::int64_t> inputTokens, outputTokens;
  std::optional<double> cost;
  Histogram duration;
};

// Groups in first-seen order per service, so the output follows the batch.
struct ServiceTotals {
  std::string service;
  std::vector<GroupKey> order;
  std::map<GroupKey, Totals> groups;
};

// A metadata number under the first present key (flat, then nested path); numeric
// strings count too, since agents send "12" as often as 12. Negative and non-finite values
// are dropped: the sums are monotonic and must stay numbers.
std::optional<double> metadataNumber(const Value& metadata, std::initializer_list<std::string_view> keys) {
  for (auto k : keys) {
    const Value* v = metadata.find(k);
    if (!v && k.find('.') != std::string_view::npos) v = metadata.path(k);
    if (!v) continue;
    double d = 0;
    if (v->isNumber()) {
      d = v->asDouble();
    } else if (v->isString() && !v->text().empty()) {
      char* end = nullptr;
      d = std::strtod(v->text().c_str(), &end);
      if (*end != '\0') continue;
    } else {
      continue;
    }
    if (std::isfinite(d) && d >= 0) return d;
  }
  return std::nullopt;
}

std::vector<KeyValue> attributesOf(const GroupKey& k) {
  std::vector<KeyValue> out;
  auto add = [&](const char* key, const std::string& v) {
    if (!v.empty()) out.push_back({key, AnyValue::string(v)});
  };
  add("gen_ai.request.model", k.model);
  add("gen_ai.system", k.provider);
  add("agent_events.event.type", k.eventType);
  add("gen_ai.agent.name", k.agent);
  return out;
}

Metric sumMetric(const char* name, const char* description, const char* unit) {
  Metric m;
  m.name = name;
  m.description = description;
  m.unit = unit;
  m.kind = Metric::Kind::Sum;
  return m;
}

void addPoint(Metric& m, std::vector<KeyValue> attrs, std::uint64_t start, std::uint64_t end,
              std::optional<std::int64_t> asInt, std::optional<double> asDouble = std::nullopt) {
  NumberDataPoint p;
  p.attributes = std::move(attrs);
  p.startTimeUnixNano = start;
  p.timeUnixNano = end;
  if (asDouble) {
    p.isDouble = true;
    p.asDouble = *asDouble;
  } else {
    p.asInt = asInt.value_or(0);
  }
  m.numberPoints.push_back(std::move(p));
}

std::vector<Metric> metricsOf(const ServiceTotals& s, std::uint64_t start, std::uint64_t end) {
  Metric events = sumMetric("agent_events.events", "Events published", "{event}");
  Metric errors = sumMetric("agent_events.errors", "Error events (agent.error or status error)", "{error}");
  Metric tokens = sumMetric("agent_events.tokens", "Tokens used (usage.input_tokens, usage.output_tokens)",
                            "{token}");
  Metric cost = sumMetric("agent_events.cost_usd", "Cost reported by the events (metadata.cost_usd)", "USD");
  Metric duration;
  duration.name = "agent_events.duration_ms";
  duration.description = "Duration of the events that report one (metadata.duration_ms)";
  duration.unit = "ms";
  duration.kind = Metric::Kind::Histogram;

  for (const auto& key : s.order) {
    const Totals& t = s.groups.at(key);
    auto attrs = attributesOf(key);
    addPoint(events, attrs, start, end, t.events);
    if (t.errors > 0) addPoint(errors, attrs, start, end, t.errors);
    for (const auto& [type, value] : {std::pair{"input", t.inputTokens}, std::pair{"output", t.outputTokens}}) {
      if (!value) continue;
      auto withType = attrs;
      withType.push_back({"gen_ai.token.type", AnyValue::string(type)});
      addPoint(tokens, std::move(withType), start, end, *value);
    }
    if (t.cost) addPoint(cost, attrs, start, end, std::nullopt, *t.cost);
    if (t.duration.count > 0) {
      HistogramDataPoint p;
      p.attributes = attrs;
      p.startTimeUnixNano = start;
      p.timeUnixNano = end;
      p.count = t.duration.count;
      p.sum = t.duration.sum;
      p.min = t.duration.min;
      p.max = t.duration.max;
      p.bucketCounts = t.duration.buckets;
      p.explicitBounds = durationBoundsMs();
      duration.histogramPoints.push_back(std::move(p));
    }
  }
  std::vector<Metric> out;
  for (Metric* m : {&events, &errors, &tokens, &cost, &duration})
    if (!m->numberPoints.empty() || !m->histogramPoints.empty()) out.push_back(std::move(*m));
  return out;
}

}  // namespace

const std::vector<double>& durationBoundsMs() {
  static const std::vector<double> bounds = {5,    10,   25,    50,    100,   250,    500,
                                             1000, 2500, 5000, 10000, 30000, 60000, 300000};
  return bounds;
}

std::vector<ResourceBatch> toMetrics(const Value& events, const MappingOptions& options) {
  std::vector<ServiceTotals> services;
  std::uint64_t first = 0, last = 0;
  forEachEvent(events, [&](const Value& event) {
    const Value& metadata = metadataOf(event);
    if (auto t = eventTime(event)) {
      first = first == 0 ? t : std::min(first, t);
      last = std::max(last, t);
    }
    std::string service = serviceOf(event, options);
    auto it = std::find_if(services.begin(), services.end(), [&](const auto& s) { return s.service == service; });
    if (it == services.end()) it = services.insert(services.end(), ServiceTotals{service, {}, {}});
    GroupKey key{metadataText(metadata, {"model", "gen_ai.request.model"}),
                 metadataText(metadata, {"provider", "gen_ai.system", "gen_ai.provider.name"}),
                 event.stringOr("eventType", ""), event.stringOr("agentId", "")};
    auto [group, added] = it->groups.try_emplace(key);
    if (added) it->order.push_back(key);
    Totals& t = group->second;
    ++t.events;
    if (isError(event, metadata)) ++t.errors;
    if (auto in = metadataNumber(metadata, {"usage.input_tokens", "gen_ai.usage.input_tokens"}))
      t.inputTokens = t.inputTokens.value_or(0) + static_cast<std::int64_t>(*in);
    if (auto out = metadataNumber(metadata, {"usage.output_tokens", "gen_ai.usage.output_tokens"}))
      t.outputTokens = t.outputTokens.value_or(0) + static_cast<std::int64_t>(*out);
    if (auto c = metadataNumber(metadata, {"cost_usd"})) t.cost = t.cost.value_or(0) + *c;
    if (auto d = metadataNumber(metadata, {"duration_ms"})) t.duration.add(*d);
  });
  if (services.empty()) return {};
  // Events without a parseable time: the batch is stamped with the export time.
  if (first == 0) first = last = options.nowUnixNano;

  std::vector<ResourceBatch> batches;
  std::vector<std::string> names;
  for (const auto& s : services) batchFor(batches, names, s.service, options).metrics = metricsOf(s, first, last);
  return batches;
}

}  // namespace otlp

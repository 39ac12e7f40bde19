// Analytics (docs/features.md#telemetry-fields): exact sums on seeded telemetry per
// dimension and per filter, window defaults, tags, attribute keys, time series and
// latency percentiles, validation, and tenant isolation.
#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <map>

#include "integration/telemetry/traces_support.h"

namespace aev::testing {
namespace {

constexpr std::int64_t kHour = 3600 * kSec;

// One organization with five events: four in the default window, one two days old.
struct Seeded {
  Publisher p;
  std::vector<std::int64_t> times;  // the four recent events' timestamps (µs)
  std::int64_t oldTime = 0;
};

class AnalyticsApi : public TracesTest {
 protected:
  static Poco::JSON::Object::Ptr meta(const std::string& json) {
    return Poco::JSON::Parser().parse(json).extract<Poco::JSON::Object::Ptr>();
  }

  static Seeded seed(const std::string& tag) {
    Seeded s;
    s.p = newPublisher(tag);
    const auto base = recentBase();
    s.times = {base + 1 * kSec, base + 2 * kSec, base + 3 * kSec, base + 4 * kSec};
    s.oldTime = base - 46 * kHour;
    // 1: gpt-4o, cost from the built-in price table: (1000 × 2.50 + 500 × 10.00) / 1e6.
    publishOne(s.p.keyed, s.p.channelId, "t-" + tag,
               {"e1", "agent.message", "planner", s.times[0],
                meta(R"({"model":"gpt-4o","provider":"openai","usage":{"input_tokens":1000,"output_tokens":500},
                  "duration_ms":100,"environment":"prod","service":"checkout","user":"u1",
                  "tags":{"team":"payments"}})")});
    // 2: gpt-4o with its own cost, an error by status.
    publishOne(s.p.keyed, s.p.channelId, "t-" + tag,
               {"e2", "agent.message", "planner", s.times[1],
                meta(R"({"gen_ai.request.model":"gpt-4o","gen_ai.system":"openai","gen_ai.usage.input_tokens":2000,
                  "cost_usd":0.5,"duration_ms":300,"status":"error","error_type":"timeout","environment":"prod",
                  "service":"checkout","user":"u2","tags":{"team":"search"}})")});
    // 3: an agent.error on claude-3-haiku: (100 × 0.25 + 100 × 1.25) / 1e6.
    publishOne(s.p.keyed, s.p.channelId, "t-" + tag,
               {"e3", "agent.error", "critic", s.times[2],
                meta(R"({"model":"claude-3-haiku","provider":"anthropic","usage":{"input_tokens":100,
                  "output_tokens":100},"duration_ms":200,"environment":"staging","service":"billing",
                  "tags":{"team":"payments","region":"eu"}})")});
    // 4: a tool call through the batch endpoint, no model.
    publishBatch(s.p.keyed, s.p.channelId, "t-" + tag,
                 {{"e4", "agent.tool_call.start", "planner", s.times[3], meta(R"({"tool":"grep"})")}});
    // 5: two days old, outside the default 24-hour window.
    publishOne(s.p.keyed, s.p.channelId, "t-" + tag,
               {"e5", "agent.message", "planner", s.oldTime,
                meta(R"({"model":"gpt-4o","usage":{"input_tokens":7,"output_tokens":7}})")});
    return s;
  }

  static HttpResult get(const Seeded& s, const std::string& pathAndQuery) { return s.p.keyed.get(pathAndQuery); }

  // rows of a breakdown by key; fails the test unless the answer is a 200.
  static std::map<std::string, Poco::JSON::Object::Ptr> rows(const Seeded& s, const std::string& query,
                                                             std::vector<std::string>* order = nullptr) {
    auto r = get(s, "/analytics/breakdown?" + query);
    EXPECT_EQ(r.status, 200) << r.describe();
    std::map<std::string, Poco::JSON::Object::Ptr> out;
    if (r.status != 200) return out;
    for (const auto& row : objects(r.object()->getArray("rows"))) {
      out[strField(row, "key")] = row;
      if (order) order->push_back(strField(row, "key"));
    }
    return out;
  }

  static double num(const Poco::JSON::Object::Ptr& o, const std::string& key) { return o->getValue<double>(key); }
};

// The relative error of percentiles served from the rollups' latency sketches.
constexpr double kSketchError = 0.01;
constexpr double kCost1 = (1000 * 2.50 + 500 * 10.00) / 1e6;
constexpr double kCost3 = (100 * 0.25 + 100 * 1.25) / 1e6;

TEST_F(AnalyticsApi, BreakdownByModelHasExactSums) {
  auto s = seed("bm");
  std::vector<std::string> order;
  auto byModel = rows(s, "", &order);  // dimension defaults to model, window to 24 h
  ASSERT_EQ(order, (std::vector<std::string>{"gpt-4o", "claude-3-haiku"}));
  auto gpt = byModel["gpt-4o"];
  EXPECT_EQ(intField(gpt, "eventCount"), 2);
  EXPECT_EQ(intField(gpt, "errorCount"), 1);
  EXPECT_EQ(intField(gpt, "inputTokens"), 3000);
  EXPECT_EQ(intField(gpt, "outputTokens"), 500);
  EXPECT_EQ(intField(gpt, "totalTokens"), 3500);
  EXPECT_NEAR(num(gpt, "costUsd"), kCost1 + 0.5, 1e-12);
  EXPECT_NEAR(num(gpt, "avgDurationMs"), 200, 1e-9);
  auto claude = byModel["claude-3-haiku"];
  EXPECT_EQ(intField(claude, "eventCount"), 1);
  EXPECT_EQ(intField(claude, "errorCount"), 1);
  EXPECT_EQ(intField(claude, "totalTokens"), 200);
  EXPECT_NEAR(num(claude, "costUsd"), kCost3, 1e-12);
  EXPECT_NEAR(num(claude, "avgDurationMs"), 200, 1e-9);
}

TEST_F(AnalyticsApi, EveryStandardDimension) {
  auto s = seed("dims");
  auto count = [&](const std::string& dimension) {
    std::map<std::string, std::int64_t> out;
    for (const auto& [key, row] : rows(s, "dimension=" + dimension)) out[key] = intField(row, "eventCount");
    return out;
  };
  using M = std::map<std::string, std::int64_t>;
  EXPECT_EQ(count("provider"), (M{{"openai", 2}, {"anthropic", 1}}));
  EXPECT_EQ(count("status"), (M{{"ok", 2}, {"error", 2}}));
  EXPECT_EQ(count("source"), (M{{"api", 3}, {"batch", 1}}));
  EXPECT_EQ(count("app"), (M{{std::to_string(s.p.appId), 4}}));
  EXPECT_EQ(count("channel"), (M{{std::to_string(s.p.channelId), 4}}));
  EXPECT_EQ(count("apiKey"), (M{{std::to_string(s.p.key.id), 4}}));
  EXPECT_EQ(count("user"), (M{{"u1", 1}, {"u2", 1}}));
  EXPECT_EQ(count("agent"), (M{{"planner", 3}, {"critic", 1}}));
  EXPECT_EQ(count("tool"), (M{{"grep", 1}}));
  EXPECT_EQ(count("eventType"), (M{{"agent.message", 2}, {"agent.error", 1}, {"agent.tool_call.start", 1}}));
  EXPECT_EQ(count("service"), (M{{"checkout", 2}, {"billing", 1}}));
  EXPECT_EQ(count("errorType"), (M{{"timeout", 1}}));
  EXPECT_EQ(count("finishReason"), M{});
  EXPECT_EQ(count("tag&tagKey=team"), (M{{"payments", 2}, {"search", 1}}));
  EXPECT_EQ(count("tag&tagKey=region"), (M{{"eu", 1}}));
}

TEST_F(AnalyticsApi, TagBreakdownSums) {
  auto s = seed("tags");
  auto team = rows(s, "dimension=tag&tagKey=team");
  ASSERT_EQ(team.size(), 2u);
  EXPECT_EQ(intField(team["payments"], "inputTokens"), 1100);
  EXPECT_EQ(intField(team["payments"], "outputTokens"), 600);
  EXPECT_EQ(intField(team["payments"], "errorCount"), 1);
  EXPECT_NEAR(num(team["payments"], "costUsd"), kCost1 + kCost3, 1e-12);
  EXPECT_NEAR(num(team["payments"], "avgDurationMs"), 150, 1e-9);
  EXPECT_NEAR(num(team["search"], "costUsd"), 0.5, 1e-12);
}

TEST_F(AnalyticsApi, Filters) {
  auto s = seed("flt");
  auto models = [&](const std::string& query) {
    std::map<std::string, std::int64_t> out;
    for (const auto& [key, row] : rows(s, query)) out[key] = intField(row, "eventCount");
    return out;
  };
  using M = std::map<std::string, std::int64_t>;
  EXPECT_EQ(models("service=billing"), (M{{"claude-3-haiku", 1}}));
  EXPECT_EQ(models("provider=openai"), (M{{"gpt-4o", 2}}));
  EXPECT_EQ(models("errorType=timeout"), (M{{"gpt-4o", 1}}));
  EXPECT_EQ(models("user=u1"), (M{{"gpt-4o", 1}}));
  EXPECT_EQ(models("model=claude-3-haiku"), (M{{"claude-3-haiku", 1}}));
  EXPECT_EQ(models("source=batch"), M{});
  EXPECT_EQ(models("app=" + std::to_string(s.p.appId)), (M{{"gpt-4o", 2}, {"claude-3-haiku", 1}}));
  EXPECT_EQ(models("channel=" + std::to_string(s.p.channelId + 100000)), M{});
  EXPECT_EQ(models("apiKey=" + std::to_string(s.p.key.id)), (M{{"gpt-4o", 2}, {"claude-3-haiku", 1}}));
  EXPECT_EQ(models("filterTagKey=team&filterTagValue=payments"), (M{{"gpt-4o", 1}, {"claude-3-haiku", 1}}));
  // environment by a slug nobody registered, then by a registered environment's id.
  EXPECT_EQ(models("environment=staging"), (M{{"claude-3-haiku", 1}}));
  auto env = s.p.tenant.http.post("/environments", obj({{"name", "Production"}, {"slug", "prod"}}));
  ASSERT_STATUS(env, 201);
  EXPECT_EQ(models("environment=" + strField(env.object(), "id")), (M{{"gpt-4o", 2}}));
  EXPECT_EQ(models("environment=prod"), (M{{"gpt-4o", 2}}));
}

TEST_F(AnalyticsApi, WindowDefaultsAndBounds) {
  auto s = seed("win");
  // The two-day-old event joins when the window reaches back to it.
  auto wide = rows(s, "since=" + rfc3339(s.oldTime - kSec));
  EXPECT_EQ(intField(wide["gpt-4o"], "eventCount"), 3);
  EXPECT_EQ(intField(wide["gpt-4o"], "inputTokens"), 3007);
  // until is exclusive: a window that ends at event 2 holds event 1 only.
  auto early = rows(s, "since=" + rfc3339(s.times[0]) + "&until=" + rfc3339(s.times[1]));
  EXPECT_EQ(intField(early["gpt-4o"], "eventCount"), 1);
  // A 24-hour window ending at `until` by default: ending just after the old event.
  auto old = rows(s, "until=" + rfc3339(s.oldTime + kSec));
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(intField(old["gpt-4o"], "inputTokens"), 7);
  std::vector<std::string> order;
  rows(s, "dimension=eventType&limit=1", &order);
  EXPECT_EQ(order, std::vector<std::string>{"agent.message"});
}

TEST_F(AnalyticsApi, InvalidQueriesAre422) {
  auto s = seed("bad");
  for (const std::string q :
       {"limit=501", "limit=0", "dimension=colour", "dimension=tag", "filterTagKey=team", "filterTagValue=x",
        "since=yesterday", "until=2026-13-01T00:00:00Z", "app=abc",
        "since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z"}) {
    auto r = get(s, "/analytics/breakdown?" + q);
    EXPECT_TRUE(IsProblem(r, 422)) << q;
  }
  EXPECT_TRUE(IsProblem(get(s, "/analytics/timeseries?metric=p42"), 422));
  EXPECT_TRUE(IsProblem(get(s, "/analytics/timeseries?interval=week"), 422));
  EXPECT_TRUE(IsProblem(get(s, "/analytics/timeseries?interval=minute&since=2020-01-01T00:00:00Z"), 422));
  EXPECT_TRUE(IsProblem(get(s, "/analytics/dimensions?limit=501"), 422));
}

TEST_F(AnalyticsApi, TimeseriesBucketsAndZeroFill) {
  auto s = seed("ts");
  const auto first = s.times[0] - s.times[0] % kHour;
  const std::string window = "&since=" + rfc3339(first) + "&until=" + rfc3339(first + 3 * kHour);
  std::map<std::int64_t, double> expectedCount, expectedTokens;
  const double tokens[] = {1500, 2000, 200, 0};
  for (int i = 0; i < 4; ++i) {
    const auto bucket = s.times[i] - s.times[i] % kHour;
    expectedCount[bucket] += 1;
    expectedTokens[bucket] += tokens[i];
  }
  for (const auto& [metric, expected] : {std::pair{std::string("event_count"), expectedCount},
                                         std::pair{std::string("tokens"), expectedTokens}}) {
    auto r = get(s, "/analytics/timeseries?metric=" + metric + "&interval=hour" + window);
    ASSERT_STATUS(r, 200);
    EXPECT_EQ(strField(r.object(), "metric"), metric);
    EXPECT_EQ(strField(r.object(), "interval"), "hour");
    auto points = objects(r.object()->getArray("points"));
    ASSERT_EQ(points.size(), 3u);  // every hour of the window, zero-filled
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto ts = fromRfc3339(strField(points[i], "ts"));
      EXPECT_EQ(ts, first + static_cast<std::int64_t>(i) * kHour);
      const auto it = expected.find(ts);
      EXPECT_DOUBLE_EQ(num(points[i], "value"), it == expected.end() ? 0.0 : it->second) << metric << " " << i;
    }
  }
  auto cost = get(s, "/analytics/timeseries?metric=cost_usd&interval=day" + window);
  ASSERT_STATUS(cost, 200);
  double total = 0;
  for (const auto& p : objects(cost.object()->getArray("points"))) total += num(p, "value");
  EXPECT_NEAR(total, kCost1 + 0.5 + kCost3, 1e-12);
  auto errors = get(s, "/analytics/timeseries?metric=error_count&interval=minute" + window);
  ASSERT_STATUS(errors, 200);
  total = 0;
  for (const auto& p : objects(errors.object()->getArray("points"))) total += num(p, "value");
  EXPECT_EQ(total, 2);
  auto p95 = get(s, "/analytics/timeseries?metric=latency_p95_ms&interval=day" + window);
  ASSERT_STATUS(p95, 200);
  auto points = objects(p95.object()->getArray("points"));
  ASSERT_FALSE(points.empty());
  double maxP95 = 0;
  for (const auto& p : points) maxP95 = std::max(maxP95, num(p, "value"));
  EXPECT_NEAR(maxP95, 300, 300 * kSketchError);
}

// Percentiles come from the rollups' sketches: the exact nearest rank within 1 %
// (docs/features.md#analytics-rollups; the raw path's exact answers are unit-tested).
TEST_F(AnalyticsApi, LatencyPercentilesAreNearestRank) {
  auto s = seed("lat");
  auto r = get(s, "/analytics/latency");
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  EXPECT_EQ(intField(o, "count"), 3);
  EXPECT_NEAR(num(o, "p50"), 200, 200 * kSketchError);
  EXPECT_NEAR(num(o, "p90"), 300, 300 * kSketchError);
  EXPECT_NEAR(num(o, "p95"), 300, 300 * kSketchError);
  EXPECT_NEAR(num(o, "p99"), 300, 300 * kSketchError);
  EXPECT_NEAR(num(o, "max"), 300, 300 * kSketchError);
  auto billing = get(s, "/analytics/latency?service=billing").object();
  EXPECT_EQ(intField(billing, "count"), 1);
  EXPECT_NEAR(num(billing, "p50"), 200, 200 * kSketchError);
  auto none = get(s, "/analytics/latency?model=nothing").object();
  EXPECT_EQ(intField(none, "count"), 0);
  EXPECT_TRUE(none->isNull("p50"));
}

// The overview is each time series and the latency, exactly as their own endpoints give
// them, for the same window, interval and filters; invalid queries are 422s as there.
TEST_F(AnalyticsApi, OverviewEqualsEachSeriesAndTheLatency) {
  auto s = seed("ov");
  const auto first = s.times[0] - s.times[0] % kHour;
  const std::string window = "since=" + rfc3339(first) + "&until=" + rfc3339(first + 3 * kHour);
  // {filters and window, interval}; the default window when none is given.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {window, "hour"}, {window, "minute"}, {window + "&service=checkout", "day"}, {"model=gpt-4o", "hour"}};
  for (const auto& [filters, interval] : cases) {
    SCOPED_TRACE(filters + " " + interval);
    auto r = get(s, "/analytics/overview?" + filters + "&interval=" + interval);
    ASSERT_STATUS(r, 200);
    auto series = r.object()->getObject("series");
    ASSERT_EQ(series->size(), 6u);
    for (const std::string metric :
         {"event_count", "error_count", "tokens", "cost_usd", "latency_p50_ms", "latency_p95_ms"}) {
      auto alone = get(s, "/analytics/timeseries?metric=" + metric + "&interval=" + interval + "&" + filters);
      ASSERT_STATUS(alone, 200);
      ASSERT_TRUE(series->has(metric)) << metric;
      EXPECT_EQ(toJson(series->getObject(metric)), toJson(alone.object())) << metric;
    }
    auto latency = get(s, "/analytics/latency?" + filters);
    ASSERT_STATUS(latency, 200);
    EXPECT_EQ(toJson(r.object()->getObject("latency")), toJson(latency.object()));
  }
  EXPECT_EQ(intField(get(s, "/analytics/overview?" + window).object()->getObject("latency"), "count"), 3);
  EXPECT_TRUE(IsProblem(get(s, "/analytics/overview?interval=week"), 422));
  EXPECT_TRUE(IsProblem(get(s, "/analytics/overview?interval=minute&since=2020-01-01T00:00:00Z"), 422));
  EXPECT_TRUE(IsProblem(get(s, "/analytics/overview?filterTagKey=team"), 422));
  // Another organization's overview is empty.
  auto other = newPublisher("ov-other");
  auto theirs = other.keyed.get("/analytics/overview?" + window);
  ASSERT_STATUS(theirs, 200);
  EXPECT_EQ(intField(theirs.object()->getObject("latency"), "count"), 0);
}

// latencyByKind: LLM calls and tool calls apart (semantic kind), never mixed with each
// other or with events of no kind; null for a kind the window does not have.
TEST_F(AnalyticsApi, OverviewLatencyByKindKeepsLlmAndToolCallsApart) {
  auto p = newPublisher("bykind");
  const auto base = recentBase();
  int n = 0;
  auto publishKind = [&](const std::string& kind, int durationMs) {
    const std::string kindField = kind.empty() ? "" : R"("semantic_kind":")" + kind + R"(",)";
    ++n;
    publishOne(p.keyed, p.channelId, "t-bykind",
               {"k" + std::to_string(n), "agent.message", "planner", base + n * kSec,
                meta("{" + kindField + R"("duration_ms":)" + std::to_string(durationMs) + "}")});
  };
  for (int d : {100, 200, 300, 400}) publishKind("llm", d);
  for (int d : {10, 20}) publishKind("tool", d);
  publishKind("", 5000);
  for (const std::string& query :
       std::vector<std::string>{"", "?interval=minute", "?channel=" + std::to_string(p.channelId)}) {
    SCOPED_TRACE(query);
    auto r = p.keyed.get("/analytics/overview" + query);
    ASSERT_STATUS(r, 200);
    auto byKind = r.object()->getObject("latencyByKind");
    ASSERT_TRUE(byKind) << r.body;
    auto llm = byKind->getObject("llm");
    auto tool = byKind->getObject("tool");
    ASSERT_TRUE(llm && tool) << r.body;
    EXPECT_EQ(intField(llm, "count"), 4);
    EXPECT_NEAR(num(llm, "p50"), 200, 200 * kSketchError);
    EXPECT_NEAR(num(llm, "p95"), 400, 400 * kSketchError);
    EXPECT_NEAR(num(llm, "p99"), 400, 400 * kSketchError);
    EXPECT_EQ(intField(tool, "count"), 2);
    EXPECT_NEAR(num(tool, "p50"), 10, 10 * kSketchError);
    EXPECT_NEAR(num(tool, "p99"), 20, 20 * kSketchError);
    EXPECT_EQ(intField(r.object()->getObject("latency"), "count"), 7);  // every kind, as before
  }
  auto none = p.keyed.get("/analytics/overview?model=nothing");
  ASSERT_STATUS(none, 200);
  EXPECT_TRUE(none.object()->getObject("latencyByKind")->isNull("llm"));
  EXPECT_TRUE(none.object()->getObject("latencyByKind")->isNull("tool"));
  // Another organization's kinds are its own.
  auto other = newPublisher("bykind-other");
  auto theirs = other.keyed.get("/analytics/overview");
  ASSERT_STATUS(theirs, 200);
  EXPECT_TRUE(theirs.object()->getObject("latencyByKind")->isNull("llm"));
}

TEST_F(AnalyticsApi, DimensionsListsAttributeKeysPerEnvironment) {
  auto s = seed("keys");
  auto keysOf = [&](const std::string& query) {
    auto r = get(s, "/analytics/dimensions" + query);
    EXPECT_EQ(r.status, 200) << r.describe();
    std::vector<std::string> keys;
    for (const auto& d : objects(r.object()->getArray("dimensions"))) {
      keys.push_back(strField(d, "key"));
      EXPECT_EQ(strField(d, "source"), "api");
      EXPECT_GT(fromRfc3339(strField(d, "lastSeen")), 0);
    }
    std::sort(keys.begin(), keys.end());
    return keys;
  };
  EXPECT_EQ(keysOf(""), (std::vector<std::string>{"region", "team"}));
  EXPECT_EQ(keysOf("?environment=prod"), std::vector<std::string>{"team"});
  EXPECT_EQ(keysOf("?environment=staging"), (std::vector<std::string>{"region", "team"}));
  EXPECT_EQ(keysOf("?limit=1").size(), 1u);
}

TEST_F(AnalyticsApi, OrganizationsNeverMixAndScopesApply) {
  auto a = seed("iso-a");
  auto other = newPublisher("iso-b");
  auto r = other.keyed.get("/analytics/breakdown");
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(r.object()->getArray("rows")->size(), 0u);
  EXPECT_EQ(other.keyed.get("/analytics/latency").object()->getValue<std::int64_t>("count"), 0);
  EXPECT_EQ(other.keyed.get("/analytics/dimensions").object()->getArray("dimensions")->size(), 0u);
  // The bearer of the organization sees the same as its read key.
  EXPECT_EQ(a.p.tenant.http.get("/analytics/breakdown").object()->getArray("rows")->size(), 2u);
  // A key without `read` cannot read analytics.
  auto publishOnly = createKey(a.p.tenant, {"publish"});
  EXPECT_TRUE(IsProblem(anon().withApiKey(publishOnly.key).get("/analytics/breakdown"), 403));
  EXPECT_TRUE(IsProblem(anon().get("/analytics/breakdown"), 401));
}

TEST_F(AnalyticsApi, BadTagsAreRefusedAndChangeNothing) {
  auto s = seed("badtags");
  auto r = s.p.keyed.post("/event", traceEvent(s.p.channelId, "t-x",
                                               {"bad", "agent.message", "a", std::nullopt,
                                                meta(R"({"model":"gpt-4o","tags":{"nested":{"a":1}}})")}));
  EXPECT_TRUE(IsProblem(r, 422));
  EXPECT_EQ(intField(rows(s, "")["gpt-4o"], "eventCount"), 2);
}

TEST_F(AnalyticsApi, OpenApiDocumentsTheAnalyticsQueries) {
  auto doc = anon().get("/openapi.json");
  ASSERT_STATUS(doc, 200);
  auto paths = doc.object()->getObject("paths");
  for (const char* path : {"/analytics/breakdown", "/analytics/timeseries", "/analytics/latency",
                           "/analytics/dimensions"}) {
    auto op = paths->getObject(path) ? paths->getObject(path)->getObject("get") : nullptr;
    ASSERT_TRUE(op) << path;
    ASSERT_TRUE(op->getArray("parameters")) << path;
    EXPECT_GT(op->getArray("parameters")->size(), 1u) << path;
    EXPECT_NE(op->getObject("responses")->getObject("2XX")->getObject("content"), nullptr) << path;
  }
  std::string series = doc.body;
  EXPECT_NE(series.find("latency_p95_ms"), std::string::npos);
}

}  // namespace
}  // namespace aev::testing

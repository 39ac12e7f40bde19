// GET /traces (docs/api.md#pagination-and-limits): newest first by start time, page and
// limit with exact meta, the filters app, channel, agent (exact, case-sensitive), since
// (start ≥ since) and until (start < until) alone and combined, every invalid query a
// 422, and who may read: a Bearer session or an API key with the `read` scope.
#include <Poco/JSON/Parser.h>
#include <Poco/URI.h>
#include <gtest/gtest.h>

#include <memory>

#include "traces_support.h"

namespace aev::testing {
namespace {

using Ids = std::vector<std::string>;

// Five traces of one organization, started a minute apart, across two apps and three
// channels. Built once per suite: every test here only reads them.
struct Seed {
  Publisher p;
  std::int64_t app2 = 0;
  std::int64_t channel2 = 0;  // in app2
  std::int64_t channel3 = 0;  // in the first app
  std::int64_t t0 = 0;
  std::string t1, t2, t3, t4, t5;
};

class TraceListApi : public TracesTest {
 public:
  static void SetUpTestSuite() {
    TracesTest::SetUpTestSuite();
    if (!daemonUp()) return;
    try {
      seed_ = std::make_unique<Seed>(makeSeed());
    } catch (const std::exception& e) {
      seedError_ = e.what();
    }
  }
  static void TearDownTestSuite() {
    seed_.reset();
    TracesTest::TearDownTestSuite();
  }

 protected:
  void SetUp() override {
    TracesTest::SetUp();
    ASSERT_TRUE(seed_) << "seeding the traces failed: " << seedError_;
  }
  static const Seed& seed() { return *seed_; }

  // GET /traces?<query>; asserts 200 and returns the trace ids in answer order.
  static Ids ids(const std::string& query) {
    auto r = seed().p.keyed.get("/traces" + (query.empty() ? "" : "?" + query));
    EXPECT_EQ(r.status, 200) << r.describe();
    return r.status == 200 ? traceIdsOf(r) : Ids{"(error)"};
  }
  static std::string at(std::int64_t minutes) {
    std::string encoded;
    Poco::URI::encode(rfc3339(seed().t0 + minutes * 60 * kSec), "+:", encoded);
    return encoded;
  }

 private:
  static Seed makeSeed() {
    Seed s;
    s.p = newPublisher("tlist");
    s.app2 = createApp(s.p.tenant);
    s.channel2 = createChannel(s.p.tenant, s.app2);
    s.channel3 = createChannel(s.p.tenant, s.p.appId);
    s.t0 = recentBase();
    const auto u = unique();
    s.t1 = "t1-" + u;
    s.t2 = "t2-" + u;
    s.t3 = "t3-" + u;
    s.t4 = "t4-" + u;
    s.t5 = "t5-" + u;
    const auto minute = [&](std::int64_t m, std::int64_t extraSeconds = 0) {
      return s.t0 + m * 60 * kSec + extraSeconds * kSec;
    };
    // Published newest first, so the order of the list cannot come from insertion.
    publishOne(s.p.keyed, s.p.channelId, s.t5, {"e", "agent.start", "Alice", minute(5)});
    publishBatch(s.p.keyed, s.channel2, s.t4,
                 {{"e1", "agent.start", "carol", minute(4)}, {"e2", "agent.error", "carol", minute(4, 30)}});
    publishBatch(s.p.keyed, s.channel3, s.t3,
                 {{"e1", "agent.start", "alice", minute(3)}, {"e2", "agent.handoff", "bob", minute(3, 10)}});
    publishOne(s.p.keyed, s.channel2, s.t2, {"e", "agent.start", "bob", minute(2)});
    publishOne(s.p.keyed, s.p.channelId, s.t1, {"e", "agent.start", "alice", minute(1)});
    return s;
  }
  static std::unique_ptr<Seed> seed_;
  static std::string seedError_;
};

std::unique_ptr<Seed> TraceListApi::seed_;
std::string TraceListApi::seedError_;

TEST_F(TraceListApi, NewestFirstWithItemsAndMeta) {
  const auto& s = seed();
  auto r = s.p.keyed.get("/traces");
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(traceIdsOf(r), (Ids{s.t5, s.t4, s.t3, s.t2, s.t1}));
  auto meta = r.object()->getObject("meta");
  EXPECT_EQ(intField(meta, "total"), 5);
  EXPECT_EQ(intField(meta, "page"), 1);
  EXPECT_EQ(intField(meta, "limit"), 20);
  EXPECT_EQ(intField(meta, "totalPages"), 1);

  auto items = objects(r.object()->getArray("data"));
  auto t3 = items[2];
  EXPECT_EQ(strField(t3, "startTime"), rfc3339(s.t0 + 3 * 60 * kSec));
  EXPECT_EQ(strField(t3, "endTime"), rfc3339(s.t0 + 3 * 60 * kSec + 10 * kSec));
  EXPECT_EQ(intField(t3, "eventCount"), 2);
  EXPECT_EQ(intField(t3, "errorCount"), 0);
  EXPECT_EQ(strings(t3->getArray("agents")), (Ids{"alice", "bob"}));
  auto t4 = items[1];
  EXPECT_EQ(intField(t4, "eventCount"), 2);
  EXPECT_EQ(intField(t4, "errorCount"), 1);
  EXPECT_EQ(strField(t4, "endTime"), rfc3339(s.t0 + 4 * 60 * kSec + 30 * kSec));
  auto t1 = items[4];
  EXPECT_EQ(strField(t1, "startTime"), strField(t1, "endTime"));
  EXPECT_EQ(intField(t1, "eventCount"), 1);
  EXPECT_EQ(strings(t1->getArray("agents")), Ids{"alice"});
  // A Bearer session of the organization reads the same list.
  auto bearer = s.p.tenant.http.get("/traces");
  ASSERT_STATUS(bearer, 200);
  EXPECT_EQ(bearer.body, r.body);
}

TEST_F(TraceListApi, PagesAndLimits) {
  const auto& s = seed();
  struct Page {
    std::string query;
    Ids ids;
    std::int64_t page, limit, totalPages;
  };
  for (const auto& x :
       {Page{"limit=2", {s.t5, s.t4}, 1, 2, 3}, Page{"limit=2&page=2", {s.t3, s.t2}, 2, 2, 3},
        Page{"limit=2&page=3", {s.t1}, 3, 2, 3}, Page{"limit=2&page=4", {}, 4, 2, 3},
        Page{"page=1&limit=5", {s.t5, s.t4, s.t3, s.t2, s.t1}, 1, 5, 1}, Page{"limit=1&page=5", {s.t1}, 5, 1, 5},
        Page{"limit=100", {s.t5, s.t4, s.t3, s.t2, s.t1}, 1, 100, 1}, Page{"page=2", {}, 2, 20, 1}}) {
    SCOPED_TRACE(x.query);
    auto r = s.p.keyed.get("/traces?" + x.query);
    ASSERT_STATUS(r, 200);
    EXPECT_EQ(traceIdsOf(r), x.ids);
    auto meta = r.object()->getObject("meta");
    EXPECT_EQ(intField(meta, "total"), 5);
    EXPECT_EQ(intField(meta, "page"), x.page);
    EXPECT_EQ(intField(meta, "limit"), x.limit);
    EXPECT_EQ(intField(meta, "totalPages"), x.totalPages);
  }
}

TEST_F(TraceListApi, FiltersByAppChannelAndAgent) {
  const auto& s = seed();
  const auto app1 = std::to_string(s.p.appId);
  const auto app2 = std::to_string(s.app2);
  EXPECT_EQ(ids("app=" + app1), (Ids{s.t5, s.t3, s.t1}));
  EXPECT_EQ(ids("app=" + app2), (Ids{s.t4, s.t2}));
  EXPECT_EQ(ids("channel=" + std::to_string(s.p.channelId)), (Ids{s.t5, s.t1}));
  EXPECT_EQ(ids("channel=" + std::to_string(s.channel2)), (Ids{s.t4, s.t2}));
  EXPECT_EQ(ids("channel=" + std::to_string(s.channel3)), (Ids{s.t3}));
  EXPECT_EQ(ids("app=" + app2 + "&channel=" + std::to_string(s.channel3)), Ids{});

  // Agents: any agent of the trace, matched exactly (case and whole name).
  EXPECT_EQ(ids("agent=alice"), (Ids{s.t3, s.t1}));
  EXPECT_EQ(ids("agent=bob"), (Ids{s.t3, s.t2}));
  EXPECT_EQ(ids("agent=Alice"), (Ids{s.t5}));
  EXPECT_EQ(ids("agent=ALICE"), Ids{});
  EXPECT_EQ(ids("agent=ali"), Ids{});
  EXPECT_EQ(ids("agent=%25"), Ids{});  // a LIKE wildcard is a character
  EXPECT_EQ(ids("agent=_lice"), Ids{});
  EXPECT_EQ(ids("agent=nobody"), Ids{});
  EXPECT_EQ(ids("agent=alice&app=" + app1 + "&channel=" + std::to_string(s.channel3)), (Ids{s.t3}));
  // Empty values are no filter.
  EXPECT_EQ(ids("agent=&app=&channel=&since=&until="), (Ids{s.t5, s.t4, s.t3, s.t2, s.t1}));

  // Another organization's app or channel id filters to nothing rather than leaking.
  auto other = newPublisher("tlist-other");
  publishOne(other.keyed, other.channelId, "theirs-" + unique(), {"e", "agent.start", "alice", s.t0});
  EXPECT_EQ(ids("app=" + std::to_string(other.appId)), Ids{});
  EXPECT_EQ(ids("channel=" + std::to_string(other.channelId)), Ids{});
  auto meta = s.p.keyed.get("/traces?agent=alice").object()->getObject("meta");
  EXPECT_EQ(intField(meta, "total"), 2);
}

TEST_F(TraceListApi, FiltersByStartTimeWindow) {
  const auto& s = seed();
  EXPECT_EQ(ids("since=" + at(3)), (Ids{s.t5, s.t4, s.t3}));  // start ≥ since
  EXPECT_EQ(ids("until=" + at(3)), (Ids{s.t2, s.t1}));        // start < until
  EXPECT_EQ(ids("since=" + at(2) + "&until=" + at(4)), (Ids{s.t3, s.t2}));
  EXPECT_EQ(ids("since=" + at(3) + "&until=" + at(3)), Ids{});  // an empty window
  EXPECT_EQ(ids("since=" + at(6)), Ids{});
  EXPECT_EQ(ids("until=" + at(1)), Ids{});
  // t4 ends after 4:00 but starts before: the window is on the start.
  EXPECT_EQ(ids("since=" + at(4) + "&until=" + at(5)), (Ids{s.t4}));
  // Other offsets name the same instant.
  std::string plusOne;
  auto local = rfc3339(s.t0 + 3 * 60 * kSec + 3600 * kSec);
  local.replace(local.size() - 1, 1, "+01:00");
  Poco::URI::encode(local, "+:", plusOne);
  EXPECT_EQ(ids("since=" + plusOne), (Ids{s.t5, s.t4, s.t3}));
  // Filters combine with paging.
  auto r = s.p.keyed.get("/traces?since=" + at(2) + "&limit=2&page=2");
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(traceIdsOf(r), (Ids{s.t3, s.t2}));
  EXPECT_EQ(intField(r.object()->getObject("meta"), "total"), 4);
  EXPECT_EQ(intField(r.object()->getObject("meta"), "totalPages"), 2);
}

TEST_F(TraceListApi, SortsByDurationEventsErrorsAndStartAndFiltersByStatus) {
  const auto& s = seed();
  // Durations: t4 30 s, t3 10 s, the others 0; ties keep newest first.
  EXPECT_EQ(ids("sort=duration"), (Ids{s.t4, s.t3, s.t5, s.t2, s.t1}));
  EXPECT_EQ(ids("sort=duration&order=asc"), (Ids{s.t5, s.t2, s.t1, s.t3, s.t4}));
  EXPECT_EQ(ids("sort=events"), (Ids{s.t4, s.t3, s.t5, s.t2, s.t1}));
  EXPECT_EQ(ids("sort=errors"), (Ids{s.t4, s.t5, s.t3, s.t2, s.t1}));
  EXPECT_EQ(ids("sort=start&order=asc"), (Ids{s.t1, s.t2, s.t3, s.t4, s.t5}));
  EXPECT_EQ(ids("order=desc"), (Ids{s.t5, s.t4, s.t3, s.t2, s.t1}));
  EXPECT_EQ(ids("status=error"), Ids{s.t4});
  EXPECT_EQ(ids("status=ok&sort=start&order=asc"), (Ids{s.t1, s.t2, s.t3, s.t5}));
  // Paging follows the order.
  EXPECT_EQ(ids("sort=duration&limit=2&page=2"), (Ids{s.t5, s.t2}));
  // The counters the console shows per row.
  auto r = s.p.keyed.get("/traces?sort=duration&limit=2");
  ASSERT_STATUS(r, 200);
  auto t3 = objects(r.object()->getArray("data"))[1];
  EXPECT_EQ(intField(t3, "handoffCount"), 1);
  EXPECT_EQ(intField(t3, "toolCallCount"), 0);
}

TEST_F(TraceListApi, FiltersByModelProviderAndToolOfAnyEvent) {
  auto p = newPublisher("tfilter");
  const auto u = unique();
  const auto base = recentBase();
  const std::string llm = "llm-" + u, tools = "tools-" + u, plain = "plain-" + u;
  publishBatch(p.keyed, p.channelId, llm,
               {{"start", "agent.start", "a", base},
                {"call", "agent.message", "a", base + kSec, obj({{"model", "gpt-4o"}, {"provider", "openai"}})}});
  publishBatch(p.keyed, p.channelId, tools,
               {{"start", "agent.start", "a", base + 2 * kSec},
                {"search", "agent.tool_call.start", "a", base + 3 * kSec, obj({{"tool", "search"}})},
                {"call", "agent.message", "a", base + 4 * kSec, obj({{"model", "claude-3-5-sonnet"}})}});
  publishOne(p.keyed, p.channelId, plain, {"start", "agent.start", "a", base + 5 * kSec});
  const auto idsOf = [&](const std::string& query) {
    auto r = p.keyed.get("/traces?" + query);
    EXPECT_EQ(r.status, 200) << r.describe();
    return traceIdsOf(r);
  };
  EXPECT_EQ(idsOf("model=gpt-4o"), Ids{llm});
  EXPECT_EQ(idsOf("model=claude-3-5-sonnet"), Ids{tools});
  EXPECT_EQ(idsOf("provider=openai"), Ids{llm});
  EXPECT_EQ(idsOf("tool=search"), Ids{tools});
  EXPECT_EQ(idsOf("tool=search&model=gpt-4o"), Ids{});
  EXPECT_EQ(idsOf("model=GPT-4O"), Ids{});               // exact
  EXPECT_EQ(idsOf("model="), (Ids{plain, tools, llm}));  // empty: no filter
  // Another organization's traces never match.
  EXPECT_EQ(traceIdsOf(seed().p.keyed.get("/traces?model=gpt-4o")), Ids{});
}

// Tokens and cost on each trace (sums of its events' telemetry), sorted by; environment and
// tag filters match a trace when any of its events does, and never another organization's.
TEST_F(TraceListApi, TokensCostEnvironmentAndTagFilters) {
  auto p = newPublisher("tusage");
  const auto u = unique();
  const auto base = recentBase();
  const std::string a = "a-" + u, b = "b-" + u, c = "c-" + u;
  const auto meta = [](const std::string& json) {
    return Poco::JSON::Parser().parse(json).extract<Poco::JSON::Object::Ptr>();
  };
  publishBatch(
      p.keyed, p.channelId, a,
      {{"m1", "agent.message", "x", base, meta(R"({"usage":{"input_tokens":100,"output_tokens":20},"cost_usd":0.5,
                   "environment":"production","tags":{"team":"search"}})")},
       {"m2", "agent.message", "x", base + kSec,
        meta(R"({"usage":{"input_tokens":50,"output_tokens":5},"cost_usd":0.25,"environment":"staging"})")}});
  publishOne(p.keyed, p.channelId, b,
             {"m", "agent.message", "x", base + 2 * kSec,
              meta(R"({"usage":{"input_tokens":1000},"cost_usd":0.125,"environment":"staging",
                "tags":{"team":"ads","tier":"pro"}})")});
  publishOne(p.keyed, p.channelId, c, {"s", "agent.start", "x", base + 3 * kSec});
  // One more event of a, published later: the rollup adds it.
  publishOne(p.keyed, p.channelId, a,
             {"m3", "agent.message", "x", base + 500 * kMs, meta(R"({"usage":{"output_tokens":1},"cost_usd":1})")});
  const auto idsOf = [&](const std::string& query) {
    auto r = p.keyed.get("/traces?" + query);
    EXPECT_EQ(r.status, 200) << query << ": " << r.describe();
    return r.status == 200 ? traceIdsOf(r) : Ids{"(error)"};
  };

  auto r = p.keyed.get("/traces");
  ASSERT_STATUS(r, 200);
  ASSERT_EQ(traceIdsOf(r), (Ids{c, b, a}));
  const auto items = objects(r.object()->getArray("data"));
  const auto num = [](const Poco::JSON::Object::Ptr& o, const std::string& k) { return o->getValue<double>(k); };
  EXPECT_EQ(intField(items[2], "inputTokens"), 150);
  EXPECT_EQ(intField(items[2], "outputTokens"), 26);
  EXPECT_EQ(intField(items[2], "totalTokens"), 176);
  EXPECT_DOUBLE_EQ(num(items[2], "costUsd"), 1.75);
  EXPECT_EQ(intField(items[1], "totalTokens"), 1000);
  EXPECT_DOUBLE_EQ(num(items[1], "costUsd"), 0.125);
  EXPECT_EQ(intField(items[0], "totalTokens"), 0);
  EXPECT_DOUBLE_EQ(num(items[0], "costUsd"), 0.0);
  // The summary carries them too.
  auto summary = p.keyed.get(tracePath(a, "summary"));
  ASSERT_STATUS(summary, 200);
  EXPECT_EQ(intField(summary.object(), "totalTokens"), 176);
  EXPECT_DOUBLE_EQ(num(summary.object(), "costUsd"), 1.75);

  EXPECT_EQ(idsOf("sort=tokens"), (Ids{b, a, c}));
  EXPECT_EQ(idsOf("sort=tokens&order=asc"), (Ids{c, a, b}));
  EXPECT_EQ(idsOf("sort=cost"), (Ids{a, b, c}));
  EXPECT_EQ(idsOf("sort=cost&order=asc&limit=1&page=2"), Ids{b});

  // Environment: any event of the trace; by text, then by a registered environment's id and slug.
  EXPECT_EQ(idsOf("environment=production"), Ids{a});
  EXPECT_EQ(idsOf("environment=staging"), (Ids{b, a}));
  EXPECT_EQ(idsOf("environment=Staging"), Ids{});
  auto env = p.tenant.http.post("/environments", obj({{"name", "Staging EU"}, {"slug", "staging"}}));
  ASSERT_STATUS(env, 201);
  EXPECT_EQ(idsOf("environment=" + strField(env.object(), "id")), (Ids{b, a}));
  EXPECT_EQ(idsOf("environment=staging&sort=tokens&order=asc"), (Ids{a, b}));
  // Tags: key and value of any event's metadata.tags, exactly.
  EXPECT_EQ(idsOf("filterTagKey=team&filterTagValue=search"), Ids{a});
  EXPECT_EQ(idsOf("filterTagKey=team&filterTagValue=ads"), Ids{b});
  EXPECT_EQ(idsOf("filterTagKey=tier&filterTagValue=pro&environment=staging"), Ids{b});
  EXPECT_EQ(idsOf("filterTagKey=tier&filterTagValue=pro&environment=production"), Ids{});
  EXPECT_EQ(idsOf("filterTagKey=team&filterTagValue=Search"), Ids{});
  EXPECT_EQ(idsOf("filterTagKey=search&filterTagValue=team"), Ids{});
  EXPECT_EQ(intField(p.keyed.get("/traces?environment=staging").object()->getObject("meta"), "total"), 2);

  // Another organization with the same environment and tag sees only its own.
  EXPECT_EQ(traceIdsOf(seed().p.keyed.get("/traces?environment=staging")), Ids{});
  EXPECT_EQ(traceIdsOf(seed().p.keyed.get("/traces?filterTagKey=team&filterTagValue=search")), Ids{});
}

TEST_F(TraceListApi, EveryInvalidQueryIs422) {
  const auto& s = seed();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"limit=0", "query.limit"},
      {"limit=101", "query.limit"},
      {"limit=abc", "query.limit"},
      {"limit=-1", "query.limit"},
      {"limit=1.5", "query.limit"},
      {"page=0", "query.page"},
      {"page=-2", "query.page"},
      {"page=x", "query.page"},
      {"since=yesterday", "query.since"},
      {"since=2024-13-01T00:00:00Z", "query.since"},
      {"until=12345", "query.until"},
      {"app=abc", "query.app"},
      {"app=0", "query.app"},
      {"channel=-1", "query.channel"},
      {"channel=1e3", "query.channel"},
      {"since=" + at(4) + "&until=" + at(3), "query.since"},  // since after until
      {"sort=price", "query.sort"},
      {"filterTagKey=team", "query.filterTagValue"},  // a tag filter is a key and a value
      {"filterTagValue=search", "query.filterTagKey"},
      {"order=up", "query.order"},
      {"status=failed", "query.status"},
  };
  for (const auto& [query, location] : cases) {
    auto r = s.p.keyed.get("/traces?" + query);
    EXPECT_TRUE(IsProblem(r, 422)) << query;
    const auto locations = errorLocations(r);
    EXPECT_TRUE(!locations.empty() && locations[0] == location) << query << " → " << r.body;
  }
}

TEST_F(TraceListApi, ReadNeedsASessionOrAKeyWithReadScope) {
  const auto& s = seed();
  const auto trace = s.t3;
  const std::vector<std::string> paths = {"/traces", tracePath(trace, "events"), tracePath(trace, "summary")};
  auto publishOnly = createKey(s.p.tenant, {"publish", "subscribe"});
  auto readOnly = createKey(s.p.tenant, {"read"});
  for (const auto& path : paths) {
    SCOPED_TRACE(path);
    EXPECT_TRUE(IsProblem(anon().get(path), 401));
    EXPECT_TRUE(IsProblem(anon().withBearer("not.a.jwt").get(path), 401));
    EXPECT_TRUE(IsProblem(anon().withApiKey("aes_" + std::string(43, 'x')).get(path), 401));
    EXPECT_TRUE(IsProblem(anon().withApiKey(publishOnly.key).get(path), 403));
    EXPECT_STATUS(anon().withApiKey(readOnly.key).get(path), 200);
    EXPECT_STATUS(s.p.tenant.user.http.get(path), 200);
  }
  // A revoked key stops reading at once.
  ASSERT_STATUS(s.p.tenant.user.http.del("/api-keys/" + std::to_string(readOnly.id)), 204);
  EXPECT_TRUE(IsProblem(anon().withApiKey(readOnly.key).get("/traces"), 401));
}

}  // namespace
}  // namespace aev::testing

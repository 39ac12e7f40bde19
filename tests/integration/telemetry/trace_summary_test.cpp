// One trace read back (docs/features.md#traces): GET /traces/{traceId}/events
// oldest first by the publisher's timestamp (else the receive time), and the summary's
// exact counts, agents, event types, times and duration in ms, whether the events came
// one by one, in a batch or from concurrent publishers; unknown and foreign traces are
// 404, and one traceId used by two organizations never mixes.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <thread>

#include "traces_support.h"

namespace aev::testing {
namespace {

class TraceSummaryApi : public TracesTest {
 protected:
  static std::set<std::string> asSet(const Poco::JSON::Array::Ptr& array) {
    auto values = strings(array);
    return {values.begin(), values.end()};
  }
};

TEST_F(TraceSummaryApi, SeededTraceHasExactSummaryAndOrderedEvents) {
  auto p = newPublisher("tsum");
  const auto trace = "trace-" + unique();
  const auto t0 = recentBase();
  // In time order; published out of order, partly one by one and partly in a batch.
  const std::vector<TraceEventSpec> specs = {
      {"plan", "agent.start", "planner", t0, nullptr},
      {"search", "agent.tool_call.start", "planner", t0 + 250 * kMs, obj({{"tool", "search"}})},
      {"search-done", "agent.tool_call.end", "planner", t0 + 900 * kMs, obj({{"status", "ok"}})},
      {"handoff", "agent.handoff", "planner", t0 + 1200 * kMs, nullptr},
      {"draft", "agent.message", "writer", t0 + 1500 * kMs, obj({{"status", "error"}})},      // an error by status
      {"crash", "agent.error", "writer", t0 + 2000 * kMs + 250, obj({{"status", "error"}})},  // counted once
      {"retry-tool", "agent.tool_call.start", "writer", t0 + 2750 * kMs, nullptr},
      {"note", "custom", "", t0 + 3000 * kMs, obj({{"status", "Error"}})},  // not "error": no error
      {"done", "agent.end", "writer", t0 + 3100 * kMs + 500, obj({{"status", "ok"}})},
  };
  publishOne(p.keyed, p.channelId, trace, specs[8]);
  publishOne(p.tenant.http, p.channelId, trace, specs[2]);  // a Bearer publisher joins the same trace
  publishBatch(p.keyed, p.channelId, trace, {specs[7], specs[6], specs[5], specs[4], specs[3], specs[1], specs[0]});

  auto summary = p.keyed.get(tracePath(trace, "summary"));
  ASSERT_STATUS(summary, 200);
  auto s = summary.object();
  EXPECT_EQ(strField(s, "traceId"), trace);
  EXPECT_EQ(intField(s, "eventCount"), 9);
  EXPECT_EQ(asSet(s->getArray("agents")), (std::set<std::string>{"planner", "writer"}));
  EXPECT_EQ(strings(s->getArray("agents")).size(), 2u) << summary.body;  // no duplicates
  EXPECT_EQ(asSet(s->getArray("eventTypes")),
            (std::set<std::string>{"agent.start", "agent.tool_call.start", "agent.tool_call.end", "agent.handoff",
                                   "agent.message", "agent.error", "custom", "agent.end"}));
  EXPECT_EQ(strings(s->getArray("eventTypes")).size(), 8u) << summary.body;
  EXPECT_EQ(strField(s, "startTime"), rfc3339(t0));
  EXPECT_EQ(strField(s, "endTime"), rfc3339(t0 + 3100 * kMs + 500));
  EXPECT_DOUBLE_EQ(s->getValue<double>("duration"), 3100.5);  // milliseconds, endTime − startTime
  EXPECT_EQ(intField(s, "errorCount"), 2);
  EXPECT_EQ(intField(s, "toolCallCount"), 2);
  EXPECT_EQ(intField(s, "handoffCount"), 1);

  auto events = p.keyed.get(tracePath(trace, "events"));
  ASSERT_STATUS(events, 200);
  auto list = objects(events.array());
  ASSERT_EQ(list.size(), specs.size()) << events.body;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    SCOPED_TRACE("event " + std::to_string(i) + " " + specs[i].identifier);
    EXPECT_EQ(strField(list[i], "identifier"), specs[i].identifier);
    EXPECT_EQ(strField(list[i], "occurredAt"), rfc3339(*specs[i].at));
    EXPECT_EQ(strField(list[i], "traceId"), trace);
    EXPECT_EQ(strField(list[i], "eventType"), specs[i].eventType);
    if (specs[i].agent.empty())
      EXPECT_TRUE(list[i]->isNull("agentId"));
    else
      EXPECT_EQ(strField(list[i], "agentId"), specs[i].agent);
    EXPECT_EQ(strField(list[i], "orgId"), std::to_string(p.tenant.orgId));
    EXPECT_EQ(intField(list[i], "channel_id"), p.channelId);
    // `timestamp` is the receive time: now-ish, not the publisher's two-hours-ago.
    EXPECT_GT(fromRfc3339(strField(list[i], "timestamp")), t0 + 3600 * kSec);
  }

  // The list item of the trace agrees with the summary.
  auto listed = p.keyed.get("/traces");
  ASSERT_STATUS(listed, 200);
  auto items = objects(listed.object()->getArray("data"));
  ASSERT_EQ(items.size(), 1u) << listed.body;
  EXPECT_EQ(strField(items[0], "traceId"), trace);
  EXPECT_EQ(strField(items[0], "startTime"), rfc3339(t0));
  EXPECT_EQ(strField(items[0], "endTime"), rfc3339(t0 + 3100 * kMs + 500));
  EXPECT_EQ(intField(items[0], "eventCount"), 9);
  EXPECT_EQ(intField(items[0], "errorCount"), 2);
  EXPECT_EQ(asSet(items[0]->getArray("agents")), (std::set<std::string>{"planner", "writer"}));
}

TEST_F(TraceSummaryApi, WithoutTimestampsEventsOrderByReceiveTime) {
  auto p = newPublisher("trecv");
  const auto trace = "recv-" + unique();
  std::vector<Poco::JSON::Object::Ptr> stored;
  for (const char* step : {"a", "b", "c"})
    stored.push_back(publishOne(p.keyed, p.channelId, trace, {step, "agent.message", "bot"}));
  auto idsOf = [&](const HttpResult& r) {
    std::vector<std::string> out;
    for (const auto& e : objects(r.array())) out.push_back(strField(e, "identifier"));
    return out;
  };
  auto events = p.keyed.get(tracePath(trace, "events"));
  ASSERT_STATUS(events, 200);
  EXPECT_EQ(idsOf(events), (std::vector<std::string>{"a", "b", "c"}));
  for (const auto& e : objects(events.array())) EXPECT_TRUE(e->isNull("occurredAt")) << toJson(e);

  const auto received = [&](std::size_t i) { return fromRfc3339(strField(stored[i], "timestamp")); };
  auto s = p.keyed.get(tracePath(trace, "summary")).object();
  EXPECT_EQ(strField(s, "startTime"), strField(stored[0], "timestamp"));
  EXPECT_EQ(strField(s, "endTime"), strField(stored[2], "timestamp"));
  EXPECT_DOUBLE_EQ(s->getValue<double>("duration"), static_cast<double>(received(2) - received(0)) / 1000.0);

  // A late event stamped an hour ago goes first and moves the start back.
  const auto anHourAgo = received(0) - 3600 * kSec;
  publishOne(p.keyed, p.channelId, trace, {"early", "agent.start", "bot", anHourAgo});
  EXPECT_EQ(idsOf(p.keyed.get(tracePath(trace, "events"))), (std::vector<std::string>{"early", "a", "b", "c"}));
  s = p.keyed.get(tracePath(trace, "summary")).object();
  EXPECT_EQ(strField(s, "startTime"), rfc3339(anHourAgo));
  EXPECT_EQ(strField(s, "endTime"), strField(stored[2], "timestamp"));
  EXPECT_DOUBLE_EQ(s->getValue<double>("duration"), static_cast<double>(received(2) - anHourAgo) / 1000.0);
  EXPECT_EQ(intField(s, "eventCount"), 4);
  EXPECT_EQ(strings(s->getArray("agents")), std::vector<std::string>{"bot"});
}

TEST_F(TraceSummaryApi, UnknownTraceIs404) {
  auto p = newPublisher("tunknown");
  publishOne(p.keyed, p.channelId, "known-" + unique(), {"x", "agent.start", "a"});
  for (const auto& id : {"no-such-trace-" + unique(), std::string("KNOWN"), std::string("%")}) {
    EXPECT_TRUE(IsProblem(p.keyed.get(tracePath(id, "events")), 404)) << id;
    EXPECT_TRUE(IsProblem(p.keyed.get(tracePath(id, "summary")), 404)) << id;
  }
  // A '%' that starts no escape is a malformed request target, not a trace id.
  EXPECT_TRUE(IsProblem(p.keyed.get("/traces/%zz/summary"), 400));
  EXPECT_TRUE(IsProblem(p.keyed.get("/traces/a%/events"), 400));
  // An event without a traceId makes no trace.
  publish(p.keyed, p.channelId, "untraced");
  EXPECT_EQ(intField(p.keyed.get("/traces").object()->getObject("meta"), "total"), 1);
}

TEST_F(TraceSummaryApi, TraceIdsAreMatchedExactlyWhateverTheirCharacters) {
  auto p = newPublisher("tchars");
  const auto suffix = unique();
  const std::vector<std::string> ids = {"4bf92f3577b34da6a3ce929d0e0e4736" + suffix,
                                        "run 42 \xC2\xB7 \xCE\xB1" + suffix, "a%b_c" + suffix, "a:b@c+d" + suffix,
                                        "svc/op" + suffix};
  for (std::size_t i = 0; i < ids.size(); ++i)
    for (std::size_t n = 0; n <= i; ++n)
      publishOne(p.keyed, p.channelId, ids[i], {"e" + std::to_string(n), "custom", "x"});
  for (std::size_t i = 0; i < ids.size(); ++i) {
    auto s = p.keyed.get(tracePath(ids[i], "summary"));
    ASSERT_STATUS(s, 200);
    EXPECT_EQ(strField(s.object(), "traceId"), ids[i]);
    EXPECT_EQ(intField(s.object(), "eventCount"), static_cast<std::int64_t>(i + 1));
    auto events = p.keyed.get(tracePath(ids[i], "events"));
    ASSERT_STATUS(events, 200);
    EXPECT_EQ(events.array()->size(), i + 1);
  }
  // LIKE wildcards in an id are not wildcards: "a_b_c…" is no trace.
  EXPECT_TRUE(IsProblem(p.keyed.get(tracePath("a_b_c" + suffix, "summary")), 404));
}

TEST_F(TraceSummaryApi, OneTraceIdInTwoOrganizationsNeverMixes) {
  auto a = newPublisher("tisoa");
  auto b = newPublisher("tisob");
  const auto shared = "shared-" + unique();
  const auto t0 = recentBase();
  publishBatch(a.keyed, a.channelId, shared,
               {{"a1", "agent.start", "agent-a", t0}, {"a2", "agent.end", "agent-a", t0 + 1000 * kMs}});
  publishBatch(b.keyed, b.channelId, shared,
               {{"b1", "agent.start", "agent-b", t0 + 10 * kSec},
                {"b2", "agent.error", "agent-b", t0 + 11 * kSec},
                {"b3", "agent.tool_call.start", "agent-b", t0 + 12 * kSec}});
  const auto onlyB = "only-b-" + unique();
  publishOne(b.keyed, b.channelId, onlyB, {"b-only", "agent.handoff", "agent-b", t0});

  struct Expected {
    const Publisher& who;
    std::int64_t events, errors, tools;
    std::string agent;
    std::int64_t start, end;
    double duration;
  };
  for (const auto& x : {Expected{a, 2, 0, 0, "agent-a", t0, t0 + 1000 * kMs, 1000.0},
                        Expected{b, 3, 1, 1, "agent-b", t0 + 10 * kSec, t0 + 12 * kSec, 2000.0}}) {
    SCOPED_TRACE("organization " + std::to_string(x.who.tenant.orgId));
    // The same answers with the API key and with the Bearer session.
    for (const auto& http : {x.who.keyed, x.who.tenant.http}) {
      auto s = http.get(tracePath(shared, "summary"));
      ASSERT_STATUS(s, 200);
      EXPECT_EQ(intField(s.object(), "eventCount"), x.events);
      EXPECT_EQ(intField(s.object(), "errorCount"), x.errors);
      EXPECT_EQ(intField(s.object(), "toolCallCount"), x.tools);
      EXPECT_EQ(intField(s.object(), "handoffCount"), 0);
      EXPECT_EQ(strings(s.object()->getArray("agents")), std::vector<std::string>{x.agent});
      EXPECT_EQ(strField(s.object(), "startTime"), rfc3339(x.start));
      EXPECT_EQ(strField(s.object(), "endTime"), rfc3339(x.end));
      EXPECT_DOUBLE_EQ(s.object()->getValue<double>("duration"), x.duration);
      auto events = http.get(tracePath(shared, "events"));
      ASSERT_STATUS(events, 200);
      ASSERT_EQ(events.array()->size(), static_cast<std::size_t>(x.events)) << events.body;
      for (const auto& e : objects(events.array())) {
        EXPECT_EQ(strField(e, "orgId"), std::to_string(x.who.tenant.orgId));
        EXPECT_EQ(strField(e, "agentId"), x.agent);
      }
    }
  }
  auto listA = a.keyed.get("/traces");
  ASSERT_STATUS(listA, 200);
  EXPECT_EQ(traceIdsOf(listA), std::vector<std::string>{shared});
  EXPECT_EQ(intField(objects(listA.object()->getArray("data"))[0], "eventCount"), 2);
  auto listB = b.keyed.get("/traces");
  EXPECT_EQ(traceIdsOf(listB), (std::vector<std::string>{shared, onlyB}));  // newest start first
  // The other organization's trace is a 404, with a key and with a session, never a leak.
  for (const auto& http : {a.keyed, a.tenant.http}) {
    EXPECT_TRUE(IsProblem(http.get(tracePath(onlyB, "summary")), 404));
    EXPECT_TRUE(IsProblem(http.get(tracePath(onlyB, "events")), 404));
  }
  // A key of one organization cannot pick the other with x-tenant-id.
  EXPECT_TRUE(
      IsProblem(a.keyed.get(tracePath(onlyB, "summary"), {{"x-tenant-id", std::to_string(b.tenant.orgId)}}), 403));
}

TEST_F(TraceSummaryApi, ConcurrentPublishersToOneTraceAreAllCounted) {
  auto p = newPublisher("tconc");
  const auto trace = "busy-" + unique();
  constexpr int kThreads = 6;
  constexpr int kSingles = 8;     // per thread, POST /event
  constexpr int kBatchSize = 20;  // per thread, one POST /events/batch
  std::vector<std::thread> threads;
  std::vector<std::string> failures(kThreads);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      try {
        const auto agent = "agent-" + std::to_string(t);
        for (int i = 0; i < kSingles; ++i)
          publishOne(p.keyed, p.channelId, trace,
                     {"s" + std::to_string(i), i % 2 ? "agent.tool_call.start" : "agent.message", agent});
        std::vector<TraceEventSpec> batch;
        for (int i = 0; i < kBatchSize; ++i)
          batch.push_back({"b" + std::to_string(i), i % 5 ? "agent.message" : "agent.error", agent});
        publishBatch(p.keyed, p.channelId, trace, batch);
      } catch (const std::exception& e) {
        failures[t] = e.what();
      }
    });
  for (auto& th : threads) th.join();
  for (const auto& f : failures) ASSERT_TRUE(f.empty()) << f;

  auto s = p.keyed.get(tracePath(trace, "summary"));
  ASSERT_STATUS(s, 200);
  EXPECT_EQ(intField(s.object(), "eventCount"), kThreads * (kSingles + kBatchSize));
  EXPECT_EQ(intField(s.object(), "toolCallCount"), kThreads * (kSingles / 2));
  EXPECT_EQ(intField(s.object(), "errorCount"), kThreads * (kBatchSize / 5));
  EXPECT_EQ(strings(s.object()->getArray("agents")).size(), static_cast<std::size_t>(kThreads));
  auto events = p.keyed.get(tracePath(trace, "events"));
  ASSERT_STATUS(events, 200);
  EXPECT_EQ(events.array()->size(), static_cast<std::size_t>(kThreads * (kSingles + kBatchSize)));
  // Receive order: each thread's events appear in the order it published them.
  std::map<std::string, std::vector<std::string>> perAgent;
  for (const auto& e : objects(events.array())) perAgent[strField(e, "agentId")].push_back(strField(e, "identifier"));
  for (const auto& [agent, steps] : perAgent) {
    ASSERT_EQ(steps.size(), static_cast<std::size_t>(kSingles + kBatchSize)) << agent;
    for (int i = 0; i < kSingles; ++i) EXPECT_EQ(steps[i], "s" + std::to_string(i)) << agent;
  }
}

TEST_F(TraceSummaryApi, DeletingTheChannelRemovesItsTraces) {
  auto p = newPublisher("tdel");
  const auto kept = "kept-" + unique();
  const auto gone = "gone-" + unique();
  const auto split = "split-" + unique();
  const auto other = createChannel(p.tenant, p.appId);
  const auto t0 = recentBase();
  publishBatch(p.keyed, p.channelId, gone, {{"g1", "agent.start", "a", t0}, {"g2", "agent.error", "a", t0 + kSec}});
  publishOne(p.keyed, other, kept, {"k1", "agent.start", "k", t0});
  // One trace across both channels: after the delete only the other channel's events count.
  publishBatch(p.keyed, p.channelId, split,
               {{"s1", "agent.start", "deleted", t0}, {"s2", "agent.tool_call.start", "deleted", t0 + 5 * kSec}});
  publishOne(p.keyed, other, split, {"s3", "agent.handoff", "kept", t0 + 2 * kSec});

  ASSERT_STATUS(p.tenant.http.del("/channel/" + std::to_string(p.channelId)), 204);
  EXPECT_TRUE(IsProblem(p.keyed.get(tracePath(gone, "summary")), 404));
  EXPECT_TRUE(IsProblem(p.keyed.get(tracePath(gone, "events")), 404));
  auto s = p.keyed.get(tracePath(split, "summary"));
  ASSERT_STATUS(s, 200);
  EXPECT_EQ(intField(s.object(), "eventCount"), 1);
  EXPECT_EQ(intField(s.object(), "toolCallCount"), 0);
  EXPECT_EQ(intField(s.object(), "handoffCount"), 1);
  EXPECT_EQ(strings(s.object()->getArray("agents")), std::vector<std::string>{"kept"});
  EXPECT_EQ(strField(s.object(), "startTime"), rfc3339(t0 + 2 * kSec));
  EXPECT_DOUBLE_EQ(s.object()->getValue<double>("duration"), 0.0);
  auto listed = p.keyed.get("/traces");
  std::vector<std::string> ids = traceIdsOf(listed);
  std::sort(ids.begin(), ids.end());
  std::vector<std::string> expected = {kept, split};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(ids, expected) << listed.body;

  // Deleting the app takes the rest.
  ASSERT_STATUS(p.tenant.http.del("/apps/" + std::to_string(p.appId)), 204);
  EXPECT_EQ(intField(p.keyed.get("/traces").object()->getObject("meta"), "total"), 0);
  EXPECT_TRUE(IsProblem(p.keyed.get(tracePath(split, "summary")), 404));
}

}  // namespace
}  // namespace aev::testing

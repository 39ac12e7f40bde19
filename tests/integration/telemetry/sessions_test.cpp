// Sessions and end users (docs/features.md#sessions-and-end-users), and what a trace item
// shows of its conversation (docs/api.md#traces): a session of three traces published out
// of order reads back oldest first with each trace's input and output; its totals and an
// end user's are the sums of their traces; the traces list filters by user and session;
// previews are one line; a trace's events carry the telemetry priced at ingest and its
// duration runs to the last event's end; another organization's sessions and users never
// appear; an unknown session is a 404 and an unknown query parameter a 422.
#include <Poco/InflatingStream.h>
#include <Poco/URI.h>
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <sstream>

#include "traces_support.h"

namespace aev::testing {
namespace {

struct Call {
  std::string trace;
  std::int64_t at = 0;
  std::string session, user, question, answer;
  double costUsd = 0;
  std::int64_t inputTokens = 0, outputTokens = 0;
  double durationMs = 0;
};

class SessionsApi : public TracesTest {
 protected:
  // One LLM call: its messages in the payload (payload.messages, as the demo and the
  // SDKs send them), its telemetry in the metadata.
  static Poco::JSON::Object::Ptr publishCall(const Publisher& p, const Call& c) {
    auto messages = obj({{"input", arr({obj({{"role", "system"}, {"content", "You are terse."}}),
                                        obj({{"role", "user"}, {"content", c.question}})})},
                         {"output", arr({obj({{"role", "assistant"}, {"content", c.answer}})})}});
    auto metadata = obj({{"model", "gpt-4o-mini"},
                         {"cost_usd", c.costUsd},
                         {"usage", obj({{"input_tokens", c.inputTokens}, {"output_tokens", c.outputTokens}})},
                         {"duration_ms", c.durationMs},
                         {"tags", obj({{"team", "support"}})}});
    if (!c.session.empty()) metadata->set("session", c.session);
    if (!c.user.empty()) metadata->set("user", c.user);
    auto extra = obj({{"traceId", c.trace},
                      {"eventType", "agent.message"},
                      {"agentId", "assistant"},
                      {"timestamp", rfc3339(c.at)},
                      {"metadata", metadata}});
    auto r = p.keyed.post("/event", eventBody(p.channelId, "llm-call", obj({{"messages", messages}}), extra));
    if (r.status != 201) throw std::runtime_error("publish failed: " + r.describe());
    return r.object();
  }
  static std::string q(const std::string& value) {
    std::string out;
    Poco::URI::encode(value, "+:&=?#/ ", out);
    return out;
  }
};

TEST_F(SessionsApi, SessionOfThreeTracesReplaysInOrderWithTotals) {
  auto p = newPublisher("sess");
  const auto u = unique();
  const auto session = "conv-" + u, other = "conv2-" + u;
  const auto alice = "alice-" + u, bob = "bob-" + u;
  const auto t0 = recentBase();
  const std::vector<Call> calls = {
      {"ta-" + u, t0, session, alice, "What is 2+2?", "4", 0.25, 100, 10, 1500},
      {"tb-" + u, t0 + 60 * kSec, session, alice, "And 3+3?", "6", 0.5, 200, 20, 500},
      {"tc-" + u, t0 + 120 * kSec, session, bob, "Thanks\nbye", "You're welcome.", 0.125, 50, 5, 2000},
      {"td-" + u, t0 + 30 * kSec, other, alice, "Another chat", "Sure", 1.0, 10, 1, 0},
  };
  for (auto i : {2, 0, 3, 1}) publishCall(p, calls[i]);  // out of order
  // An error in the second trace.
  publishOne(p.keyed, p.channelId, calls[1].trace, {"boom", "agent.error", "assistant", t0 + 61 * kSec, nullptr});

  auto r = p.keyed.get("/sessions/" + q(session));
  ASSERT_STATUS(r, 200);
  auto s = r.object();
  EXPECT_NE(strField(s, "$schema").find("/schemas/SessionDetail.json"), std::string::npos);
  EXPECT_EQ(strField(s, "sessionId"), session);
  EXPECT_EQ(intField(s, "traceCount"), 3);
  EXPECT_EQ(strField(s, "firstSeen"), rfc3339(t0));
  EXPECT_EQ(strField(s, "lastSeen"), rfc3339(t0 + 120 * kSec + 2000 * kMs));  // the last call's end
  EXPECT_DOUBLE_EQ(s->getValue<double>("durationMs"), 122000.0);
  EXPECT_DOUBLE_EQ(s->getValue<double>("costUsd"), 0.875);
  EXPECT_EQ(intField(s, "inputTokens"), 350);
  EXPECT_EQ(intField(s, "outputTokens"), 35);
  EXPECT_EQ(intField(s, "totalTokens"), 385);
  EXPECT_EQ(intField(s, "errorCount"), 1);
  EXPECT_EQ(strings(s->getArray("userIds")), (std::vector<std::string>{alice, bob}));
  EXPECT_EQ(intField(s, "userCount"), 2);
  auto traces = objects(s->getArray("traces"));
  ASSERT_EQ(traces.size(), 3u) << r.body;
  for (std::size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(calls[i].trace);
    EXPECT_EQ(strField(traces[i], "traceId"), calls[i].trace);
    EXPECT_EQ(strField(traces[i], "input"), calls[i].question);  // the last user message, not folded
    EXPECT_EQ(strField(traces[i], "output"), calls[i].answer);
    EXPECT_EQ(strField(traces[i], "sessionId"), session);
  }
  EXPECT_EQ(strField(traces[2], "inputPreview"), "Thanks bye");  // one line

  // The list: both sessions, newest activity first; filtered by user; sorted by cost.
  auto list = p.keyed.get("/sessions");
  ASSERT_STATUS(list, 200);
  auto items = objects(list.object()->getArray("data"));
  ASSERT_EQ(items.size(), 2u) << list.body;
  EXPECT_EQ(strField(items[0], "sessionId"), session);
  EXPECT_EQ(strField(items[1], "sessionId"), other);
  EXPECT_EQ(intField(list.object()->getObject("meta"), "total"), 2);
  EXPECT_FALSE(items[0]->has("traces"));
  auto byCost = p.keyed.get("/sessions?sort=cost&order=desc");
  ASSERT_STATUS(byCost, 200);
  EXPECT_EQ(strField(objects(byCost.object()->getArray("data"))[0], "sessionId"), other);
  auto bobs = p.keyed.get("/sessions?user=" + q(bob));
  ASSERT_STATUS(bobs, 200);
  auto bobItems = objects(bobs.object()->getArray("data"));
  ASSERT_EQ(bobItems.size(), 1u) << bobs.body;
  EXPECT_EQ(strField(bobItems[0], "sessionId"), session);
  EXPECT_EQ(intField(bobItems[0], "traceCount"), 1);  // the filter counts bob's traces only

  // The traces list by session and by user, with previews, tags and durations.
  auto bySession = p.keyed.get("/traces?session=" + q(session) + "&sort=start&order=asc");
  ASSERT_STATUS(bySession, 200);
  EXPECT_EQ(traceIdsOf(bySession), (std::vector<std::string>{calls[0].trace, calls[1].trace, calls[2].trace}));
  auto first = objects(bySession.object()->getArray("data"))[0];
  EXPECT_EQ(strField(first, "inputPreview"), "What is 2+2?");
  EXPECT_EQ(strField(first, "outputPreview"), "4");
  EXPECT_EQ(strField(first, "userId"), alice);
  EXPECT_EQ(first->getObject("tags")->getValue<std::string>("team"), "support");
  EXPECT_DOUBLE_EQ(first->getValue<double>("durationMs"), 1500.0);
  auto byUser = p.keyed.get("/traces?user=" + q(alice));
  ASSERT_STATUS(byUser, 200);
  auto aliceIds = traceIdsOf(byUser);
  EXPECT_EQ(std::set<std::string>(aliceIds.begin(), aliceIds.end()),
            (std::set<std::string>{calls[0].trace, calls[1].trace, calls[3].trace}));
}

TEST_F(SessionsApi, EndUserTotalsAreTheSumsOfTheirTraces) {
  auto p = newPublisher("endu");
  const auto u = unique();
  const auto carol = "carol-" + u, dave = "dave-" + u;
  const auto t0 = recentBase();
  const std::vector<Call> calls = {
      {"e1-" + u, t0, "s1-" + u, carol, "a", "b", 0.375, 30, 3, 100},
      {"e2-" + u, t0 + kSec, "s2-" + u, carol, "c", "d", 0.0625, 7, 70, 100},
      {"e3-" + u, t0 + 2 * kSec, "", carol, "e", "f", 0.5, 1, 1, 100},
      {"e4-" + u, t0 + 3 * kSec, "s1-" + u, dave, "g", "h", 2.0, 5, 5, 100},
  };
  for (const auto& c : calls) publishCall(p, c);

  auto r = p.keyed.get("/end-users?search=" + q("carol-"));
  ASSERT_STATUS(r, 200);
  auto body = r.object();
  EXPECT_NE(strField(body, "$schema").find("/schemas/EndUserList.json"), std::string::npos);
  auto users = objects(body->getArray("data"));
  ASSERT_EQ(users.size(), 1u) << r.body;
  auto carolRow = users[0];
  EXPECT_EQ(strField(carolRow, "userId"), carol);

  auto traces = p.keyed.get("/traces?user=" + q(carol) + "&limit=100");
  ASSERT_STATUS(traces, 200);
  double cost = 0;
  std::int64_t in = 0, out = 0, errors = 0;
  auto items = objects(traces.object()->getArray("data"));
  for (const auto& t : items) {
    cost += t->getValue<double>("costUsd");
    in += intField(t, "inputTokens");
    out += intField(t, "outputTokens");
    errors += intField(t, "errorCount");
  }
  EXPECT_EQ(intField(carolRow, "traceCount"), static_cast<std::int64_t>(items.size()));
  EXPECT_EQ(intField(carolRow, "traceCount"), 3);
  EXPECT_EQ(intField(carolRow, "sessionCount"), 2);
  EXPECT_DOUBLE_EQ(carolRow->getValue<double>("costUsd"), cost);
  EXPECT_DOUBLE_EQ(cost, 0.9375);
  EXPECT_EQ(intField(carolRow, "inputTokens"), in);
  EXPECT_EQ(intField(carolRow, "outputTokens"), out);
  EXPECT_EQ(intField(carolRow, "totalTokens"), in + out);
  EXPECT_EQ(intField(carolRow, "errorCount"), errors);
  EXPECT_EQ(strField(carolRow, "firstSeen"), rfc3339(t0));
  EXPECT_EQ(strField(carolRow, "lastSeen"), rfc3339(t0 + 2 * kSec + 100 * kMs));

  auto all = p.keyed.get("/end-users?sort=cost");
  ASSERT_STATUS(all, 200);
  auto allUsers = objects(all.object()->getArray("data"));
  ASSERT_EQ(allUsers.size(), 2u) << all.body;
  EXPECT_EQ(strField(allUsers[0], "userId"), dave);
  EXPECT_EQ(intField(all.object()->getObject("meta"), "total"), 2);
}

TEST_F(SessionsApi, AnotherOrganizationsSessionsAndUsersNeverAppear) {
  auto mine = newPublisher("siso1");
  auto theirs = newPublisher("siso2");
  const auto u = unique();
  const auto shared = "shared-" + u, theirsOnly = "theirs-" + u;
  const auto t0 = recentBase();
  publishCall(mine, {"m1-" + u, t0, shared, "me-" + u, "mine", "ok", 0.25, 1, 1, 0});
  publishCall(theirs, {"x1-" + u, t0, shared, "them-" + u, "secret question", "secret", 4.0, 9, 9, 0});
  publishCall(theirs, {"x2-" + u, t0, theirsOnly, "me-" + u, "theirs", "ok", 8.0, 9, 9, 0});

  auto s = mine.keyed.get("/sessions/" + q(shared));
  ASSERT_STATUS(s, 200);
  EXPECT_EQ(intField(s.object(), "traceCount"), 1);
  EXPECT_DOUBLE_EQ(s.object()->getValue<double>("costUsd"), 0.25);
  EXPECT_EQ(strings(s.object()->getArray("userIds")), (std::vector<std::string>{"me-" + u}));
  EXPECT_EQ(s.body.find("secret"), std::string::npos);
  EXPECT_TRUE(IsProblem(mine.keyed.get("/sessions/" + q(theirsOnly)), 404));

  auto list = mine.keyed.get("/sessions");
  ASSERT_STATUS(list, 200);
  auto sessions = objects(list.object()->getArray("data"));
  ASSERT_EQ(sessions.size(), 1u) << list.body;
  EXPECT_EQ(strField(sessions[0], "sessionId"), shared);

  auto users = mine.keyed.get("/end-users");
  ASSERT_STATUS(users, 200);
  auto rows = objects(users.object()->getArray("data"));
  ASSERT_EQ(rows.size(), 1u) << users.body;
  EXPECT_EQ(strField(rows[0], "userId"), "me-" + u);
  EXPECT_EQ(intField(rows[0], "traceCount"), 1);  // their trace of the same user id is theirs
  EXPECT_DOUBLE_EQ(rows[0]->getValue<double>("costUsd"), 0.25);
}

// The filters /traces answers from the trace facets (model, tag) on the sessions and
// end-users lists too: a session or end user counts when one of its traces has an event
// with the value, and its totals are those of its matching traces.
TEST_F(SessionsApi, SessionsAndEndUsersFilterByModelAndTagAsTracesDo) {
  auto p = newPublisher("sfacet");
  const auto u = unique();
  const auto t0 = recentBase();
  const auto s1 = "s1-" + u, s2 = "s2-" + u, alice = "alice-" + u, bob = "bob-" + u;
  publishCall(p, {"a-" + u, t0, s1, alice, "q1", "a1", 0.25, 1, 1, 10});
  publishCall(p, {"b-" + u, t0 + kSec, s2, bob, "q2", "a2", 0.5, 2, 2, 10});
  publishCall(p, {"c-" + u, t0 + 2 * kSec, s1, alice, "q3", "a3", 1.0, 4, 4, 10});
  // Trace b also calls another model, with another team tag.
  auto extra =
      obj({{"traceId", "b-" + u},
           {"eventType", "agent.message"},
           {"timestamp", rfc3339(t0 + kSec + 5 * kMs)},
           {"metadata",
            obj({{"model", "claude-" + u}, {"session", s2}, {"user", bob}, {"tags", obj({{"team", "ads-" + u}})}})}});
  ASSERT_STATUS(p.keyed.post("/event", eventBody(p.channelId, "llm-call-2", obj({{"n", 1}}), extra)), 201);

  const auto ids = [&](const std::string& path, const char* key) {
    auto r = p.keyed.get(path);
    if (r.status != 200) return std::vector<std::string>{"status " + std::to_string(r.status)};
    std::vector<std::string> out;
    for (const auto& row : objects(r.object()->getArray("data"))) out.push_back(strField(row, key));
    out.push_back("total " + std::to_string(intField(r.object()->getObject("meta"), "total")));
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(ids("/sessions?model=" + q("claude-" + u), "sessionId"), (V{s2, "total 1"}));
  EXPECT_EQ(ids("/sessions?model=gpt-4o-mini", "sessionId"), (V{s1, s2, "total 2"}));
  EXPECT_EQ(ids("/sessions?filterTagKey=team&filterTagValue=" + q("ads-" + u), "sessionId"), (V{s2, "total 1"}));
  EXPECT_EQ(ids("/sessions?filterTagKey=team&filterTagValue=support", "sessionId"), (V{s1, s2, "total 2"}));
  EXPECT_EQ(ids("/sessions?model=gpt-4o-mini&filterTagKey=team&filterTagValue=" + q("ads-" + u), "sessionId"),
            (V{s2, "total 1"}));
  EXPECT_EQ(ids("/sessions?model=none-" + u, "sessionId"), (V{"total 0"}));
  EXPECT_EQ(ids("/end-users?model=" + q("claude-" + u), "userId"), (V{bob, "total 1"}));
  EXPECT_EQ(ids("/end-users?filterTagKey=team&filterTagValue=support", "userId"), (V{alice, bob, "total 2"}));
  EXPECT_EQ(ids("/traces?model=" + q("claude-" + u), "traceId"), (V{"b-" + u, "total 1"}));
  // A session's totals are those of its matching traces: session s1 has two, both of gpt-4o-mini.
  auto sessions = p.keyed.get("/sessions?filterTagKey=team&filterTagValue=support&sort=first&order=asc");
  ASSERT_STATUS(sessions, 200);
  auto rows = objects(sessions.object()->getArray("data"));
  ASSERT_EQ(rows.size(), 2u) << sessions.body;
  EXPECT_EQ(intField(rows[0], "traceCount"), 2);
  EXPECT_DOUBLE_EQ(rows[0]->getValue<double>("costUsd"), 1.25);
  // A tag filter is a key and a value.
  EXPECT_EQ(errorLocations(p.keyed.get("/sessions?filterTagKey=team")), (V{"query.filterTagValue"}));
  EXPECT_EQ(errorLocations(p.keyed.get("/end-users?filterTagValue=ads")), (V{"query.filterTagKey"}));
}

TEST_F(SessionsApi, UnknownSessionsAndBadQueriesAreProblems) {
  auto p = newPublisher("sbad");
  EXPECT_TRUE(IsProblem(p.keyed.get("/sessions/nope-" + unique()), 404));
  for (const char* path :
       {"/sessions?colour=red", "/end-users?colour=red", "/sessions?sort=name", "/end-users?sort=first",
        "/sessions?order=up", "/sessions?limit=101", "/end-users?page=0", "/sessions?since=yesterday"}) {
    SCOPED_TRACE(path);
    EXPECT_TRUE(IsProblem(p.keyed.get(path), 422));
  }
  EXPECT_EQ(errorLocations(p.keyed.get("/sessions?sort=name")), (std::vector<std::string>{"query.sort"}));
  // Who may read: a key without `read` may not.
  auto publishOnly = createKey(p.tenant, {"publish"});
  for (const char* path : {"/sessions", "/end-users"}) {
    EXPECT_EQ(anon().withApiKey(publishOnly.key).get(path).status, 403) << path;
    EXPECT_EQ(anon().get(path).status, 401) << path;
    EXPECT_EQ(p.tenant.http.get(path).status, 200) << path;  // any member, by Bearer
  }
}

TEST_F(SessionsApi, TraceEventsCarryTheirTelemetryAndTheSummaryAgreesWithTheList) {
  auto p = newPublisher("stel");
  const auto u = unique();
  const auto t0 = recentBase();
  const auto trace = "tt-" + u;
  publishCall(p, {trace, t0, "", "", "q1", "a1", 0.25, 10, 2, 4000});
  publishCall(p, {trace, t0 + 1000 * kMs, "", "", "q2", "a2", 0.125, 20, 4, 500});
  // The fallback: a payload's prompt and completion strings.
  const auto other = "tp-" + u;
  publish(p.keyed, p.channelId, "plain", obj({{"prompt", "Say\n\nhi"}, {"completion", "hi there"}}),
          obj({{"traceId", other}, {"eventType", "agent.message"}}));

  auto events = p.keyed.get(tracePath(trace, "events"));
  ASSERT_STATUS(events, 200);
  auto list = objects(events.array());
  ASSERT_EQ(list.size(), 2u);
  double cost = 0;
  for (const auto& e : list) {
    auto t = e->getObject("telemetry");
    ASSERT_TRUE(t) << events.body;
    EXPECT_EQ(t->getValue<std::string>("model"), "gpt-4o-mini");
    EXPECT_TRUE(t->isNull("tool"));
    cost += t->getValue<double>("costUsd");
  }
  EXPECT_EQ(list[0]->getObject("telemetry")->getValue<std::int64_t>("inputTokens"), 10);
  EXPECT_DOUBLE_EQ(list[0]->getObject("telemetry")->getValue<double>("durationMs"), 4000.0);

  auto summary = p.keyed.get(tracePath(trace, "summary"));
  ASSERT_STATUS(summary, 200);
  auto s = summary.object();
  EXPECT_DOUBLE_EQ(s->getValue<double>("costUsd"), cost);
  // First start to last end: the first call (4 s) ends after the second (1 s + 0.5 s).
  EXPECT_EQ(strField(s, "endTime"), rfc3339(t0 + 4000 * kMs));
  EXPECT_DOUBLE_EQ(s->getValue<double>("durationMs"), 4000.0);
  EXPECT_DOUBLE_EQ(s->getValue<double>("duration"), 4000.0);
  EXPECT_EQ(strField(s, "inputPreview"), "q1");   // the first call's input
  EXPECT_EQ(strField(s, "outputPreview"), "a2");  // the last call's output
  auto listed = p.keyed.get("/traces?limit=100");
  ASSERT_STATUS(listed, 200);
  bool seen = false;
  for (const auto& item : objects(listed.object()->getArray("data"))) {
    if (strField(item, "traceId") == trace) {
      seen = true;
      EXPECT_DOUBLE_EQ(item->getValue<double>("durationMs"), 4000.0);
      EXPECT_EQ(strField(item, "endTime"), strField(s, "endTime"));
    } else if (strField(item, "traceId") == other) {
      EXPECT_EQ(strField(item, "inputPreview"), "Say hi");
      EXPECT_EQ(strField(item, "outputPreview"), "hi there");
      EXPECT_EQ(item->getObject("tags")->size(), 0u);
    }
  }
  EXPECT_TRUE(seen) << listed.body;
}

// Decisions §10: JSON answers of 1 KiB or more are gzip-compressed when Accept-Encoding
// allows it, with Vary: Accept-Encoding; never without it, never a small answer, never a
// stream.
TEST_F(SessionsApi, LargeAnswersAreGzippedWhenTheClientAcceptsIt) {
  auto p = newPublisher("gzip");
  const auto u = unique();
  for (int i = 0; i < 12; ++i)
    publishCall(p, {"gz" + std::to_string(i) + "-" + u, recentBase() + i * kSec, "gz-" + u, "user-" + u,
                    "question " + std::to_string(i), "answer", 0.25, 1, 1, 0});
  const auto path = "/traces?limit=100&sort=start&order=asc";
  auto plain = p.keyed.get(path);
  ASSERT_STATUS(plain, 200);
  ASSERT_GE(plain.body.size(), 1024u);
  EXPECT_EQ(plain.header("Content-Encoding"), "");
  EXPECT_EQ(plain.header("Vary"), "Accept-Encoding");

  auto packed = p.keyed.get(path, {{"Accept-Encoding", "gzip, deflate, br"}});
  ASSERT_STATUS(packed, 200);
  EXPECT_EQ(packed.header("Content-Encoding"), "gzip");
  EXPECT_EQ(packed.header("Vary"), "Accept-Encoding");
  EXPECT_EQ(packed.header("Content-Length"), std::to_string(packed.body.size()));
  EXPECT_LT(packed.body.size(), plain.body.size());
  std::istringstream in(packed.body);
  Poco::InflatingInputStream inflater(in, Poco::InflatingStreamBuf::STREAM_GZIP);
  std::ostringstream out;
  out << inflater.rdbuf();
  EXPECT_EQ(out.str(), plain.body);

  // Refused by q=0; a small answer; a problem under 1 KiB; the event stream.
  EXPECT_EQ(p.keyed.get(path, {{"Accept-Encoding", "gzip;q=0, identity"}}).header("Content-Encoding"), "");
  auto small = p.keyed.get("/sessions/" + q("gz-" + u) + "x", {{"Accept-Encoding", "gzip"}});
  EXPECT_TRUE(IsProblem(small, 404));
  EXPECT_EQ(small.header("Content-Encoding"), "");
  const auto subscriber = createKey(p.tenant, {"subscribe"});
  auto stream = subscribe(subscribePath(p.channelId), {{"X-API-Key", subscriber.key}, {"Accept-Encoding", "gzip"}});
  ASSERT_TRUE(IsStreamOpen(*stream)) << stream->describe();
  EXPECT_EQ(stream->response().header("Content-Encoding"), "");
  // The contract document, the console's biggest download before (issue 27).
  auto doc = anon().get("/openapi.json", {{"Accept-Encoding", "gzip"}});
  ASSERT_STATUS(doc, 200);
  EXPECT_EQ(doc.header("Content-Encoding"), "gzip");
}

}  // namespace
}  // namespace aev::testing

// Publishing and listing events (docs/api.md: errors, pagination, streaming and resume):
// the stored event, every validation 4xx of POST /event and of the batch (one result
// per event, in order), scopes, pagination with meta, and the monthly quota (429).
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "events_support.h"
#include "support/backend.h"
#include "support/batch_results.h"

namespace aev::testing {
namespace {

const std::regex kMicrosUtc(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)");

// Canonical text of a JSON value (Poco's default parser sorts object keys).
std::string canonical(const Poco::Dynamic::Var& v) { return toJson(parseJson(toJson(v))); }

class PublishApi : public EventsTest {};

TEST_F(PublishApi, PublishAnswersTheStoredEvent) {
  auto t = newTenant("pub");
  const auto app = createApp(t);
  const auto ch = createChannel(t, app);
  auto payload = obj({{"text", "hello"}, {"n", 42}, {"nested", obj({{"list", arr({1, "two", true})}})}});
  auto extra = obj({{"agentId", "agent-7"},
                    {"eventType", "agent.tool_call.start"},
                    {"traceId", "trace-1"},
                    {"spanId", "span-2"},
                    {"parentSpanId", "span-1"},
                    {"metadata", obj({{"tool", "search"}})},
                    {"timestamp", "2024-05-01T12:34:56.789+02:00"}});
  auto r = t.http.post("/event", eventBody(ch, "tool.called", payload, extra));
  ASSERT_STATUS(r, 201);
  auto e = r.object();
  const auto id = intField(e, "id");
  EXPECT_GT(id, 0);
  EXPECT_EQ(strField(e, "identifier"), "tool.called");
  EXPECT_EQ(canonical(e->get("payload")), canonical(payload));
  EXPECT_EQ(intField(e, "channel_id"), ch);
  EXPECT_EQ(strField(e, "channelId"), std::to_string(ch));
  EXPECT_EQ(strField(e, "appId"), std::to_string(app));
  EXPECT_EQ(strField(e, "orgId"), std::to_string(t.orgId));
  EXPECT_EQ(strField(e, "agentId"), "agent-7");
  EXPECT_EQ(strField(e, "eventType"), "agent.tool_call.start");
  EXPECT_EQ(strField(e, "traceId"), "trace-1");
  EXPECT_EQ(strField(e, "spanId"), "span-2");
  EXPECT_EQ(strField(e, "parentSpanId"), "span-1");
  EXPECT_EQ(canonical(e->get("metadata")), canonical(obj({{"tool", "search"}})));
  // timestamp: the server's receive time, µs, UTC; the publisher's own time is occurredAt.
  EXPECT_TRUE(std::regex_match(strField(e, "timestamp"), kMicrosUtc)) << r.body;
  EXPECT_NE(strField(e, "timestamp").rfind("2024-05-01", 0), 0u) << r.body;
  EXPECT_EQ(strField(e, "occurredAt"), "2024-05-01T10:34:56.789000Z");

  // The list answers the very same record.
  auto list = t.http.get("/event/" + std::to_string(ch) + "/list");
  ASSERT_STATUS(list, 200);
  auto data = objects(list.object()->getArray("data"));
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(canonical(data[0]), canonical(e));
}

TEST_F(PublishApi, OptionalFieldsAreNullWhenNotSent) {
  auto t = newTenant("pubmin");
  const auto ch = newChannel(t);
  auto e = publish(t.http, ch, "minimal", obj({}));
  for (const char* k : {"agentId", "eventType", "traceId", "spanId", "parentSpanId", "metadata", "occurredAt"}) {
    ASSERT_TRUE(e->has(k)) << k << " missing in " << toJson(e);
    EXPECT_TRUE(e->isNull(k)) << k << " in " << toJson(e);
  }
  EXPECT_EQ(toJson(e->get("payload")), "{}");
  EXPECT_TRUE(std::regex_match(strField(e, "timestamp"), kMicrosUtc));
}

TEST_F(PublishApi, ChannelIdAsDecimalStringOrCamelCase) {
  auto t = newTenant("pubid");
  const auto ch = newChannel(t);
  auto asString = t.http.post("/event", obj({{"identifier", "s"}, {"payload", obj({})}, {"channel_id", std::to_string(ch)}}));
  ASSERT_STATUS(asString, 201);
  EXPECT_EQ(intField(asString.object(), "channel_id"), ch);
  auto camel = t.http.post("/event", obj({{"identifier", "c"}, {"payload", obj({})}, {"channelId", std::to_string(ch)}}));
  ASSERT_STATUS(camel, 201);
  EXPECT_EQ(intField(camel.object(), "channel_id"), ch);
  auto camelInt = t.http.post("/event", obj({{"identifier", "c"}, {"payload", obj({})}, {"channelId", ch}}));
  ASSERT_STATUS(camelInt, 201);
  EXPECT_EQ(listTotal(t.http, ch), 3);
}

TEST_F(PublishApi, EveryEventTypeIsAccepted) {
  auto t = newTenant("pubtypes");
  const auto ch = newChannel(t);
  for (const char* type : {"agent.start", "agent.end", "agent.message", "agent.tool_call.start", "agent.tool_call.end",
                           "agent.error", "agent.handoff", "agent.llm.token", "custom"}) {
    auto r = t.http.post("/event", eventBody(ch, "typed", nullptr, obj({{"eventType", type}})));
    ASSERT_STATUS(r, 201);
    EXPECT_EQ(strField(r.object(), "eventType"), type);
  }
  EXPECT_EQ(listTotal(t.http, ch), 9);
}

TEST_F(PublishApi, IdentifierAndShortStringsHaveLimits) {
  auto t = newTenant("publen");
  const auto ch = newChannel(t);
  const std::string long256(256, 'i');
  EXPECT_STATUS(t.http.post("/event", eventBody(ch, long256)), 201);
  EXPECT_STATUS(t.http.post("/event", eventBody(ch, "x", nullptr, obj({{"agentId", std::string(256, 'a')}}))), 201);
  // 256 two-byte characters are 256 characters.
  std::string wide;
  for (int i = 0; i < 256; ++i) wide += "\xC3\xBC";
  EXPECT_STATUS(t.http.post("/event", eventBody(ch, wide)), 201);
  EXPECT_EQ(listTotal(t.http, ch), 3);
}

struct InvalidCase {
  std::string name;
  std::function<Poco::JSON::Object::Ptr(std::int64_t)> body;
  std::string location;
};

TEST_F(PublishApi, EveryInvalidFieldIs422AndNothingIsStored) {
  auto t = newTenant("pubval");
  const auto ch = newChannel(t);
  auto with = [](const char* key, Poco::Dynamic::Var value) {
    return [key, value](std::int64_t c) {
      auto b = obj({{"identifier", "ok"}, {"payload", obj({})}, {"channel_id", c}});
      b->set(key, value);
      return b;
    };
  };
  auto without = [](const char* key) {
    return [key](std::int64_t c) {
      auto b = obj({{"identifier", "ok"}, {"payload", obj({})}, {"channel_id", c}});
      b->remove(key);
      return b;
    };
  };
  const std::vector<InvalidCase> cases = {
      {"identifier missing", without("identifier"), "body.identifier"},
      {"identifier empty", with("identifier", ""), "body.identifier"},
      {"identifier 257 characters", with("identifier", std::string(257, 'i')), "body.identifier"},
      {"identifier not a string", with("identifier", 5), "body.identifier"},
      {"identifier null", with("identifier", Poco::Dynamic::Var()), "body.identifier"},
      {"payload missing", without("payload"), "body.payload"},
      {"payload an array", with("payload", arr({1, 2})), "body.payload"},
      {"payload a string", with("payload", "text"), "body.payload"},
      {"payload a number", with("payload", 3), "body.payload"},
      {"payload null", with("payload", Poco::Dynamic::Var()), "body.payload"},
      {"channel_id missing", without("channel_id"), "body.channel_id"},
      {"channel_id not decimal", with("channel_id", "abc"), "body.channel_id"},
      {"channel_id a fraction", with("channel_id", 1.5), "body.channel_id"},
      {"channel_id an object", with("channel_id", obj({})), "body.channel_id"},
      {"eventType unknown", with("eventType", "agent.unknown"), "body.eventType"},
      {"eventType wrong case", with("eventType", "Agent.Start"), "body.eventType"},
      {"eventType not a string", with("eventType", 3), "body.eventType"},
      {"metadata an array", with("metadata", arr({"tool"})), "body.metadata"},
      {"metadata a string", with("metadata", "tool"), "body.metadata"},
      {"timestamp not RFC 3339", with("timestamp", "yesterday"), "body.timestamp"},
      {"timestamp a date only", with("timestamp", "2024-05-01"), "body.timestamp"},
      {"timestamp a number", with("timestamp", 1714559696), "body.timestamp"},
      {"agentId not a string", with("agentId", 7), "body.agentId"},
      {"agentId 257 characters", with("agentId", std::string(257, 'a')), "body.agentId"},
      {"traceId not a string", with("traceId", obj({})), "body.traceId"},
      {"spanId not a string", with("spanId", true), "body.spanId"},
      {"parentSpanId not a string", with("parentSpanId", arr({})), "body.parentSpanId"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto r = t.http.post("/event", c.body(ch));
    EXPECT_TRUE(IsProblem(r, 422));
    auto locations = errorLocations(r);
    EXPECT_NE(std::find(locations.begin(), locations.end(), c.location), locations.end()) << r.body;
  }
  // Several problems at once are all named.
  auto many = t.http.post("/event", obj({{"eventType", "nope"}}));
  ASSERT_TRUE(IsProblem(many, 422));
  auto locations = errorLocations(many);
  for (const char* loc : {"body.identifier", "body.payload", "body.channel_id", "body.eventType"})
    EXPECT_NE(std::find(locations.begin(), locations.end(), loc), locations.end()) << loc << ": " << many.body;
  // Not JSON, not an object, wrong media type, no body.
  EXPECT_TRUE(IsProblem(t.http.post("/event", "{\"identifier\": "), 400));
  EXPECT_TRUE(IsProblem(t.http.post("/event", "[]"), 400));
  EXPECT_TRUE(IsProblem(t.http.post("/event", ""), 400));
  EXPECT_TRUE(IsProblem(t.http.post("/event", "identifier=x", {{"Content-Type", "text/plain"}}), 415));
  // A channel that does not exist.
  EXPECT_TRUE(IsProblem(t.http.post("/event", eventBody(999999999, "lost")), 404));
  EXPECT_EQ(listTotal(t.http, ch), 0) << "a refused publish stored an event";
}

TEST_F(PublishApi, CredentialsAndScopes) {
  auto t = newTenant("pubauth");
  const auto ch = newChannel(t);
  auto body = eventBody(ch, "scoped");
  auto anonymous = anon().post("/event", body);
  EXPECT_TRUE(IsProblem(anonymous, 401));
  EXPECT_TRUE(IsProblem(anon().withBearer("not.a.jwt").post("/event", body), 401));
  EXPECT_TRUE(IsProblem(anon().withApiKey("aes_" + std::string(43, 'x')).post("/event", body), 401));

  auto publishKey = createKey(t, {"publish"});
  auto readKey = createKey(t, {"read"});
  auto subscribeKey = createKey(t, {"subscribe"});
  EXPECT_TRUE(IsProblem(anon().withApiKey(readKey.key).post("/event", body), 403));
  EXPECT_TRUE(IsProblem(anon().withApiKey(subscribeKey.key).post("/event", body), 403));
  EXPECT_TRUE(IsProblem(anon().withApiKey(subscribeKey.key).post("/events/batch", obj({{"events", arr({body})}})), 403));

  auto keyed = anon().withApiKey(publishKey.key);
  auto r = keyed.post("/event", body);
  ASSERT_STATUS(r, 201);
  EXPECT_EQ(strField(r.object(), "orgId"), std::to_string(t.orgId));
  // x-tenant-id with a key must be the key's organization.
  auto other = newTenant("pubauth-other");
  EXPECT_TRUE(IsProblem(keyed.post("/event", body, {{"x-tenant-id", std::to_string(other.orgId)}}), 403));
  EXPECT_STATUS(keyed.post("/event", body, {{"x-tenant-id", std::to_string(t.orgId)}}), 201);
  // Revoked: the very next publish is refused.
  ASSERT_STATUS(t.user.http.del("/api-keys/" + std::to_string(publishKey.id)), 204);
  EXPECT_TRUE(IsProblem(keyed.post("/event", body), 401));
  EXPECT_EQ(listTotal(t.http, ch), 2);
}

TEST_F(PublishApi, BatchAnswersOneResultPerEventInOrder) {
  auto t = newTenant("batch");
  const auto ch = newChannel(t);
  auto events = arr({eventBody(ch, "first"),
                     obj({{"payload", obj({})}, {"channel_id", ch}}),  // no identifier
                     eventBody(ch, "third", obj({{"k", "v"}}), obj({{"eventType", "agent.message"}})),
                     eventBody(999999999, "lost"),  // no such channel
                     eventBody(ch, "bad type", nullptr, obj({{"eventType", "agent.bogus"}})),
                     Poco::Dynamic::Var(5),  // not an object
                     eventBody(ch, "seventh", obj({{"i", 7}}))});
  auto r = t.http.post("/events/batch", obj({{"events", events}}));
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  auto results = objects(o->getArray("results"));
  ASSERT_EQ(results.size(), 7u) << r.body;
  const std::vector<int> expected = {201, 422, 201, 404, 422, 422, 201};
  for (std::size_t i = 0; i < results.size(); ++i) {
    SCOPED_TRACE("result " + std::to_string(i));
    // The stored event itself, or the problem itself (with its status): nothing wrapped.
    EXPECT_EQ(batchStatus(results[i]), expected[i]) << toJson(results[i]);
    if (expected[i] == 201) {
      const auto& e = results[i];
      EXPECT_EQ(intField(e, "channel_id"), ch);
      EXPECT_GT(intField(e, "id"), 0);
      EXPECT_FALSE(e->has("status"));
      EXPECT_FALSE(e->has("event"));
    } else {
      const auto& p = results[i];
      EXPECT_EQ(strField(p, "type").rfind("https://agent-events.dev/problems/", 0), 0u) << toJson(p);
      EXPECT_FALSE(strField(p, "title").empty());
      EXPECT_EQ(intField(p, "status"), expected[i]);
      EXPECT_FALSE(strField(p, "detail").empty());
      EXPECT_EQ(strField(p, "instance"), "/events/batch");
      EXPECT_FALSE(p->has("problem"));
    }
  }
  auto locationOf = [&](std::size_t i) {
    auto errors = results[i]->getArray("errors");
    return errors && errors->size() ? errors->getObject(0)->getValue<std::string>("location") : std::string("(none)");
  };
  EXPECT_EQ(locationOf(1), "body.events[1].identifier");
  EXPECT_EQ(locationOf(4), "body.events[4].eventType");
  EXPECT_EQ(locationOf(5), "body.events[5]");
  EXPECT_EQ(strField(results[0], "identifier"), "first");
  EXPECT_EQ(strField(results[2], "identifier"), "third");
  EXPECT_EQ(strField(results[2], "eventType"), "agent.message");
  EXPECT_EQ(strField(results[6], "identifier"), "seventh");
  EXPECT_EQ(intField(o, "stored"), 3);
  EXPECT_EQ(intField(o, "failed"), 4);
  // Ids follow the order of the request; the list (newest first) has exactly the three.
  const auto id0 = intField(results[0], "id");
  const auto id2 = intField(results[2], "id");
  const auto id6 = intField(results[6], "id");
  EXPECT_LT(id0, id2);
  EXPECT_LT(id2, id6);
  EXPECT_EQ(listIds(t.http, ch), (std::vector<std::int64_t>{id6, id2, id0}));
}

// Publishers find a channel's app in a cache; a deleted channel is still a 404 and takes
// nothing: deleted on this node, or on another node sharing the PostgreSQL store (whose
// cache still holds the channel: the writer's transaction refuses it there).
TEST_F(PublishApi, PublishToADeletedChannelIs404AndStoresNothing) {
  auto t = newTenant("pubdeleted");
  const auto app = createApp(t);
  const auto live = createChannel(t, app);
  const auto doomed = createChannel(t, app);
  publish(t.http, doomed, "cached");
  publish(t.http, live, "cached");
  ASSERT_STATUS(t.http.del("/channel/" + std::to_string(doomed)), 204);
  EXPECT_TRUE(IsProblem(t.http.post("/event", eventBody(doomed, "late", obj({}), obj({{"traceId", "gone-1"}}))), 404));
  auto batch = arr({eventBody(doomed, "b0", obj({}), obj({{"traceId", "gone-1"}})), eventBody(live, "b1")});
  auto r = t.http.post("/events/batch", obj({{"events", batch}}));
  ASSERT_STATUS(r, 200);
  auto results = objects(r.object()->getArray("results"));
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(batchStatus(results[0]), 404);
  EXPECT_EQ(batchStatus(results[1]), 201);
  EXPECT_EQ(listTotal(t.http, live), 2);
  EXPECT_TRUE(IsProblem(t.http.get("/traces/gone-1/events"), 404)) << "the refused events left a trace";
}

TEST_F(PublishApi, ChannelDeletedOnAnotherNodeIs404ThereAndStoresNothing) {
  if (currentBackend() != Backend::PostgreSQL) GTEST_SKIP() << "several nodes share a PostgreSQL store only";
  DaemonOptions second;
  second.databaseUrl = daemon().databaseUrl();
  DaemonProcess nodeB(second);
  nodeB.start();
  auto t = newTenant("pubtwonodes");
  const auto app = createApp(t);
  const auto live = createChannel(t, app);
  const auto doomed = createChannel(t, app);
  auto onB = nodeB.client().withApiKey(createKey(t, {"publish"}).key);
  auto hitsOfB = [&] {
    const std::string name = "agent_events_channel_cache_hits_total";
    const auto text = nodeB.client().get("/metrics").body;
    const auto at = text.find("\n" + name + " ");
    return at == std::string::npos ? std::int64_t{0} : std::stoll(text.substr(at + name.size() + 2));
  };
  ASSERT_STATUS(onB.post("/event", eventBody(doomed, "warm")), 201);
  ASSERT_STATUS(onB.post("/event", eventBody(live, "warm")), 201);
  const auto hits = hitsOfB();
  ASSERT_STATUS(onB.post("/event", eventBody(doomed, "cached")), 201);
  ASSERT_EQ(hitsOfB(), hits + 1) << "node B did not serve the channel from its cache";

  ASSERT_STATUS(t.http.del("/channel/" + std::to_string(doomed)), 204);  // on node A
  EXPECT_TRUE(IsProblem(onB.post("/event", eventBody(doomed, "late", obj({}), obj({{"traceId", "gone-2"}}))), 404));
  auto batch = arr({eventBody(live, "b0"), eventBody(doomed, "b1", obj({}), obj({{"traceId", "gone-2"}}))});
  auto r = onB.post("/events/batch", obj({{"events", batch}}));
  ASSERT_STATUS(r, 200);
  auto results = objects(r.object()->getArray("results"));
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(batchStatus(results[0]), 201);
  EXPECT_EQ(batchStatus(results[1]), 404);
  EXPECT_EQ(strField(results[1], "title"), "Not Found");
  EXPECT_EQ(listTotal(t.http, live), 2);
  EXPECT_TRUE(IsProblem(t.http.get("/traces/gone-2/events"), 404)) << "the refused events left a trace";
  EXPECT_TRUE(IsProblem(onB.post("/event", eventBody(doomed, "again")), 404));
  EXPECT_TRUE(nodeB.stop().exited);
}

TEST_F(PublishApi, BatchLimits) {
  auto t = newTenant("batchlim");
  const auto ch = newChannel(t);
  auto many = [&](int n) {
    Poco::JSON::Array::Ptr a = new Poco::JSON::Array;
    for (int i = 0; i < n; ++i) a->add(eventBody(ch, "b-" + std::to_string(i), obj({{"i", i}})));
    return a;
  };
  auto tooMany = t.http.post("/events/batch", obj({{"events", many(1001)}}));
  EXPECT_TRUE(IsProblem(tooMany, 422));
  EXPECT_EQ(errorLocations(tooMany), std::vector<std::string>{"body.events"}) << tooMany.body;
  EXPECT_EQ(listTotal(t.http, ch), 0);
  EXPECT_TRUE(IsProblem(t.http.post("/events/batch", obj({})), 422));
  EXPECT_TRUE(IsProblem(t.http.post("/events/batch", obj({{"events", obj({})}})), 422));
  EXPECT_TRUE(IsProblem(t.http.post("/events/batch", obj({{"events", "all"}})), 422));
  EXPECT_TRUE(IsProblem(t.http.post("/events/batch", "not json"), 400));

  auto empty = t.http.post("/events/batch", obj({{"events", many(0)}}));
  ASSERT_STATUS(empty, 200);
  EXPECT_EQ(empty.object()->getArray("results")->size(), 0u);
  EXPECT_EQ(intField(empty.object(), "stored"), 0);
  EXPECT_EQ(intField(empty.object(), "failed"), 0);

  auto full = t.http.post("/events/batch", obj({{"events", many(1000)}}));
  ASSERT_STATUS(full, 200);
  auto o = full.object();
  EXPECT_EQ(intField(o, "stored"), 1000);
  EXPECT_EQ(intField(o, "failed"), 0);
  auto results = objects(o->getArray("results"));
  ASSERT_EQ(results.size(), 1000u);
  std::int64_t previous = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& e = results[i];
    ASSERT_TRUE(isStoredEvent(e)) << toJson(e);
    ASSERT_EQ(strField(e, "identifier"), "b-" + std::to_string(i));
    ASSERT_GT(intField(e, "id"), previous);
    previous = intField(e, "id");
  }
  EXPECT_EQ(listTotal(t.http, ch), 1000);
}

TEST_F(PublishApi, ListPaginatesNewestFirstWithMeta) {
  auto t = newTenant("list");
  const auto ch = newChannel(t);
  Poco::JSON::Array::Ptr events = new Poco::JSON::Array;
  for (int i = 0; i < 45; ++i) events->add(eventBody(ch, "e-" + std::to_string(i), obj({{"i", i}})));
  auto batch = t.http.post("/events/batch", obj({{"events", events}}));
  ASSERT_STATUS(batch, 200);
  std::vector<std::int64_t> published;
  for (const auto& r : objects(batch.object()->getArray("results"))) published.push_back(intField(r, "id"));
  std::vector<std::int64_t> newestFirst(published.rbegin(), published.rend());
  const auto base = "/event/" + std::to_string(ch) + "/list";

  auto page = [&](const std::string& query, std::int64_t total, std::int64_t pageNo, std::int64_t limit,
                  std::int64_t totalPages) {
    auto r = t.http.get(base + query);
    EXPECT_STATUS(r, 200);
    auto meta = r.object()->getObject("meta");
    EXPECT_TRUE(meta) << r.body;
    if (!meta) return std::vector<std::int64_t>{};
    EXPECT_EQ(intField(meta, "total"), total) << query;
    EXPECT_EQ(intField(meta, "page"), pageNo) << query;
    EXPECT_EQ(intField(meta, "limit"), limit) << query;
    EXPECT_EQ(intField(meta, "totalPages"), totalPages) << query;
    std::vector<std::int64_t> ids;
    for (const auto& e : objects(r.object()->getArray("data"))) ids.push_back(intField(e, "id"));
    return ids;
  };
  // Defaults: page 1, limit 20.
  auto p1 = page("", 45, 1, 20, 3);
  EXPECT_EQ(p1, std::vector<std::int64_t>(newestFirst.begin(), newestFirst.begin() + 20));
  auto p2 = page("?page=2", 45, 2, 20, 3);
  EXPECT_EQ(p2, std::vector<std::int64_t>(newestFirst.begin() + 20, newestFirst.begin() + 40));
  auto p3 = page("?page=3&limit=20", 45, 3, 20, 3);
  EXPECT_EQ(p3, std::vector<std::int64_t>(newestFirst.begin() + 40, newestFirst.end()));
  EXPECT_TRUE(page("?page=4", 45, 4, 20, 3).empty());
  EXPECT_EQ(page("?limit=100", 45, 1, 100, 1), newestFirst);
  EXPECT_EQ(page("?limit=1&page=45", 45, 45, 1, 45), std::vector<std::int64_t>{published.front()});
  EXPECT_EQ(page("?limit=7&page=2", 45, 2, 7, 7), std::vector<std::int64_t>(newestFirst.begin() + 7, newestFirst.begin() + 14));
  // An empty channel.
  const auto emptyCh = newChannel(t);
  auto empty = t.http.get("/event/" + std::to_string(emptyCh) + "/list");
  ASSERT_STATUS(empty, 200);
  EXPECT_EQ(empty.object()->getArray("data")->size(), 0u);
  EXPECT_EQ(intField(empty.object()->getObject("meta"), "total"), 0);
  EXPECT_EQ(intField(empty.object()->getObject("meta"), "totalPages"), 0);
}

TEST_F(PublishApi, ListQueryOutOfRangeIs422) {
  auto t = newTenant("listval");
  const auto ch = newChannel(t);
  const auto base = "/event/" + std::to_string(ch) + "/list";
  for (const std::string q : {"limit=0", "limit=101", "limit=-5", "limit=abc", "page=0", "page=-1", "page=x", "limit=1.5"}) {
    auto r = t.http.get(base + "?" + q);
    EXPECT_TRUE(IsProblem(r, 422)) << q;
    const auto field = "query." + q.substr(0, q.find('='));
    EXPECT_EQ(errorLocations(r), std::vector<std::string>{field}) << q << ": " << r.body;
  }
  EXPECT_TRUE(IsProblem(t.http.get("/event/999999999/list"), 404));
}

TEST_F(PublishApi, ListNeedsReadScopeOrASession) {
  auto t = newTenant("listauth");
  const auto ch = newChannel(t);
  const auto id = intField(publish(t.http, ch, "x"), "id");
  const auto path = "/event/" + std::to_string(ch) + "/list";
  EXPECT_TRUE(IsProblem(anon().get(path), 401));
  auto readKey = createKey(t, {"read"});
  auto r = anon().withApiKey(readKey.key).get(path);
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(intField(r.object()->getArray("data")->getObject(0), "id"), id);
  EXPECT_TRUE(IsProblem(anon().withApiKey(createKey(t, {"publish"}).key).get(path), 403));
  EXPECT_TRUE(IsProblem(anon().withApiKey(createKey(t, {"subscribe"}).key).get(path), 403));
  // A Bearer session needs no x-tenant-id here (its active organization).
  EXPECT_STATUS(t.user.http.get(path), 200);
}

// ---------------------------------------------------------------- quota

class QuotaApi : public EventsTest {
 public:
  static void SetUpTestSuite() { startDaemon(options({{"plans.free.events_quota_monthly", "5"}})); }
};

TEST_F(QuotaApi, PublishPastTheMonthlyQuotaIs429WithRetryAfter) {
  auto t = newTenant("quota");
  const auto ch = newChannel(t);
  publishMany(t.http, ch, 4);
  // A batch that would cross the quota is refused as a whole, per event.
  auto crossing = t.http.post("/events/batch", obj({{"events", arr({eventBody(ch, "a"), eventBody(ch, "b")})}}));
  ASSERT_STATUS(crossing, 200);
  for (const auto& res : objects(crossing.object()->getArray("results"))) {
    EXPECT_EQ(batchStatus(res), 429) << crossing.body;
    EXPECT_EQ(strField(res, "type"), "https://agent-events.dev/problems/too-many-requests") << crossing.body;
  }
  EXPECT_EQ(intField(crossing.object(), "stored"), 0);
  EXPECT_EQ(listTotal(t.http, ch), 4);

  ASSERT_STATUS(t.http.post("/event", eventBody(ch, "fifth")), 201);
  auto over = t.http.post("/event", eventBody(ch, "sixth"));
  ASSERT_TRUE(IsProblem(over, 429));
  const auto retryAfter = std::stoll(over.header("Retry-After"));
  EXPECT_GT(retryAfter, 0);
  EXPECT_LE(retryAfter, 31LL * 24 * 3600) << "Retry-After points past the next month";
  // Still refused: the quota is not a rate limit that passes in a moment.
  EXPECT_TRUE(IsProblem(t.http.post("/event", eventBody(ch, "seventh")), 429));
  EXPECT_EQ(listTotal(t.http, ch), 5);
  // The organization shows the usage the quota counts: 5 of 5 this month.
  auto org = t.http.get("/organizations/" + std::to_string(t.orgId));
  ASSERT_STATUS(org, 200);
  EXPECT_EQ(intField(org.object(), "eventsQuotaMonthly"), 5);
  auto usage = org.object()->getObject("usage");
  ASSERT_TRUE(usage) << org.body;
  EXPECT_EQ(intField(usage, "events"), 5);
  EXPECT_TRUE(std::regex_match(strField(usage, "period"), std::regex(R"(\d{4}-\d{2})"))) << org.body;

  // Another organization has its own quota.
  auto other = newTenant("quota-other");
  EXPECT_STATUS(other.http.post("/event", eventBody(newChannel(other), "mine")), 201);
}

}  // namespace
}  // namespace aev::testing

// What clients built for other systems send and expect (docs/api.md#authentication,
// docs/api.md#the-stored-event, docs/api.md#listing-events): the API key as
// `Authorization: Bearer aes_…` or `x-axonpush-api-key` on every route that takes
// X-API-Key (REST and SSE), and a 401 that names each form; `eventId` and `createdAt`
// on every event; the seed SDK's event types; the list's filters and cursor; and a 422
// for any query parameter a route does not know.
#include <gtest/gtest.h>

#include <set>

#include "events_support.h"

namespace aev::testing {
namespace {

class ClientConventionsApi : public EventsTest {};

// ---------------------------------------------------------------- credentials

TEST_F(ClientConventionsApi, TheApiKeyAsBearerOrUnderTheSeedSdksHeaderName) {
  auto t = newTenant("forms");
  const auto ch = newChannel(t);
  auto key = createKey(t, {"publish", "subscribe", "read"});
  const std::vector<Headers> forms = {{{"Authorization", "Bearer " + key.key}},
                                      {{"x-axonpush-api-key", key.key}},
                                      {{"authorization", "bearer " + key.key}},
                                      {{"X-API-Key", key.key}}};
  for (const auto& form : forms) {
    const auto& [name, value] = form.front();
    // Publish, batch, list, stream token, whoami: each takes the key in this form.
    auto published = anon().post("/event", eventBody(ch, "via-" + name), form);
    ASSERT_STATUS(published, 201);
    auto batch = anon().post("/events/batch", obj({{"events", arr({eventBody(ch, "batched-" + name)})}}), form);
    ASSERT_STATUS(batch, 200);
    EXPECT_EQ(intField(batch.object(), "stored"), 1);
    EXPECT_STATUS(anon().get("/event/" + std::to_string(ch) + "/list", form), 200);
    EXPECT_STATUS(anon().post("/stream-tokens", obj({{"channelId", ch}}), form), 201);
    auto who = anon().get("/auth/whoami", form);
    ASSERT_STATUS(who, 200);
    EXPECT_EQ(strField(who.object(), "type"), "apikey") << name;
    EXPECT_STATUS(anon().get("/traces", form), 200);
    // The SSE stream.
    auto s = subscribe(subscribePath(ch), form);
    ASSERT_TRUE(IsStreamOpen(*s)) << name;
    auto e = publish(t.http, ch, "streamed-" + name);
    auto messages = s->take(1, kWait);
    ASSERT_EQ(messages.size(), 1u) << s->describe();
    EXPECT_EQ(messages[0].numericId(), intField(e, "id"));
  }
  EXPECT_EQ(listTotal(t.http, ch), 12);

  // Two different keys in one request: refused, not one of them picked.
  auto other = createKey(t, {"publish"});
  auto two =
      anon().post("/event", eventBody(ch, "two"), {{"Authorization", "Bearer " + key.key}, {"X-API-Key", other.key}});
  EXPECT_TRUE(IsProblem(two, 400));
  // The same key twice is one key.
  EXPECT_STATUS(
      anon().post("/event", eventBody(ch, "same"), {{"Authorization", "Bearer " + key.key}, {"X-API-Key", key.key}}),
      201);
  // A key sent as Bearer to a route for user sessions is an API key there too: 403.
  EXPECT_TRUE(IsProblem(anon().get("/api-keys", {{"Authorization", "Bearer " + key.key}}), 403));
}

TEST_F(ClientConventionsApi, A401NamesEveryAcceptedForm) {
  auto t = newTenant("forms401");
  const auto ch = newChannel(t);
  const auto forms = {"Authorization: Bearer <access token>", "Authorization: Bearer aes_", "X-API-Key",
                      "x-axonpush-api-key"};
  const std::vector<HttpResult> refused = {
      anon().post("/event", eventBody(ch, "x")),
      anon().get("/event/" + std::to_string(ch) + "/list"),
      anon().get("/traces", {{"x-axonpush-api-key", "aes_" + std::string(43, 'y')}}),
      anon().get("/event/" + std::to_string(ch) + "/list", {{"Authorization", "Bearer aes_" + std::string(43, 'z')}}),
      anon().get("/analytics/breakdown", {{"Authorization", "Token abc"}}),
  };
  for (const auto& r : refused) {
    ASSERT_TRUE(IsProblem(r, 401));
    const auto detail = r.object()->getValue<std::string>("detail");
    for (const char* form : forms) EXPECT_NE(detail.find(form), std::string::npos) << form << " not in: " << detail;
  }
  // The stream, refused before it starts.
  auto s = subscribe(subscribePath(ch), {{"x-axonpush-api-key", "aes_" + std::string(43, 'q')}});
  auto answer = s->readResponse(kWait);
  ASSERT_TRUE(IsProblem(answer, 401));
  EXPECT_NE(answer.object()->getValue<std::string>("detail").find("x-axonpush-api-key"), std::string::npos);
}

// ---------------------------------------------------------------- the event JSON

TEST_F(ClientConventionsApi, EveryEventCarriesEventIdAndCreatedAt) {
  auto t = newTenant("eventid");
  const auto ch = newChannel(t);
  const auto check = [](const Poco::JSON::Object::Ptr& e) {
    EXPECT_EQ(strField(e, "eventId"), std::to_string(intField(e, "id")));
    EXPECT_EQ(strField(e, "createdAt"), strField(e, "timestamp"));
  };
  auto s = subscribe(subscribePath(ch), {{"Authorization", t.bearer()}});
  ASSERT_TRUE(IsStreamOpen(*s));
  auto one = publish(t.http, ch, "one");
  check(one);
  auto batch = t.http.post("/events/batch", obj({{"events", arr({eventBody(ch, "two")})}}));
  ASSERT_STATUS(batch, 200);
  for (const auto& e : objects(batch.object()->getArray("results"))) check(e);
  auto list = t.http.get("/event/" + std::to_string(ch) + "/list");
  ASSERT_STATUS(list, 200);
  for (const auto& e : objects(listOf(list))) check(e);
  auto messages = s->take(2, kWait);
  ASSERT_EQ(messages.size(), 2u) << s->describe();
  for (const auto& m : messages) check(m.json());
}

TEST_F(ClientConventionsApi, TheSeedSdksEventTypesAreAccepted) {
  auto t = newTenant("seedtypes");
  const auto ch = newChannel(t);
  for (const char* type : {"app.span", "app.log", "agent.log"}) {
    auto r = t.http.post("/event", eventBody(ch, "typed", nullptr, obj({{"eventType", type}})));
    ASSERT_STATUS(r, 201);
    EXPECT_EQ(strField(r.object(), "eventType"), type);
    auto batch =
        t.http.post("/events/batch", obj({{"events", arr({eventBody(ch, "b", nullptr, obj({{"eventType", type}}))})}}));
    EXPECT_EQ(intField(batch.object(), "stored"), 1) << batch.describe();
    // Filters and moderation take them too.
    auto listed = t.http.get("/event/" + std::to_string(ch) + "/list?eventType=" + type);
    ASSERT_STATUS(listed, 200);
    EXPECT_EQ(intField(listed.object()->getObject("meta"), "total"), 2);
    EXPECT_STATUS(
        t.http.post("/moderation/evaluate", eventBody(ch, "m", obj({{"text", "hi"}}), obj({{"eventType", type}}))),
        200);
  }
  // Anything else stays a 422.
  auto unknown = t.http.post("/event", eventBody(ch, "typed", nullptr, obj({{"eventType", "app.trace"}})));
  ASSERT_TRUE(IsProblem(unknown, 422));
  EXPECT_EQ(errorLocations(unknown), std::vector<std::string>{"body.eventType"});
  // The OpenAPI document lists them.
  auto doc = anon().get("/openapi.json").body;
  for (const char* type : {"\"app.span\"", "\"app.log\"", "\"agent.log\""})
    EXPECT_NE(doc.find(type), std::string::npos);
}

// ---------------------------------------------------------------- listing

TEST_F(ClientConventionsApi, TheListFiltersByTraceTypeAgentAndTime) {
  auto t = newTenant("listfilter");
  const auto ch = newChannel(t);
  const auto path = "/event/" + std::to_string(ch) + "/list";
  publish(t.http, ch, "a1", nullptr, obj({{"traceId", "t-1"}, {"eventType", "agent.start"}, {"agentId", "planner"}}));
  publish(t.http, ch, "a2", nullptr, obj({{"traceId", "t-1"}, {"eventType", "agent.message"}, {"agentId", "writer"}}));
  auto middle = publish(t.http, ch, "b1", nullptr,
                        obj({{"traceId", "t-2"}, {"eventType", "agent.message"}, {"agentId", "planner"}}));
  publish(t.http, ch, "b2", nullptr, obj({{"traceId", "t-2"}, {"eventType", "app.log"}, {"agentId", "planner"}}));
  const auto identifiers = [&](const std::string& query) {
    auto r = t.http.get(path + "?" + query);
    EXPECT_EQ(r.status, 200) << r.describe();
    std::vector<std::string> out;
    if (r.status != 200) return out;
    for (const auto& e : objects(listOf(r))) out.push_back(strField(e, "identifier"));
    EXPECT_EQ(intField(r.object()->getObject("meta"), "total"), static_cast<std::int64_t>(out.size())) << query;
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(identifiers("traceId=t-1"), (V{"a2", "a1"}));
  EXPECT_EQ(identifiers("trace_id=t-2"), (V{"b2", "b1"}));
  EXPECT_EQ(identifiers("eventType=agent.message"), (V{"b1", "a2"}));
  EXPECT_EQ(identifiers("agentId=planner"), (V{"b2", "b1", "a1"}));
  EXPECT_EQ(identifiers("agentId=planner&traceId=t-2&eventType=agent.message"), (V{"b1"}));
  EXPECT_EQ(identifiers("traceId=none"), V{});
  // since (inclusive) and until (exclusive), on the receive time.
  const auto at = strField(middle, "timestamp");
  EXPECT_EQ(identifiers("since=" + at), (V{"b2", "b1"}));
  EXPECT_EQ(identifiers("until=" + at), (V{"a2", "a1"}));
  EXPECT_EQ(identifiers("since=" + at + "&until=" + at), V{});
  // Bad values are 422s naming the parameter.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"since=yesterday", "query.since"},
      {"eventType=agent.unknown", "query.eventType"},
      {"traceId=a&trace_id=b", "query.traceId"},
      {"cursor=not-a-cursor", "query.cursor"},
  };
  for (const auto& [query, location] : bad) {
    auto r = t.http.get(path + "?" + query);
    ASSERT_TRUE(IsProblem(r, 422)) << query;
    EXPECT_EQ(errorLocations(r), std::vector<std::string>{location}) << query;
  }
}

TEST_F(ClientConventionsApi, CursorPagingIsStableWhileEventsArePublished) {
  auto t = newTenant("cursor");
  const auto ch = newChannel(t);
  const auto path = "/event/" + std::to_string(ch) + "/list";
  auto ids = publishMany(t.http, ch, 7, "c");
  std::vector<std::int64_t> seen;
  std::string cursor;
  int pages = 0;
  for (;;) {
    auto r = t.http.get(path + "?limit=3" + (cursor.empty() ? "" : "&cursor=" + cursor));
    ASSERT_STATUS(r, 200);
    for (const auto& e : objects(listOf(r))) seen.push_back(intField(e, "id"));
    ++pages;
    // Events published between pages land before the first page, never inside the walk.
    publish(t.http, ch, "meanwhile-" + std::to_string(pages));
    auto meta = r.object()->getObject("meta");
    if (meta->isNull("nextCursor")) break;
    cursor = meta->getValue<std::string>("nextCursor");
    ASSERT_LT(pages, 10);
  }
  EXPECT_EQ(pages, 3);
  std::vector<std::int64_t> newestFirst(ids.rbegin(), ids.rend());
  EXPECT_EQ(seen, newestFirst);
  // Page and cursor together are refused.
  auto first = t.http.get(path + "?limit=1");
  ASSERT_STATUS(first, 200);
  auto both =
      t.http.get(path + "?page=2&cursor=" + first.object()->getObject("meta")->getValue<std::string>("nextCursor"));
  ASSERT_TRUE(IsProblem(both, 422));
  EXPECT_EQ(errorLocations(both), std::vector<std::string>{"query.page"});
}

TEST_F(ClientConventionsApi, AQueryParameterARouteDoesNotKnowIs422) {
  auto t = newTenant("unknownq");
  const auto ch = newChannel(t);
  publish(t.http, ch, "one");
  const std::vector<std::string> paths = {
      "/event/" + std::to_string(ch) + "/list?trace=abc",  // the seed SDK's filters are camelCase
      "/traces?channelId=1",
      "/analytics/breakdown?dimension=model&colour=red",
      "/apps?page=1",
      "/api-keys?limit=5",
      "/ingest/problems?since=2024-01-01T00:00:00Z",
  };
  for (const auto& path : paths) {
    auto r = t.http.get(path);
    ASSERT_TRUE(IsProblem(r, 422)) << path;
    const auto name = path.substr(path.rfind(path.find('&') != std::string::npos ? '&' : '?') + 1);
    EXPECT_EQ(errorLocations(r), std::vector<std::string>{"query." + name.substr(0, name.find('='))}) << path;
  }
  // The documented ones still work, and a stream's documented filters too.
  EXPECT_STATUS(t.http.get("/event/" + std::to_string(ch) + "/list?page=1&limit=5&traceId=x"), 200);
  EXPECT_STATUS(t.http.get("/traces?page=1&limit=5&agent=x&sort=start"), 200);
  auto s = subscribe(subscribePath(ch, "agent_id=a&colour=red"), {{"Authorization", t.bearer()}});
  auto answer = s->readResponse(kWait);
  ASSERT_TRUE(IsProblem(answer, 422));
  EXPECT_EQ(errorLocations(answer), std::vector<std::string>{"query.colour"});
}

}  // namespace
}  // namespace aev::testing

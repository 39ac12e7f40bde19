// Apps and channels (docs/api.md#the-two-shapes, docs/api.md#errors): both shapes as one
// superset record, name lengths, the x-tenant-id rules, deletion cascades, ids that are
// not decimal, and organization isolation (another organization's ids are 404 and
// nothing changes).
#include <gtest/gtest.h>

#include <regex>

#include "events_support.h"
#include "support/batch_results.h"

namespace aev::testing {
namespace {

const std::regex kRfc3339(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))");

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

class AppsChannelsApi : public EventsTest {};

TEST_F(AppsChannelsApi, CreateAppAnswersTheAppDtoSuperset) {
  auto t = newTenant("app");
  auto r = t.user.http.post("/apps", obj({{"name", "Support bot"}}));  // no x-tenant-id needed here
  ASSERT_STATUS(r, 201);
  auto a = r.object();
  const auto id = intField(a, "id");
  EXPECT_GT(id, 0);
  EXPECT_EQ(strField(a, "$schema"), schemaBase() + "App.json");
  EXPECT_EQ(strField(a, "appId"), std::to_string(id));
  EXPECT_EQ(strField(a, "name"), "Support bot");
  EXPECT_EQ(strField(a, "orgId"), std::to_string(t.orgId));
  EXPECT_EQ(strField(a, "creatorUserId"), std::to_string(t.user.id));
  EXPECT_TRUE(std::regex_match(strField(a, "createdAt"), kRfc3339)) << r.body;
  EXPECT_TRUE(std::regex_match(strField(a, "updatedAt"), kRfc3339)) << r.body;
  // The schema it names is served.
  EXPECT_STATUS(anon().get("/schemas/App.json"), 200);
}

TEST_F(AppsChannelsApi, AppNamesAre1To120Characters) {
  auto t = newTenant("appname");
  // 120 code points of two bytes each is within the limit; 121 is not.
  auto atLimit = t.http.post("/apps", obj({{"name", repeat("\xC3\xA9", 120)}}));
  ASSERT_STATUS(atLimit, 201);
  EXPECT_EQ(strField(atLimit.object(), "name"), repeat("\xC3\xA9", 120));
  EXPECT_STATUS(t.http.post("/apps", obj({{"name", "x"}})), 201);

  for (const auto& bad : {obj({{"name", ""}}), obj({{"name", repeat("\xC3\xA9", 121)}}), obj({{"name", repeat("a", 121)}}),
                          obj({}), obj({{"name", 42}}), obj({{"name", Poco::Dynamic::Var()}})}) {
    auto r = t.http.post("/apps", bad);
    EXPECT_TRUE(IsProblem(r, 422)) << toJson(bad);
    const auto locations = errorLocations(r);
    EXPECT_TRUE(!locations.empty() && locations[0] == "body.name") << r.body;
  }
  EXPECT_TRUE(IsProblem(t.http.post("/apps", "{not json"), 400));
  EXPECT_TRUE(IsProblem(t.http.post("/apps", "name=x", {{"Content-Type", "application/x-www-form-urlencoded"}}), 415));
  // Only the two valid ones exist.
  auto list = t.http.get("/apps");
  ASSERT_STATUS(list, 200);
  EXPECT_EQ(list.array()->size(), 2u) << list.body;
}

TEST_F(AppsChannelsApi, ListAppsNeedsTheTenantHeaderAndListsOnlyThatOrganization) {
  auto t = newTenant("applist");
  auto other = newTenant("applist-other");
  const auto a1 = createApp(t, "one");
  const auto a2 = createApp(t, "two");
  createApp(other, "not mine");

  EXPECT_TRUE(IsProblem(t.user.http.get("/apps"), 400));  // no x-tenant-id
  auto r = t.http.get("/apps");
  ASSERT_STATUS(r, 200);
  std::vector<std::int64_t> ids;
  for (const auto& a : objects(r.array())) {
    ids.push_back(intField(a, "id"));
    EXPECT_EQ(strField(a, "orgId"), std::to_string(t.orgId));
    EXPECT_EQ(strField(a, "appId"), std::to_string(intField(a, "id")));
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::int64_t>{a1, a2})) << r.body;
}

TEST_F(AppsChannelsApi, TenantHeaderMustNameAnOrganizationOfTheCaller) {
  auto t = newTenant("tenant");
  auto stranger = newTenant("tenant-stranger");
  // A well-formed id of an organization the caller is not a member of: 403.
  EXPECT_TRUE(IsProblem(t.user.http.get("/apps", {{"x-tenant-id", std::to_string(stranger.orgId)}}), 403));
  // Not an organization id at all: 400.
  EXPECT_TRUE(IsProblem(t.user.http.get("/apps", {{"x-tenant-id", "abc"}}), 400));
  EXPECT_TRUE(IsProblem(t.user.http.get("/apps", {{"x-tenant-id", "-3"}}), 400));
}

TEST_F(AppsChannelsApi, TenantHeaderSelectsTheOrganization) {
  auto owner = newTenant("tsel-owner");
  auto member = newTenant("tsel-member");
  const auto app = createApp(owner, "shared");
  addMember(owner.user, owner.orgId, member.user, "user");
  auto asMemberInOwnersOrg = member.user.http.withHeader("x-tenant-id", std::to_string(owner.orgId));
  auto list = asMemberInOwnersOrg.get("/apps");
  ASSERT_STATUS(list, 200);
  ASSERT_EQ(list.array()->size(), 1u) << list.body;
  EXPECT_EQ(intField(list.array()->getObject(0), "id"), app);
  EXPECT_STATUS(asMemberInOwnersOrg.get("/apps/" + std::to_string(app)), 200);
  // In its own organization the same id is someone else's: 404.
  EXPECT_TRUE(IsProblem(member.http.get("/apps/" + std::to_string(app)), 404));
  EXPECT_EQ(member.http.get("/apps").array()->size(), 0u);
}

TEST_F(AppsChannelsApi, GetAppIncludesItsChannels) {
  auto t = newTenant("appget");
  const auto app = createApp(t, "with channels");
  const auto c1 = createChannel(t, app, "alpha");
  const auto c2 = createChannel(t, app, "beta");
  auto r = t.user.http.get("/apps/" + std::to_string(app));  // second shape: no x-tenant-id needed
  ASSERT_STATUS(r, 200);
  auto a = r.object();
  EXPECT_EQ(intField(a, "id"), app);
  EXPECT_EQ(strField(a, "appId"), std::to_string(app));
  EXPECT_EQ(strField(a, "name"), "with channels");
  EXPECT_EQ(strField(a, "orgId"), std::to_string(t.orgId));
  EXPECT_EQ(strField(a, "$schema"), schemaBase() + "App.json");
  auto channels = objects(a->getArray("channels"));
  ASSERT_EQ(channels.size(), 2u) << r.body;
  std::map<std::int64_t, std::string> byId;
  for (const auto& ch : channels) {
    byId[intField(ch, "id")] = strField(ch, "name");
    EXPECT_EQ(strField(ch, "channelId"), std::to_string(intField(ch, "id")));
    EXPECT_EQ(strField(ch, "appId"), std::to_string(app));
    EXPECT_EQ(strField(ch, "orgId"), std::to_string(t.orgId));
    EXPECT_TRUE(std::regex_match(strField(ch, "createdAt"), kRfc3339));
  }
  EXPECT_EQ(byId, (std::map<std::int64_t, std::string>{{c1, "alpha"}, {c2, "beta"}}));
  // An app without channels has an empty array, not a missing field.
  auto empty = t.http.get("/apps/" + std::to_string(createApp(t)));
  ASSERT_STATUS(empty, 200);
  ASSERT_TRUE(empty.object()->getArray("channels")) << empty.body;
  EXPECT_EQ(empty.object()->getArray("channels")->size(), 0u);
}

TEST_F(AppsChannelsApi, RenameApp) {
  auto t = newTenant("apprename");
  const auto app = createApp(t, "before");
  const auto path = "/apps/" + std::to_string(app);
  EXPECT_TRUE(IsProblem(t.user.http.patch(path, obj({{"name", "after"}})), 400));  // no x-tenant-id
  EXPECT_TRUE(IsProblem(t.http.patch(path, obj({{"name", ""}})), 422));
  EXPECT_TRUE(IsProblem(t.http.patch(path, obj({{"name", repeat("n", 121)}})), 422));
  EXPECT_EQ(strField(t.http.get(path).object(), "name"), "before");

  auto r = t.http.patch(path, obj({{"name", "after"}}));
  ASSERT_STATUS(r, 200);
  auto a = r.object();
  EXPECT_EQ(intField(a, "id"), app);
  EXPECT_EQ(strField(a, "name"), "after");
  EXPECT_GE(strField(a, "updatedAt"), strField(a, "createdAt"));
  EXPECT_EQ(strField(t.http.get(path).object(), "name"), "after");
  EXPECT_TRUE(IsProblem(t.http.patch("/apps/999999999", obj({{"name", "x"}})), 404));
}

TEST_F(AppsChannelsApi, DeleteAppRemovesItsChannelsAndTheirEvents) {
  auto t = newTenant("appdel");
  const auto app = createApp(t);
  const auto ch = createChannel(t, app);
  const auto keep = newChannel(t);  // another app's channel survives
  publish(t.http, ch, "doomed");
  publish(t.http, keep, "kept");
  const auto path = "/apps/" + std::to_string(app);

  EXPECT_TRUE(IsProblem(t.user.http.del(path), 400));  // no x-tenant-id
  EXPECT_STATUS(t.http.get(path), 200);
  auto r = t.http.del(path);
  ASSERT_STATUS(r, 204);
  EXPECT_TRUE(r.body.empty());
  EXPECT_TRUE(IsProblem(t.http.get(path), 404));
  EXPECT_TRUE(IsProblem(t.http.get("/channel/" + std::to_string(ch)), 404));
  EXPECT_TRUE(IsProblem(t.http.get("/event/" + std::to_string(ch) + "/list"), 404));
  EXPECT_TRUE(IsProblem(t.http.post("/event", eventBody(ch, "late")), 404));
  EXPECT_TRUE(IsProblem(t.http.del(path), 404));
  for (const auto& a : objects(t.http.get("/apps").array())) EXPECT_NE(intField(a, "id"), app);
  EXPECT_EQ(listTotal(t.http, keep), 1);
}

TEST_F(AppsChannelsApi, CreateChannelInBothShapes) {
  auto t = newTenant("chcreate");
  const auto app = createApp(t);
  auto second = t.user.http.post("/apps/" + std::to_string(app) + "/channels", obj({{"name", "events"}}));
  ASSERT_STATUS(second, 201);
  auto c = second.object();
  const auto id = intField(c, "id");
  EXPECT_EQ(strField(c, "$schema"), schemaBase() + "Channel.json");
  EXPECT_EQ(strField(c, "channelId"), std::to_string(id));
  EXPECT_EQ(strField(c, "appId"), std::to_string(app));
  EXPECT_EQ(strField(c, "orgId"), std::to_string(t.orgId));
  EXPECT_EQ(strField(c, "name"), "events");
  EXPECT_TRUE(std::regex_match(strField(c, "createdAt"), kRfc3339));
  EXPECT_TRUE(std::regex_match(strField(c, "updatedAt"), kRfc3339));
  EXPECT_STATUS(anon().get("/schemas/Channel.json"), 200);

  // First shape: integer appId in the body, x-tenant-id required.
  EXPECT_TRUE(IsProblem(t.user.http.post("/channel", obj({{"name", "first"}, {"appId", app}})), 400));
  auto first = t.http.post("/channel", obj({{"name", "first"}, {"appId", app}}));
  ASSERT_STATUS(first, 201);
  EXPECT_EQ(strField(first.object(), "appId"), std::to_string(app));
  EXPECT_EQ(strField(first.object(), "name"), "first");
  // The decimal string form of the id is the same app.
  auto asString = t.http.post("/channel", obj({{"name", "first-str"}, {"appId", std::to_string(app)}}));
  ASSERT_STATUS(asString, 201);
  EXPECT_EQ(strField(asString.object(), "appId"), std::to_string(app));
  EXPECT_EQ(t.http.get("/apps/" + std::to_string(app)).object()->getArray("channels")->size(), 3u);
}

TEST_F(AppsChannelsApi, ChannelValidation) {
  auto t = newTenant("chval");
  const auto app = createApp(t);
  const auto second = "/apps/" + std::to_string(app) + "/channels";
  for (const auto& bad : {obj({{"name", ""}}), obj({{"name", repeat("c", 121)}}), obj({}), obj({{"name", 5}})}) {
    auto r = t.http.post(second, bad);
    EXPECT_TRUE(IsProblem(r, 422)) << toJson(bad);
    EXPECT_EQ(errorLocations(r), std::vector<std::string>{"body.name"}) << r.body;
  }
  EXPECT_STATUS(t.http.post(second, obj({{"name", repeat("c", 120)}})), 201);
  auto noApp = t.http.post("/channel", obj({{"name", "x"}}));
  EXPECT_TRUE(IsProblem(noApp, 422));
  EXPECT_EQ(errorLocations(noApp), std::vector<std::string>{"body.appId"}) << noApp.body;
  EXPECT_TRUE(IsProblem(t.http.post("/channel", obj({{"name", "x"}, {"appId", "twelve"}})), 422));
  EXPECT_TRUE(IsProblem(t.http.post("/channel", obj({{"name", ""}, {"appId", app}})), 422));
  // An app that does not exist.
  EXPECT_TRUE(IsProblem(t.http.post("/channel", obj({{"name", "x"}, {"appId", 999999999}})), 404));
  EXPECT_TRUE(IsProblem(t.http.post("/apps/999999999/channels", obj({{"name", "x"}})), 404));
  EXPECT_EQ(t.http.get("/apps/" + std::to_string(app)).object()->getArray("channels")->size(), 1u);
}

TEST_F(AppsChannelsApi, GetAndDeleteChannel) {
  auto t = newTenant("chget");
  const auto app = createApp(t);
  const auto ch = createChannel(t, app, "getme");
  const auto path = "/channel/" + std::to_string(ch);
  EXPECT_TRUE(IsProblem(t.user.http.get(path), 400));  // no x-tenant-id
  auto r = t.http.get(path);
  ASSERT_STATUS(r, 200);
  auto c = r.object();
  EXPECT_EQ(intField(c, "id"), ch);
  EXPECT_EQ(strField(c, "channelId"), std::to_string(ch));
  EXPECT_EQ(strField(c, "appId"), std::to_string(app));
  EXPECT_EQ(strField(c, "orgId"), std::to_string(t.orgId));
  EXPECT_EQ(strField(c, "name"), "getme");
  EXPECT_TRUE(c->has("createdAt") && c->has("updatedAt")) << r.body;

  publishMany(t.http, ch, 3);
  EXPECT_TRUE(IsProblem(t.user.http.del(path), 400));  // no x-tenant-id
  EXPECT_STATUS(t.http.get(path), 200);
  auto del = t.http.del(path);
  ASSERT_STATUS(del, 204);
  EXPECT_TRUE(del.body.empty());
  EXPECT_TRUE(IsProblem(t.http.get(path), 404));
  EXPECT_TRUE(IsProblem(t.http.del(path), 404));
  EXPECT_TRUE(IsProblem(t.http.get("/event/" + std::to_string(ch) + "/list"), 404));
  EXPECT_EQ(t.http.get("/apps/" + std::to_string(app)).object()->getArray("channels")->size(), 0u);
  // The app itself stays.
  EXPECT_STATUS(t.http.get("/apps/" + std::to_string(app)), 200);
}

TEST_F(AppsChannelsApi, IdsThatAreNotDecimalAre404) {
  auto t = newTenant("badids");
  for (const std::string id : {"abc", "12abc", "0x10", "-1", "0", "1.5", "99999999999999999999999"}) {
    SCOPED_TRACE(id);
    EXPECT_TRUE(IsProblem(t.http.get("/apps/" + id), 404));
    EXPECT_TRUE(IsProblem(t.http.patch("/apps/" + id, obj({{"name", "x"}})), 404));
    EXPECT_TRUE(IsProblem(t.http.del("/apps/" + id), 404));
    EXPECT_TRUE(IsProblem(t.http.post("/apps/" + id + "/channels", obj({{"name", "x"}})), 404));
    EXPECT_TRUE(IsProblem(t.http.get("/channel/" + id), 404));
    EXPECT_TRUE(IsProblem(t.http.del("/channel/" + id), 404));
    EXPECT_TRUE(IsProblem(t.http.get("/event/" + id + "/list"), 404));
    auto s = subscribe("/channel/" + id + "/subscribe", {{"Authorization", t.bearer()}});
    EXPECT_TRUE(IsProblem(s->readResponse(kWait), 404)) << s->describe();
  }
}

TEST_F(AppsChannelsApi, AnotherOrganizationsIdsAre404AndNothingChanges) {
  auto alice = newTenant("iso-alice");
  auto bob = newTenant("iso-bob");
  const auto bobApp = createApp(bob, "bob's app");
  const auto bobCh = createChannel(bob, bobApp, "bob's channel");
  const auto bobEvent = intField(publish(bob.http, bobCh, "private", obj({{"secret", "s3cr3t"}})), "id");
  const auto aliceCh = newChannel(alice);
  const auto app = std::to_string(bobApp), ch = std::to_string(bobCh);

  EXPECT_TRUE(IsProblem(alice.http.get("/apps/" + app), 404));
  EXPECT_TRUE(IsProblem(alice.http.patch("/apps/" + app, obj({{"name", "hijacked"}})), 404));
  EXPECT_TRUE(IsProblem(alice.http.del("/apps/" + app), 404));
  EXPECT_TRUE(IsProblem(alice.http.post("/apps/" + app + "/channels", obj({{"name", "intruder"}})), 404));
  EXPECT_TRUE(IsProblem(alice.http.post("/channel", obj({{"name", "intruder"}, {"appId", bobApp}})), 404));
  EXPECT_TRUE(IsProblem(alice.http.get("/channel/" + ch), 404));
  EXPECT_TRUE(IsProblem(alice.http.del("/channel/" + ch), 404));
  EXPECT_TRUE(IsProblem(alice.http.post("/event", eventBody(bobCh, "intrusion")), 404));
  EXPECT_TRUE(IsProblem(alice.http.get("/event/" + ch + "/list"), 404));
  EXPECT_TRUE(IsProblem(alice.http.post("/stream-tokens", obj({{"channelId", bobCh}})), 404));
  auto batch = alice.http.post("/events/batch", obj({{"events", arr({eventBody(bobCh, "intrusion")})}}));
  ASSERT_STATUS(batch, 200);
  EXPECT_EQ(batchStatus(batch.object()->getArray("results")->getObject(0)), 404) << batch.body;
  auto s = subscribe(subscribePath(bobCh), {{"Authorization", alice.bearer()}});
  EXPECT_TRUE(IsProblem(s->readResponse(kWait), 404)) << s->describe();
  // With an API key of Alice's organization, too.
  auto key = createKey(alice, {"publish", "subscribe", "read"});
  auto keyed = anon().withApiKey(key.key);
  EXPECT_TRUE(IsProblem(keyed.post("/event", eventBody(bobCh, "intrusion")), 404));
  EXPECT_TRUE(IsProblem(keyed.get("/event/" + ch + "/list"), 404));
  auto ks = subscribe(subscribePath(bobCh), {{"X-API-Key", key.key}});
  EXPECT_TRUE(IsProblem(ks->readResponse(kWait), 404)) << ks->describe();
  // Alice's own resources are fine, and Bob's ids never show up in her lists.
  EXPECT_STATUS(alice.http.get("/channel/" + std::to_string(aliceCh)), 200);
  EXPECT_EQ(alice.http.get("/apps").body.find("bob's"), std::string::npos);

  // Bob's data is untouched.
  auto a = bob.http.get("/apps/" + app);
  ASSERT_STATUS(a, 200);
  EXPECT_EQ(strField(a.object(), "name"), "bob's app");
  ASSERT_EQ(a.object()->getArray("channels")->size(), 1u) << a.body;
  EXPECT_EQ(intField(a.object()->getArray("channels")->getObject(0), "id"), bobCh);
  EXPECT_EQ(listIds(bob.http, bobCh), std::vector<std::int64_t>{bobEvent});
}

TEST_F(AppsChannelsApi, NeedsAUserSession) {
  auto t = newTenant("appauth");
  const auto app = createApp(t);
  const auto tenant = Headers{{"x-tenant-id", std::to_string(t.orgId)}};
  EXPECT_TRUE(IsProblem(anon().post("/apps", obj({{"name", "x"}})), 401));
  EXPECT_TRUE(IsProblem(anon().get("/apps", tenant), 401));
  EXPECT_TRUE(IsProblem(anon().get("/apps/" + std::to_string(app)), 401));
  // An API key (even with every scope) is not a user session.
  auto key = createKey(t, {"publish", "subscribe", "read"});
  auto keyed = anon().withApiKey(key.key);
  EXPECT_TRUE(IsProblem(keyed.post("/apps", obj({{"name", "x"}})), 403));
  EXPECT_TRUE(IsProblem(keyed.get("/apps", tenant), 403));
  EXPECT_TRUE(IsProblem(keyed.post("/channel", obj({{"name", "x"}, {"appId", app}}), tenant), 403));
  EXPECT_EQ(t.http.get("/apps").array()->size(), 1u);
}

}  // namespace
}  // namespace aev::testing

// API keys (docs/api.md#authentication): format, listing, scopes,
// immediate revocation, organization binding and x-tenant-id.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <regex>
#include <thread>

#include "support/api_fixture.h"
#include "support/backend.h"

namespace aev::testing {
namespace {

class ApiKeysApi : public ApiTest {
 protected:
  Poco::JSON::Object::Ptr createKey(const HttpClient& http, const std::string& name,
                                    std::vector<std::string> scopes = {"publish", "subscribe"}) {
    Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
    for (const auto& s : scopes) list->add(s);
    auto r = http.post("/api-keys", obj({{"name", name}, {"scopes", list}}));
    EXPECT_STATUS(r, 201);
    return r.status == 201 ? r.object() : nullptr;
  }
};

TEST_F(ApiKeysApi, CreateShowsTheFullKeyOnce) {
  auto u = registerUser("keys");
  auto r = u.http.post("/api-keys", obj({{"name", "ci"}, {"scopes", arr({"publish", "read"})}}));
  ASSERT_STATUS(r, 201);
  auto k = r.object();
  EXPECT_GT(intField(k, "id"), 0);
  EXPECT_EQ(strField(k, "name"), "ci");
  const auto key = strField(k, "key");
  EXPECT_TRUE(std::regex_match(key, std::regex("aes_[A-Za-z0-9_-]{43,}"))) << key;
  auto scopes = k->getArray("scopes");
  ASSERT_TRUE(scopes);
  ASSERT_EQ(scopes->size(), 2u);
  EXPECT_EQ(scopes->getElement<std::string>(0), "publish");
  EXPECT_EQ(scopes->getElement<std::string>(1), "read");
  EXPECT_FALSE(strField(k, "createdAt").empty());
  // Two keys never share a value.
  auto other = createKey(u.http, "ci-2");
  ASSERT_TRUE(other);
  EXPECT_NE(strField(other, "key"), key);
}

TEST_F(ApiKeysApi, ListTruncatesKeys) {
  auto u = registerUser("keylist");
  auto created = createKey(u.http, "listed");
  ASSERT_TRUE(created);
  const auto key = strField(created, "key");
  auto r = u.http.get("/api-keys");
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(r.body.find(key), std::string::npos) << "the full key is listed";
  bool found = false;
  for (const auto& item : objects(r.array())) {
    if (intField(item, "id") != intField(created, "id")) continue;
    found = true;
    EXPECT_EQ(strField(item, "name"), "listed");
    EXPECT_EQ(strField(item, "key"), key.substr(0, 8) + "\xE2\x80\xA6");  // 8 characters then "…"
    EXPECT_TRUE(item->getArray("scopes"));
    EXPECT_FALSE(strField(item, "createdAt").empty());
  }
  EXPECT_TRUE(found) << r.describe();
}

TEST_F(ApiKeysApi, Validation) {
  auto u = registerUser("keyval");
  auto unknown = u.http.post("/api-keys", obj({{"name", "x"}, {"scopes", arr({"publish", "admin"})}}));
  ASSERT_TRUE(IsProblem(unknown, 422));
  auto locations = errorLocations(unknown);
  ASSERT_FALSE(locations.empty());
  EXPECT_EQ(locations[0].rfind("body.scopes", 0), 0u) << unknown.body;
  EXPECT_TRUE(IsProblem(u.http.post("/api-keys", obj({{"scopes", arr({"publish"})}})), 422));
  EXPECT_TRUE(IsProblem(u.http.post("/api-keys", obj({{"name", "x"}, {"scopes", "publish"}})), 422));
  EXPECT_TRUE(IsProblem(u.http.post("/api-keys", obj({{"name", "x"}, {"scopes", arr({5})}})), 422));
  EXPECT_TRUE(IsProblem(u.http.post("/api-keys", obj({{"name", ""}, {"scopes", arr({"read"})}})), 422));
  // Nothing was created by the failed attempts.
  EXPECT_EQ(u.http.get("/api-keys").array()->size(), 0u);
}

TEST_F(ApiKeysApi, KeyAuthenticatesWhoami) {
  auto u = registerUser("keywho");
  auto created = createKey(u.http, "who", {"read"});
  ASSERT_TRUE(created);
  auto keyed = anon().withApiKey(strField(created, "key"));
  auto r = keyed.get("/auth/whoami");
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  EXPECT_EQ(strField(o, "type"), "apikey");
  EXPECT_EQ(intField(o, "apiKeyId"), intField(created, "id"));
  EXPECT_EQ(intField(o, "orgId"), u.personalOrgId);
  auto scopes = o->getArray("scopes");
  ASSERT_TRUE(scopes);
  ASSERT_EQ(scopes->size(), 1u);
  EXPECT_EQ(scopes->getElement<std::string>(0), "read");
}

TEST_F(ApiKeysApi, BadKeyIs401) {
  EXPECT_TRUE(IsProblem(anon().withApiKey("aes_" + std::string(43, 'x')).get("/auth/whoami"), 401));
  EXPECT_TRUE(IsProblem(anon().withApiKey("garbage").get("/auth/whoami"), 401));
}

TEST_F(ApiKeysApi, RevocationIsImmediate) {
  auto u = registerUser("keyrevoke");
  auto created = createKey(u.http, "revoke-me");
  ASSERT_TRUE(created);
  auto keyed = anon().withApiKey(strField(created, "key"));
  ASSERT_STATUS(keyed.get("/auth/whoami"), 200);
  auto r = u.http.del("/api-keys/" + std::to_string(intField(created, "id")));
  ASSERT_STATUS(r, 204);
  EXPECT_TRUE(r.body.empty());
  // The very next request with the key.
  EXPECT_TRUE(IsProblem(keyed.get("/auth/whoami"), 401));
  for (const auto& item : objects(u.http.get("/api-keys").array()))
    EXPECT_NE(intField(item, "id"), intField(created, "id"));
  EXPECT_TRUE(IsProblem(u.http.del("/api-keys/" + std::to_string(intField(created, "id"))), 404));
  EXPECT_TRUE(IsProblem(u.http.del("/api-keys/abc"), 404));
}

// Two nodes on one PostgreSQL: node B has the key cached (auth.api_key_cache_seconds
// auto = 30 s); revoking it on node A reaches B through the change feed at commit.
TEST_F(ApiKeysApi, RevocationOnOneNodeReachesAnotherAtOnce) {
  if (currentBackend() != Backend::PostgreSQL) GTEST_SKIP() << "several nodes share a PostgreSQL store only";
  DaemonOptions second;
  second.databaseUrl = daemon().databaseUrl();
  DaemonProcess nodeB(second);
  nodeB.start();
  auto u = registerUser("keytwonodes");
  auto created = createKey(u.http, "shared");
  ASSERT_TRUE(created);
  // A metric of node B's /metrics (loopback: public), 0 when absent.
  auto metricOfB = [&](const std::string& name) {
    const auto text = nodeB.client().get("/metrics").body;
    const auto at = text.find("\n" + name + " ");
    return at == std::string::npos ? std::int64_t{0} : std::stoll(text.substr(at + name.size() + 2));
  };
  // The feed must be up, or B would not be caching and the check below would prove nothing.
  for (int i = 0; i < 100 && metricOfB("agent_events_change_feed_connected") != 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_EQ(metricOfB("agent_events_change_feed_connected"), 1);
  auto onB = nodeB.client().withApiKey(strField(created, "key"));
  ASSERT_STATUS(onB.get("/auth/whoami"), 200);
  const auto hitsBefore = metricOfB("agent_events_api_key_cache_hits_total");
  ASSERT_STATUS(onB.get("/auth/whoami"), 200);
  ASSERT_EQ(metricOfB("agent_events_api_key_cache_hits_total"), hitsBefore + 1) << "node B did not serve the key from its cache";
  ASSERT_STATUS(u.http.del("/api-keys/" + std::to_string(intField(created, "id"))), 204);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  int status = 200;
  while (status == 200 && std::chrono::steady_clock::now() < deadline) {
    status = onB.get("/auth/whoami").status;
    if (status == 200) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(status, 401) << "node B still accepts a key revoked on node A";

  // A deleted organization's keys stop working on B too.
  auto org = createOrg(u);
  const auto orgId = std::to_string(intField(org, "id"));
  auto inOrg = anon().withBearer(strField(org, "access_token"));
  auto key2 = createKey(inOrg, "org-key");
  ASSERT_TRUE(key2);
  auto onB2 = nodeB.client().withApiKey(strField(key2, "key"));
  ASSERT_STATUS(onB2.get("/auth/whoami"), 200);
  ASSERT_STATUS(u.http.del("/organizations/" + orgId), 204);
  status = 200;
  const auto deadline2 = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (status == 200 && std::chrono::steady_clock::now() < deadline2) {
    status = onB2.get("/auth/whoami").status;
    if (status == 200) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(status, 401) << "node B still accepts a key of an organization deleted on node A";
  EXPECT_TRUE(nodeB.stop().exited);
}

TEST_F(ApiKeysApi, KeysOfAnotherOrganizationAre404AndKeepWorking) {
  auto alice = registerUser("keyalice");
  auto bob = registerUser("keybob");
  auto created = createKey(alice.http, "alice-key");
  ASSERT_TRUE(created);
  const auto id = std::to_string(intField(created, "id"));
  EXPECT_TRUE(IsProblem(bob.http.del("/api-keys/" + id), 404));
  auto bobList = bob.http.get("/api-keys");
  ASSERT_STATUS(bobList, 200);
  EXPECT_EQ(bobList.array()->size(), 0u) << bobList.describe();
  EXPECT_STATUS(anon().withApiKey(strField(created, "key")).get("/auth/whoami"), 200);
  EXPECT_EQ(alice.http.get("/api-keys").array()->size(), 1u);
}

TEST_F(ApiKeysApi, KeysBelongToTheActiveOrganization) {
  auto u = registerUser("keyorg");
  auto org = createOrg(u);
  const auto orgId = intField(org, "id");
  auto inNewOrg = anon().withBearer(strField(org, "access_token"));
  auto created = createKey(inNewOrg, "new-org-key");
  ASSERT_TRUE(created);
  auto who = anon().withApiKey(strField(created, "key")).get("/auth/whoami");
  ASSERT_STATUS(who, 200);
  EXPECT_EQ(intField(who.object(), "orgId"), orgId);
  // Listed in that org only.
  auto personalList = u.http.get("/api-keys");
  for (const auto& item : objects(personalList.array())) EXPECT_NE(intField(item, "id"), intField(created, "id"));
  EXPECT_EQ(inNewOrg.get("/api-keys").array()->size(), 1u);
  // x-tenant-id chooses the org for a Bearer request too.
  auto viaHeader = u.http.get("/api-keys", {{"x-tenant-id", std::to_string(orgId)}});
  ASSERT_STATUS(viaHeader, 200);
  EXPECT_EQ(viaHeader.array()->size(), 1u);
  // Revoking from the other org's context cannot reach it.
  EXPECT_TRUE(IsProblem(u.http.del("/api-keys/" + std::to_string(intField(created, "id"))), 404));
  EXPECT_STATUS(anon().withApiKey(strField(created, "key")).get("/auth/whoami"), 200);
}

TEST_F(ApiKeysApi, TenantHeaderWithAKeyMustMatch) {
  auto u = registerUser("keytenant");
  auto other = registerUser("keytenantother");
  auto created = createKey(u.http, "tenant");
  ASSERT_TRUE(created);
  auto keyed = anon().withApiKey(strField(created, "key"));
  EXPECT_STATUS(keyed.get("/auth/whoami", {{"x-tenant-id", std::to_string(u.personalOrgId)}}), 200);
  EXPECT_TRUE(IsProblem(keyed.get("/auth/whoami", {{"x-tenant-id", std::to_string(other.personalOrgId)}}), 403));
  // Even an org the key's creator belongs to: a key is bound to one organization.
  auto second = createOrg(u);
  EXPECT_TRUE(IsProblem(keyed.get("/auth/whoami", {{"x-tenant-id", std::to_string(intField(second, "id"))}}), 403));
}

TEST_F(ApiKeysApi, KeyIsNotASessionForBearerOnlyEndpoints) {
  auto u = registerUser("keynotbearer");
  auto created = createKey(u.http, "limited");
  ASSERT_TRUE(created);
  auto keyed = anon().withApiKey(strField(created, "key"));
  for (const char* path : {"/users/me", "/api-keys", "/users/me/organizations"}) {
    auto r = keyed.get(path);
    EXPECT_TRUE(r.status == 401 || r.status == 403) << r.describe();
    EXPECT_EQ(r.contentType().rfind("application/problem+json", 0), 0u) << r.describe();
  }
  // A key cannot mint more keys.
  auto mint = keyed.post("/api-keys", obj({{"name", "child"}, {"scopes", arr({"publish"})}}));
  EXPECT_TRUE(mint.status == 401 || mint.status == 403) << mint.describe();
  EXPECT_EQ(u.http.get("/api-keys").array()->size(), 1u);
}

TEST_F(ApiKeysApi, RevokedKeyAfterOrgDeletion) {
  auto u = registerUser("keyorgdel");
  auto org = createOrg(u);
  auto created = createKey(anon().withBearer(strField(org, "access_token")), "doomed");
  ASSERT_TRUE(created);
  ASSERT_STATUS(u.http.del("/organizations/" + std::to_string(intField(org, "id"))), 204);
  EXPECT_TRUE(IsProblem(anon().withApiKey(strField(created, "key")).get("/auth/whoami"), 401));
}

// A channel of the user's personal organization (a new app with one channel).
std::int64_t channelOf(const TestUser& u) {
  auto tenant = u.http.withHeader("x-tenant-id", std::to_string(u.personalOrgId));
  auto app = tenant.post("/apps", obj({{"name", "keys-app"}}));
  if (app.status != 201) throw std::runtime_error(app.describe());
  auto ch = tenant.post("/apps/" + std::to_string(intField(app.object(), "id")) + "/channels", obj({{"name", "otlp"}}));
  if (ch.status != 201) throw std::runtime_error(ch.describe());
  return intField(ch.object(), "id");
}

std::optional<std::int64_t> listedDefault(const TestUser& u, std::int64_t keyId) {
  for (const auto& item : objects(u.http.get("/api-keys").array()))
    if (intField(item, "id") == keyId)
      return item->isNull("defaultChannelId") ? std::nullopt : std::optional(intField(item, "defaultChannelId"));
  throw std::runtime_error("key not listed");
}

TEST_F(ApiKeysApi, DefaultChannelIsSetOnCreateOrUpdateAndClearedWithItsChannel) {
  auto u = registerUser("keydefault");
  auto stranger = registerUser("keydefault-other");
  const auto channel = channelOf(u);
  const auto second = channelOf(u);
  const auto foreign = channelOf(stranger);

  // Set on create (an integer or its decimal string), shown by create and list.
  auto r = u.http.post("/api-keys",
                       obj({{"name", "exporter"}, {"scopes", arr({"publish"})}, {"defaultChannelId", channel}}));
  ASSERT_STATUS(r, 201);
  EXPECT_EQ(intField(r.object(), "defaultChannelId"), channel);
  const auto id = intField(r.object(), "id");
  EXPECT_EQ(listedDefault(u, id), channel);
  auto asString = u.http.post(
      "/api-keys", obj({{"name", "s"}, {"scopes", arr({"publish"})}, {"defaultChannelId", std::to_string(second)}}));
  ASSERT_STATUS(asString, 201);
  EXPECT_EQ(intField(asString.object(), "defaultChannelId"), second);
  auto without = createKey(u.http, "plain");
  ASSERT_TRUE(without);
  EXPECT_TRUE(without->isNull("defaultChannelId"));

  // Another organization's channel, or none: 422 at body.defaultChannelId, nothing created.
  const auto keysBefore = u.http.get("/api-keys").array()->size();
  for (const auto& bad :
       {Poco::Dynamic::Var(foreign), Poco::Dynamic::Var(std::int64_t{987654321}), Poco::Dynamic::Var("x")}) {
    auto refused =
        u.http.post("/api-keys", obj({{"name", "bad"}, {"scopes", arr({"publish"})}, {"defaultChannelId", bad}}));
    ASSERT_TRUE(IsProblem(refused, 422)) << refused.describe();
    EXPECT_EQ(errorLocations(refused), std::vector<std::string>{"body.defaultChannelId"});
  }
  EXPECT_EQ(u.http.get("/api-keys").array()->size(), keysBefore);

  // Changed and cleared by PATCH; the name too; a bad channel changes nothing.
  auto moved = u.http.patch("/api-keys/" + std::to_string(id), obj({{"defaultChannelId", second}}));
  ASSERT_STATUS(moved, 200);
  EXPECT_EQ(intField(moved.object(), "defaultChannelId"), second);
  EXPECT_EQ(strField(moved.object(), "name"), "exporter");
  EXPECT_EQ(strField(moved.object(), "key"), strField(r.object(), "key").substr(0, 8) + "\xE2\x80\xA6");  // truncated
  auto refused = u.http.patch("/api-keys/" + std::to_string(id), obj({{"defaultChannelId", foreign}}));
  ASSERT_TRUE(IsProblem(refused, 422));
  EXPECT_EQ(listedDefault(u, id), second);
  auto cleared = u.http.patch("/api-keys/" + std::to_string(id), "{\"defaultChannelId\": null, \"name\": \"renamed\"}");
  ASSERT_STATUS(cleared, 200);
  EXPECT_TRUE(cleared.object()->isNull("defaultChannelId"));
  EXPECT_EQ(strField(cleared.object(), "name"), "renamed");
  EXPECT_EQ(listedDefault(u, id), std::nullopt);
  // Another organization's key reads as missing.
  EXPECT_TRUE(IsProblem(stranger.http.patch("/api-keys/" + std::to_string(id), obj({{"name", "mine"}})), 404));

  // Deleting the channel clears every key's default that named it.
  ASSERT_STATUS(u.http.patch("/api-keys/" + std::to_string(id), obj({{"defaultChannelId", channel}})), 200);
  auto tenant = u.http.withHeader("x-tenant-id", std::to_string(u.personalOrgId));
  ASSERT_STATUS(tenant.del("/channel/" + std::to_string(channel)), 204);
  EXPECT_EQ(listedDefault(u, id), std::nullopt);
  EXPECT_EQ(listedDefault(u, intField(asString.object(), "id")), second);
}

}  // namespace
}  // namespace aev::testing

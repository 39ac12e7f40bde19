// The audit log over HTTP (docs/features.md#audit-log): changes of each
// resource append entries with actor, source, address and request id; the chain is
// recomputed here independently from the documented canonical form; filters and bounds
// of GET /audit-logs; verification and its signed checkpoint; admins only; no entry of
// another organization; and the offline `agent-eventsd audit verify`.
#include <Poco/DigestEngine.h>
#include <Poco/SHA2Engine.h>

#include <atomic>
#include <sstream>
#include <thread>

#include "support/api_fixture.h"

namespace aev::testing {
namespace {

class AuditApi : public ApiTest {
 protected:
  static std::vector<Poco::JSON::Object::Ptr> entries(const TestUser& u, const std::string& query = "") {
    auto r = u.http.get("/audit-logs" + query);
    if (r.status != 200) throw std::runtime_error(r.describe());
    return objects(r.object()->getArray("data"));
  }

  static std::string sha256Hex(const std::string& text) {
    Poco::SHA2Engine sha(Poco::SHA2Engine::SHA_256);
    sha.update(text);
    return Poco::DigestEngine::digestToHex(sha.digest());
  }

  // The documented canonical JSON of an entry (docs/features.md#audit-log, audit/chain.h), built here
  // from the API's own fields rather than by the daemon's code.
  static std::string canonicalText(const Poco::JSON::Object::Ptr& e) {
    auto q = [&](const char* key) {
      std::ostringstream s;
      Poco::JSON::Stringifier::stringify(e->getValue<std::string>(key), s);
      return s.str();
    };
    std::ostringstream meta;
    if (e->isNull("metadata"))
      meta << "null";
    else
      e->getObject("metadata")->stringify(meta, 0);  // sorted keys, no whitespace
    return std::string("{\"action\":") + q("action") + ",\"actorEmail\":" + q("actorEmail") +
           ",\"actorId\":" + q("actorId") + ",\"createdAt\":" + q("createdAt") + ",\"ipAddress\":" + q("ipAddress") +
           ",\"metadata\":" + meta.str() + ",\"organizationId\":" + q("organizationId") +
           ",\"requestId\":" + q("requestId") + ",\"resourceId\":" + q("resourceId") +
           ",\"resourceType\":" + q("resourceType") + ",\"seq\":" + std::to_string(intField(e, "seq")) +
           ",\"source\":" + q("source") + "}";
  }
};

TEST_F(AuditApi, ChangesOfEachResourceAppendEntriesWithActorAndRequest) {
  auto u = registerUser("audit");
  const auto org = std::to_string(u.personalOrgId);
  auto app = u.http.post("/apps", R"({"name":"billing"})");
  ASSERT_STATUS(app, 201);
  const auto appId = strField(app.object(), "appId");
  auto channel = u.http.post("/apps/" + appId + "/channels", R"({"name":"main"})");
  ASSERT_STATUS(channel, 201);
  auto key = u.http.post("/api-keys", R"({"name":"ci","scopes":["publish"]})");
  ASSERT_STATUS(key, 201);
  const auto keyId = std::to_string(intField(key.object(), "id"));
  ASSERT_STATUS(u.http.del("/api-keys/" + keyId), 204);
  ASSERT_STATUS(u.http.post("/environments", R"({"name":"Production"})"), 201);
  ASSERT_STATUS(u.http.post("/moderation/rules", R"({"name":"no secrets","action":"redact","detector":"regex",)"
                                                 R"("pattern":"sk-[a-z]+"})"),
                201);
  auto patch = u.http.patch("/organizations/" + org, R"({"description":"ours"})");
  ASSERT_STATUS(patch, 200);

  auto list = entries(u);
  std::vector<std::string> actions;
  for (const auto& e : list) actions.push_back(strField(e, "action"));
  // Newest first; registration and login open the personal organization's log.
  EXPECT_EQ(actions, (std::vector<std::string>{"organization.update", "moderation_rule.create", "environment.create",
                                               "apikey.revoke", "apikey.create", "channel.create", "app.create",
                                               "user.login", "user.register"}));
  const auto& newest = list.front();
  EXPECT_EQ(strField(newest, "actorId"), std::to_string(u.id));
  EXPECT_EQ(strField(newest, "actorEmail"), u.email);
  EXPECT_EQ(strField(newest, "source"), "dashboard");
  EXPECT_EQ(strField(newest, "ipAddress"), "127.0.0.1");
  EXPECT_EQ(strField(newest, "requestId"), patch.header("X-Request-Id"));
  EXPECT_EQ(strField(newest, "resourceType"), "organization");
  EXPECT_EQ(strField(newest, "resourceId"), org);
  auto change = newest->getObject("metadata")->getObject("description");
  ASSERT_TRUE(change);
  EXPECT_EQ(change->getValue<std::string>("to"), "ours");
  EXPECT_EQ(strField(list[3], "resourceId"), keyId);  // apikey.revoke names the key
  EXPECT_EQ(strField(list[6], "resourceId"), appId);
  EXPECT_EQ(list[6]->getObject("metadata")->getValue<std::string>("name"), "billing");
  for (const auto& e : list) {
    EXPECT_EQ(strField(e, "organizationId"), org);
    EXPECT_FALSE(e->has("$schema")) << "entries carry no $schema of their own";
  }
}

TEST_F(AuditApi, TheChainRecomputesFromTheDocumentedCanonicalForm) {
  auto u = registerUser("audit");
  for (int i = 0; i < 5; ++i)
    ASSERT_STATUS(u.http.post("/apps", R"({"name":"app )" + std::to_string(i) + R"("})"), 201);
  auto list = entries(u, "?limit=200");
  ASSERT_EQ(list.size(), 7u);  // register, login, 5 apps
  std::string prev(64, '0');
  for (auto it = list.rbegin(); it != list.rend(); ++it) {
    const auto& e = *it;
    EXPECT_EQ(intField(e, "seq"), static_cast<std::int64_t>(it - list.rbegin()) + 1);
    EXPECT_EQ(strField(e, "prevHash"), prev);
    EXPECT_EQ(strField(e, "entryHash"), sha256Hex(prev + canonicalText(e))) << canonicalText(e);
    prev = strField(e, "entryHash");
  }

  auto verify = u.http.get("/audit-logs/verify");
  ASSERT_STATUS(verify, 200);
  auto v = verify.object();
  EXPECT_EQ(strField(v, "$schema"), schemaBase() + "AuditLogVerification.json");
  EXPECT_TRUE(v->getValue<bool>("ok"));
  EXPECT_EQ(intField(v, "checked"), 7);
  EXPECT_TRUE(v->isNull("brokenAtSeq"));
  EXPECT_EQ(intField(v, "headSeq"), 7);
  EXPECT_EQ(strField(v, "headHash"), prev);
  auto cp = v->getObject("checkpoint");
  ASSERT_TRUE(cp);
  EXPECT_EQ(intField(cp, "seq"), 7);
  EXPECT_EQ(strField(cp, "entryHash"), prev);
  EXPECT_NE(strField(cp, "signedText").find(prev), std::string::npos);
  EXPECT_FALSE(strField(cp, "signature").empty());
  EXPECT_FALSE(strField(cp, "publicKey").empty());
  // A second verify finds the checkpoint it signed and matches the chain against it.
  auto again = u.http.get("/audit-logs/verify").object();
  EXPECT_EQ(intField(again, "checkpointsVerified"), 1);
}

TEST_F(AuditApi, FiftyConcurrentChangesKeepOneGaplessChain) {
  auto u = registerUser("audit-concurrent");
  std::vector<std::thread> threads;
  std::atomic<int> created{0};
  for (int t = 0; t < 10; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 5; ++i)
        if (u.http.post("/apps", R"({"name":"app )" + std::to_string(t) + "-" + std::to_string(i) + R"("})").status ==
            201)
          ++created;
    });
  for (auto& th : threads) th.join();
  ASSERT_EQ(created.load(), 50);
  auto list = entries(u, "?limit=200");
  ASSERT_EQ(list.size(), 52u);  // register, login, 50 apps
  for (std::size_t i = 0; i < list.size(); ++i)
    EXPECT_EQ(intField(list[i], "seq"), static_cast<std::int64_t>(list.size() - i));
  auto verify = u.http.get("/audit-logs/verify").object();
  EXPECT_TRUE(verify->getValue<bool>("ok")) << strField(verify, "reason");
  EXPECT_EQ(intField(verify, "checked"), 52);
}

TEST_F(AuditApi, FiltersAndBounds) {
  auto u = registerUser("audit");
  ASSERT_STATUS(u.http.post("/apps", R"({"name":"one"})"), 201);
  ASSERT_STATUS(u.http.post("/api-keys", R"({"name":"k","scopes":["read"]})"), 201);
  EXPECT_EQ(entries(u, "?action=app.create").size(), 1u);
  EXPECT_EQ(entries(u, "?resourceType=apikey").size(), 1u);
  EXPECT_EQ(entries(u, "?source=dashboard").size(), 4u);
  EXPECT_EQ(entries(u, "?source=apikey").size(), 0u);
  EXPECT_EQ(entries(u, "?limit=1").size(), 1u);
  EXPECT_EQ(entries(u, "?before=2000-01-01T00:00:00Z").size(), 0u);
  auto oldest = entries(u).back();
  EXPECT_EQ(entries(u, "?before=" + strField(oldest, "createdAt")).size(), 0u);  // exclusive
  // A seq cursor pages the same list: two pages of two, then the rest, nothing twice.
  std::vector<std::int64_t> paged;
  std::string cursor;
  for (int page = 0; page < 5; ++page) {
    auto part = entries(u, "?limit=2" + cursor);
    for (const auto& e : part) paged.push_back(intField(e, "seq"));
    if (part.size() < 2) break;
    cursor = "&beforeSeq=" + std::to_string(intField(part.back(), "seq"));
  }
  EXPECT_EQ(paged, (std::vector<std::int64_t>{4, 3, 2, 1}));
  // afterSeq goes back up: the entries just newer than a seq, still newest first.
  auto newer = entries(u, "?limit=2&afterSeq=1");
  ASSERT_EQ(newer.size(), 2u);
  EXPECT_EQ(intField(newer[0], "seq"), 3);
  EXPECT_EQ(intField(newer[1], "seq"), 2);
  EXPECT_EQ(entries(u, "?afterSeq=4").size(), 0u);
  EXPECT_EQ(entries(u, "?afterSeq=1&beforeSeq=4").size(), 2u);
  EXPECT_EQ(entries(u, "?beforeSeq=3&action=app.create").size(), 0u);  // app.create is seq 3
  EXPECT_EQ(entries(u, "?beforeSeq=4&action=app.create").size(), 1u);
  for (const char* bad :
       {"?limit=0", "?limit=201", "?source=cli", "?before=yesterday", "?beforeSeq=0", "?beforeSeq=x", "?afterSeq=-1"})
    EXPECT_TRUE(IsProblem(u.http.get(std::string("/audit-logs") + bad), 422)) << bad;
  auto list = u.http.get("/audit-logs");
  EXPECT_EQ(strField(list.object(), "$schema"), schemaBase() + "AuditLogList.json");
}

TEST_F(AuditApi, OnlyAdminsReadAndNothingCrossesOrganizations) {
  auto owner = registerUser("audit-owner");
  auto member = registerUser("audit-member");
  addMember(owner, owner.personalOrgId, member, "user");
  // The member acting on the owner's organization is not an admin there.
  auto asMember = member.http.withHeader("x-tenant-id", std::to_string(owner.personalOrgId));
  EXPECT_TRUE(IsProblem(asMember.get("/audit-logs"), 403));
  EXPECT_TRUE(IsProblem(asMember.get("/audit-logs/verify"), 403));
  EXPECT_TRUE(IsProblem(anon().get("/audit-logs"), 401));
  auto key = owner.http.post("/api-keys", R"({"name":"k","scopes":["read"]})");
  ASSERT_STATUS(key, 201);
  // Audit logs are for people: an API key (even with read) is refused.
  EXPECT_TRUE(IsProblem(anon().withApiKey(strField(key.object(), "key")).get("/audit-logs"), 403));

  // The invitation and its acceptance are in the owner's log; the member's own log has
  // only its registration and login.
  std::vector<std::string> ownerActions;
  for (const auto& e : entries(owner)) ownerActions.push_back(strField(e, "action"));
  EXPECT_NE(std::find(ownerActions.begin(), ownerActions.end(), "invitation.create"), ownerActions.end());
  EXPECT_NE(std::find(ownerActions.begin(), ownerActions.end(), "invitation.accept"), ownerActions.end());
  for (const auto& e : entries(member)) {
    EXPECT_EQ(strField(e, "organizationId"), std::to_string(member.personalOrgId));
    EXPECT_NE(strField(e, "action"), "invitation.accept");
  }

  // A role change by the owner is a member.role_change with from/to.
  ASSERT_STATUS(owner.http.patch(
                    "/organizations/" + std::to_string(owner.personalOrgId) + "/members/" + std::to_string(member.id),
                    R"({"role":"admin"})"),
                200);
  auto change = entries(owner, "?action=member.role_change");
  ASSERT_EQ(change.size(), 1u);
  EXPECT_EQ(strField(change.front(), "resourceId"), std::to_string(member.id));
  EXPECT_EQ(change.front()->getObject("metadata")->getObject("role")->getValue<std::string>("to"), "admin");
  EXPECT_STATUS(asMember.get("/audit-logs"), 200);  // an admin now
}

TEST_F(AuditApi, OfflineVerifyChecksEveryChainOfTheStore) {
  auto u = registerUser("audit-offline");
  ASSERT_STATUS(u.http.post("/apps", R"({"name":"x"})"), 201);
  ASSERT_STATUS(u.http.get("/audit-logs/verify"), 200);  // a signed checkpoint to check against
  std::vector<std::string> argv{DaemonProcess::binaryPath(), "--config", daemon().configPath()};
  if (!daemon().databaseUrl().empty()) argv.insert(argv.end(), {"--database-url", daemon().databaseUrl()});
  argv.insert(argv.end(), {"audit", "verify", std::to_string(u.personalOrgId)});
  auto run = runCommand(argv);
  EXPECT_TRUE(run.ok()) << run.status.describe() << "\n" << run.output;
  EXPECT_NE(run.output.find("organization " + std::to_string(u.personalOrgId) + ": ok, 3 entries checked"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("1 signed checkpoint(s) matched"), std::string::npos) << run.output;

  argv.back() = "not-a-number";
  auto bad = runCommand(argv);
  EXPECT_EQ(bad.status.code, 64) << bad.output;
}

}  // namespace
}  // namespace aev::testing

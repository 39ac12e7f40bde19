// /spend-policies (docs/features.md#spend-policies): create, list, get, PATCH, DELETE;
// every invalid field a 422 with errors[]; scope ids of another organization refused;
// another organization's policy a 404 and unchanged; the routes in the OpenAPI document.
#include <algorithm>

#include "integration/spend/spend_support.h"

namespace aev::testing {
namespace {

class PoliciesApi : public SpendTest {
 protected:
  static std::vector<std::string> invalid(const Tenant& t, const std::string& method, const std::string& path,
                                          const Poco::JSON::Object::Ptr& body) {
    auto r = method == "POST" ? t.http.post(path, body) : t.http.patch(path, body);
    EXPECT_TRUE(IsProblem(r, 422)) << r.describe();
    auto locations = errorLocations(r);
    std::sort(locations.begin(), locations.end());
    return locations;
  }
};

using Locations = std::vector<std::string>;

TEST_F(PoliciesApi, CreateAnswersThePolicyRecord) {
  auto t = newTenant("spend");
  auto appId = createApp(t);
  auto body = obj({{"name", "  Search team  "},
                   {"appId", std::to_string(appId)},
                   {"model", "gpt-4o"},
                   {"provider", "openai"},
                   {"userId", "alice"},
                   {"tagKey", "team"},
                   {"tagValue", "search"},
                   {"limitUsd", 250.5},
                   {"windowType", "week"},
                   {"cooldownMins", 15},
                   {"destination", "https://hooks.example.com/spend"},
                   {"destinationType", "webhook"},
                   {"rungs", arr({rung(50, "alert"), rung(80, "fallback", "", "gpt-4o-mini"), rung(100, "block")})}});
  auto r = t.http.post("/spend-policies", body);
  ASSERT_STATUS(r, 201);
  auto p = r.object();
  EXPECT_EQ(strField(p, "$schema"), schemaBase() + "SpendPolicy.json");
  EXPECT_EQ(strField(p, "policyId"), strField(p, "id"));
  EXPECT_EQ(strField(p, "orgId"), std::to_string(t.orgId));
  EXPECT_EQ(strField(p, "name"), "Search team");
  EXPECT_EQ(strField(p, "appId"), std::to_string(appId));
  EXPECT_TRUE(p->isNull("apiKeyId"));
  EXPECT_TRUE(p->isNull("environmentId"));
  EXPECT_EQ(strField(p, "model"), "gpt-4o");
  EXPECT_EQ(strField(p, "tagValue"), "search");
  EXPECT_DOUBLE_EQ(p->getValue<double>("limitUsd"), 250.5);
  EXPECT_DOUBLE_EQ(p->getValue<double>("currentSpendUsd"), 0.0);
  EXPECT_EQ(strField(p, "windowType"), "week");
  EXPECT_EQ(intField(p, "cooldownMins"), 15);
  EXPECT_EQ(strField(p, "destinationType"), "webhook");
  EXPECT_TRUE(p->getValue<bool>("enabled"));
  auto rungs = objects(p->getArray("rungs"));
  ASSERT_EQ(rungs.size(), 3u);
  EXPECT_EQ(intField(rungs[0], "at_percent"), 50);
  EXPECT_TRUE(rungs[0]->isNull("block_mode"));
  EXPECT_TRUE(rungs[0]->isNull("fallback_model"));
  EXPECT_EQ(strField(rungs[1], "fallback_model"), "gpt-4o-mini");
  EXPECT_EQ(strField(rungs[2], "block_mode"), "hard");  // the default of a block rung
  EXPECT_EQ(strField(p, "createdAt"), strField(p, "updatedAt"));
  // Defaults: cooldown 60 minutes; no destination.
  auto minimal = createPolicy(t, policyBody(5, arr({rung(100, "alert")})));
  EXPECT_EQ(intField(minimal, "cooldownMins"), 60);
  EXPECT_TRUE(minimal->isNull("destination"));
}

TEST_F(PoliciesApi, ListGetPatchDelete) {
  auto t = newTenant("crud");
  auto a = createPolicy(t, policyBody(10, arr({rung(100, "alert")})));
  auto b = createPolicy(t, policyBody(20, arr({rung(90, "block", "soft")}), "day"));
  auto list = t.http.get("/spend-policies");
  ASSERT_STATUS(list, 200);
  EXPECT_EQ(strField(list.object(), "$schema"), schemaBase() + "SpendPolicyList.json");
  auto items = objects(list.object()->getArray("policies"));
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(strField(items[0], "policyId"), strField(a, "policyId"));  // creation order
  EXPECT_FALSE(items[0]->has("$schema"));

  const auto path = "/spend-policies/" + strField(b, "policyId");
  ASSERT_STATUS(t.http.get(path), 200);
  auto patched = t.http.patch(path, obj({{"name", "renamed"}, {"limitUsd", 30}, {"model", "m"}, {"enabled", false}}));
  ASSERT_STATUS(patched, 200);
  EXPECT_EQ(strField(patched.object(), "name"), "renamed");
  EXPECT_DOUBLE_EQ(patched.object()->getValue<double>("limitUsd"), 30);
  EXPECT_FALSE(patched.object()->getValue<bool>("enabled"));
  EXPECT_EQ(strField(patched.object(), "windowType"), "day");  // untouched
  EXPECT_NE(strField(patched.object(), "updatedAt"), strField(b, "updatedAt"));
  auto cleared = t.http.patch(path, obj({{"model", Poco::Dynamic::Var()}}));
  ASSERT_STATUS(cleared, 200);
  EXPECT_TRUE(cleared.object()->isNull("model"));

  ASSERT_STATUS(t.http.del(path), 204);
  EXPECT_TRUE(IsProblem(t.http.get(path), 404));
  EXPECT_TRUE(IsProblem(t.http.del(path), 404));
  EXPECT_EQ(objects(t.http.get("/spend-policies").object()->getArray("policies")).size(), 1u);
  EXPECT_TRUE(IsProblem(t.http.get("/spend-policies/abc"), 404));

  // Every change is in the organization's audit log, with what changed.
  auto audit = t.http.get("/audit-logs?resourceType=spend_policy");
  ASSERT_STATUS(audit, 200);
  auto entries = objects(audit.object()->getArray("data"));
  std::vector<std::string> actions;
  for (const auto& e : entries) actions.push_back(strField(e, "action"));
  EXPECT_EQ(actions, (std::vector<std::string>{"spend_policy.delete", "spend_policy.update", "spend_policy.update",
                                               "spend_policy.create", "spend_policy.create"}));
  auto rename = entries[2]->getObject("metadata")->getObject("name");
  ASSERT_TRUE(rename);
  EXPECT_EQ(rename->getValue<std::string>("to"), "renamed");
  EXPECT_EQ(strField(entries[0], "resourceId"), strField(b, "policyId"));
}

TEST_F(PoliciesApi, EveryInvalidFieldIsOne422) {
  auto t = newTenant("invalid");
  auto body = obj({{"name", ""},
                   {"limitUsd", 0},
                   {"windowType", "year"},
                   {"cooldownMins", -1},
                   {"tagKey", "team"},
                   {"destinationType", "pager"},
                   {"currentSpendUsd", 5},
                   {"limitUSD", 3},
                   {"rungs", arr({rung(80, "alert"), rung(50, "block", "maybe"), rung(90, "fallback")})}});
  EXPECT_EQ(invalid(t, "POST", "/spend-policies", body),
            (Locations{"body.cooldownMins", "body.currentSpendUsd", "body.destination", "body.destinationType",
                       "body.limitUSD", "body.limitUsd", "body.name", "body.rungs[1].at_percent",
                       "body.rungs[1].block_mode", "body.rungs[2].fallback_model", "body.tagValue",
                       "body.windowType"}));
  // A mistyped rung is reported alone (the rungs' values are checked once they are read).
  EXPECT_EQ(invalid(t, "POST", "/spend-policies",
                    policyBody(1, arr({rung(80, "alert"), obj({{"at_percent", "x"}, {"action", "alert"}, {"x", 1}}),
                                       rung(10, "fallback")}))),
            (Locations{"body.rungs[1].at_percent", "body.rungs[1].x"}));
  EXPECT_EQ(invalid(t, "POST", "/spend-policies", obj({})),
            (Locations{"body.limitUsd", "body.name", "body.rungs", "body.windowType"}));
  EXPECT_EQ(invalid(t, "POST", "/spend-policies", policyBody(1, arr({}))), (Locations{"body.rungs"}));
  EXPECT_EQ(invalid(t, "POST", "/spend-policies", policyBody(1, arr({rung(1001, "alert")}))),
            (Locations{"body.rungs[0].at_percent"}));
  auto tooMany = policyBody(1, arr({}));
  Poco::JSON::Array::Ptr eleven = new Poco::JSON::Array;
  for (int i = 1; i <= 11; ++i) eleven->add(rung(i, "alert"));
  tooMany->set("rungs", eleven);
  EXPECT_EQ(invalid(t, "POST", "/spend-policies", tooMany), (Locations{"body.rungs"}));
  auto textLimit = policyBody(1, arr({rung(10, "alert")}));
  textLimit->set("limitUsd", "10");
  EXPECT_EQ(invalid(t, "POST", "/spend-policies", textLimit), (Locations{"body.limitUsd"}));

  // A refused PATCH changes nothing.
  auto p = createPolicy(t, policyBody(10, arr({rung(50, "alert")})));
  const auto path = "/spend-policies/" + strField(p, "policyId");
  EXPECT_EQ(invalid(t, "PATCH", path, obj({{"name", "new"}, {"rungs", arr({rung(50, "fallback")})}})),
            (Locations{"body.rungs[0].fallback_model"}));
  EXPECT_EQ(strField(t.http.get(path).object(), "name"), strField(p, "name"));
  EXPECT_EQ(invalid(t, "PATCH", path, obj({{"tagValue", "x"}})), (Locations{"body.tagKey"}));
  EXPECT_EQ(invalid(t, "PATCH", path, obj({{"policyId", "9"}})), (Locations{"body.policyId"}));
  EXPECT_EQ(t.http.get("/spend-policies").object()->getArray("policies")->size(), 1u) << "nothing was created";
}

TEST_F(PoliciesApi, ScopeIdsMustNameResourcesOfTheOrganization) {
  auto t = newTenant("own");
  auto other = newTenant("other");
  auto foreignApp = createApp(other);
  auto foreignKey = createKey(other, {"publish"});
  auto foreignEnv = other.http.post("/environments", obj({{"name", "Prod"}, {"slug", "prod"}}));
  ASSERT_STATUS(foreignEnv, 201);
  auto body = policyBody(5, arr({rung(100, "alert")}));
  body->set("appId", foreignApp);
  body->set("apiKeyId", foreignKey.id);
  body->set("environmentId", strField(foreignEnv.object(), "environmentId"));
  EXPECT_EQ(invalid(t, "POST", "/spend-policies", body),
            (Locations{"body.apiKeyId", "body.appId", "body.environmentId"}));
  auto ownEnv = t.http.post("/environments", obj({{"name", "Prod"}, {"slug", "prod"}}));
  ASSERT_STATUS(ownEnv, 201);
  body->set("appId", createApp(t));
  body->set("apiKeyId", createKey(t, {"publish"}).id);
  body->set("environmentId", strField(ownEnv.object(), "environmentId"));
  ASSERT_STATUS(t.http.post("/spend-policies", body), 201);
}

TEST_F(PoliciesApi, AnotherOrganizationsPolicyIsNotFoundAndUnchanged) {
  auto owner = newTenant("owner");
  auto intruder = newTenant("intruder");
  auto p = createPolicy(owner, policyBody(10, arr({rung(100, "alert")})));
  const auto path = "/spend-policies/" + strField(p, "policyId");
  EXPECT_TRUE(IsProblem(intruder.http.get(path), 404));
  EXPECT_TRUE(IsProblem(intruder.http.patch(path, obj({{"name", "mine"}})), 404));
  EXPECT_TRUE(IsProblem(intruder.http.del(path), 404));
  EXPECT_EQ(intruder.http.get("/spend-policies").object()->getArray("policies")->size(), 0u);
  auto still = owner.http.get(path);
  ASSERT_STATUS(still, 200);
  EXPECT_EQ(strField(still.object(), "name"), strField(p, "name"));
}

TEST_F(PoliciesApi, PoliciesNeedABearerUser) {
  auto t = newTenant("auth");
  auto key = createKey(t, {"publish", "read"});
  EXPECT_TRUE(IsProblem(anon().get("/spend-policies"), 401));
  auto keyed = anon().withApiKey(key.key);
  auto r = keyed.get("/spend-policies");
  EXPECT_TRUE(r.status == 401 || r.status == 403) << r.describe();
}

TEST_F(PoliciesApi, RoutesAndSchemasArePublished) {
  auto doc = anon().get("/openapi.json");
  ASSERT_STATUS(doc, 200);
  auto paths = doc.object()->getObject("paths");
  for (const char* path : {"/spend-policies", "/spend-policies/{policyId}", "/spend-policies/check",
                           "/spend-policies/{policyId}/refusals"})
    EXPECT_TRUE(paths->has(path)) << path;
  for (const char* name : {"SpendPolicy", "SpendPolicyList", "SpendCheck", "SpendRefusalList"})
    EXPECT_STATUS(anon().get(std::string("/schemas/") + name + ".json"), 200);
}

}  // namespace
}  // namespace aev::testing

// /moderation/rules (docs/features.md#moderation): create, list, get, PATCH, DELETE;
// every invalid field a 422 with errors[]; another organization's rule a 404 and
// unchanged; who may read and write; the routes in the OpenAPI document.
#include "integration/moderation/moderation_support.h"

namespace aev::testing {
namespace {

class RulesApi : public ModerationTest {
 protected:
  static std::vector<std::string> invalid(const Tenant& t, const std::string& method, const std::string& path,
                                          const std::string& body) {
    auto r = method == "POST" ? t.http.post(path, body, {{"Content-Type", "application/json"}})
                              : t.http.patch(path, body, {{"Content-Type", "application/json"}});
    EXPECT_TRUE(IsProblem(r, 422)) << body;
    return errorLocations(r);
  }
};

using Locations = std::vector<std::string>;

TEST_F(RulesApi, CreateAnswersTheRuleRecord) {
  auto t = newTenant("rules");
  auto r = postRule(
      t,
      obj({{"name", "No secrets"}, {"action", "redact"}, {"detector", "regex"}, {"pattern", "sk-[A-Za-z0-9]{20,}"}}));
  ASSERT_STATUS(r, 201);
  auto rule = r.object();
  EXPECT_EQ(strField(rule, "$schema"), schemaBase() + "ModerationRule.json");
  EXPECT_EQ(strField(rule, "ruleId"), strField(rule, "id"));
  EXPECT_EQ(strField(rule, "orgId"), std::to_string(t.orgId));
  EXPECT_EQ(strField(rule, "name"), "No secrets");
  EXPECT_EQ(strField(rule, "action"), "redact");
  EXPECT_EQ(strField(rule, "detector"), "regex");
  EXPECT_EQ(strField(rule, "pattern"), "sk-[A-Za-z0-9]{20,}");
  EXPECT_EQ(strField(rule, "target"), "request");  // the default
  EXPECT_TRUE(rule->getValue<bool>("enabled"));
  EXPECT_EQ(strField(rule, "createdAt"), strField(rule, "updatedAt"));
  // Plugin detectors need no pattern; pattern is null then.
  auto email = createRule(t, "emails", "flag", "pii.email", "", "response");
  EXPECT_TRUE(email->isNull("pattern"));
  EXPECT_EQ(strField(email, "target"), "response");
  createRule(t, "shell", "block", "tool_name", "shell", "tool_call");
  createRule(t, "etc", "redact", "tool_arg", "$.args.path ~ /^\\/etc\\//", "tool_call");
  auto disabled = postRule(
      t, obj({{"name", "off"}, {"action", "flag"}, {"detector", "keyword"}, {"pattern", "x"}, {"enabled", false}}));
  ASSERT_STATUS(disabled, 201);
  EXPECT_FALSE(disabled.object()->getValue<bool>("enabled"));
}

TEST_F(RulesApi, ListGetPatchDelete) {
  auto t = newTenant("crud");
  auto a = createRule(t, "first", "flag", "keyword", "alpha");
  auto b = createRule(t, "second", "block", "regex", "beta+");
  auto list = t.http.get("/moderation/rules");
  ASSERT_STATUS(list, 200);
  EXPECT_EQ(strField(list.object(), "$schema"), schemaBase() + "ModerationRuleList.json");
  auto items = objects(listOf(list));
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(strField(items[0], "name"), "first");  // creation order: the evaluation order
  EXPECT_EQ(strField(items[1], "name"), "second");
  EXPECT_FALSE(items[0]->has("$schema"));

  const auto path = "/moderation/rules/" + strField(b, "ruleId");
  auto got = t.http.get(path);
  ASSERT_STATUS(got, 200);
  EXPECT_EQ(strField(got.object(), "pattern"), "beta+");

  auto patched = t.http.patch(path, obj({{"name", "renamed"}, {"enabled", false}, {"target", "response"}}));
  ASSERT_STATUS(patched, 200);
  EXPECT_EQ(strField(patched.object(), "name"), "renamed");
  EXPECT_FALSE(patched.object()->getValue<bool>("enabled"));
  EXPECT_EQ(strField(patched.object(), "target"), "response");
  EXPECT_EQ(strField(patched.object(), "pattern"), "beta+");  // untouched
  EXPECT_EQ(strField(patched.object(), "createdAt"), strField(b, "createdAt"));
  EXPECT_NE(strField(patched.object(), "updatedAt"), strField(b, "updatedAt"));
  // A detector change that needs no pattern: clear it in the same request.
  auto toPlugin = t.http.patch(path, obj({{"detector", "pii.email"}, {"pattern", Poco::Dynamic::Var()}}));
  ASSERT_STATUS(toPlugin, 200);
  EXPECT_TRUE(toPlugin.object()->isNull("pattern"));

  EXPECT_STATUS(t.http.del(path), 204);
  EXPECT_TRUE(IsProblem(t.http.get(path), 404));
  EXPECT_TRUE(IsProblem(t.http.del(path), 404));
  EXPECT_EQ(objects(listOf(t.http.get("/moderation/rules"))).size(), 1u);
  EXPECT_STATUS(t.http.get("/moderation/rules/" + strField(a, "ruleId")), 200);
}

TEST_F(RulesApi, EveryInvalidFieldIs422) {
  auto t = newTenant("bad");
  EXPECT_EQ(invalid(t, "POST", "/moderation/rules", "{}"), (Locations{"body.name", "body.action", "body.detector"}));
  EXPECT_EQ(invalid(t, "POST", "/moderation/rules", R"({"name":5,"action":true,"detector":[],"target":1,
            "pattern":{},"enabled":"yes","colour":"red"})"),
            (Locations{"body.name", "body.action", "body.detector", "body.target", "body.pattern", "body.enabled",
                       "body.colour"}));
  EXPECT_EQ(
      invalid(t, "POST", "/moderation/rules", R"({"name":null,"action":"flag","detector":"regex","pattern":"x"})"),
      Locations{"body.name"});
  // A type problem and value problems in one body: all of them in one answer.
  EXPECT_EQ(invalid(t, "POST", "/moderation/rules", R"({"name":"","action":"ban","detector":"regex","enabled":"yes"})"),
            (Locations{"body.enabled", "body.name", "body.action", "body.pattern"}));
  const std::string longName(121, 'n');
  EXPECT_EQ(invalid(t, "POST", "/moderation/rules",
                    R"({"name":")" + longName + R"(","action":"ban","detector":"regex","target":"everything"})"),
            (Locations{"body.name", "body.action", "body.target", "body.pattern"}));
  EXPECT_EQ(
      invalid(t, "POST", "/moderation/rules", R"({"name":"   ","action":"flag","detector":"keyword","pattern":"x"})"),
      Locations{"body.name"});
  EXPECT_EQ(invalid(t, "POST", "/moderation/rules", R"({"name":"x","action":"flag","detector":"pii.nope"})"),
            Locations{"body.detector"});
  EXPECT_EQ(invalid(t, "POST", "/moderation/rules",
                    R"({"name":"x","action":"flag","detector":"pii.email","pattern":"unused"})"),
            Locations{"body.pattern"});
  for (const char* detector : {"regex", "keyword", "tool_name", "tool_arg"})
    EXPECT_EQ(
        invalid(t, "POST", "/moderation/rules",
                std::string(R"({"name":"x","action":"flag","target":"tool_call","detector":")") + detector + R"("})"),
        Locations{"body.pattern"})
        << detector;
  // RE2: malformed, backtracking-only features, over-large programs, too long.
  for (const char* pattern : {R"((unclosed)", R"((a)\\1)", R"(\\pL{1000}\\pL{1000}\\pL{1000}\\pL{1000})", R"(a{1001})"})
    EXPECT_EQ(
        invalid(t, "POST", "/moderation/rules",
                std::string(R"({"name":"x","action":"block","detector":"regex","pattern":")") + pattern + R"("})"),
        Locations{"body.pattern"})
        << pattern;
  EXPECT_EQ(
      invalid(t, "POST", "/moderation/rules",
              R"({"name":"x","action":"block","detector":"keyword","pattern":")" + std::string(4097, 'k') + R"("})"),
      Locations{"body.pattern"});
  // tool_name and tool_arg only read tool calls; tool_arg expressions are checked.
  EXPECT_EQ(invalid(t, "POST", "/moderation/rules", R"({"name":"x","action":"block","detector":"tool_name",
            "pattern":"shell"})"),
            Locations{"body.target"});
  EXPECT_EQ(invalid(t, "POST", "/moderation/rules", R"({"name":"x","action":"block","detector":"tool_arg",
            "target":"tool_call","pattern":"args.path ~ /unclosed"})"),
            Locations{"body.pattern"});
  auto problem = t.http.post("/moderation/rules", R"({"name":"x","action":"flag","detector":"tool_arg",
      "target":"tool_call","pattern":"args..x"})",
                             {{"Content-Type", "application/json"}});
  EXPECT_NE(problem.body.find("at character 6"), std::string::npos) << problem.body;

  auto rule = createRule(t, "ok", "flag", "keyword", "k");
  const auto path = "/moderation/rules/" + strField(rule, "ruleId");
  EXPECT_EQ(invalid(t, "PATCH", path, R"({"action":"ban"})"), Locations{"body.action"});
  EXPECT_EQ(invalid(t, "PATCH", path, R"({"pattern":null})"), Locations{"body.pattern"});
  EXPECT_EQ(invalid(t, "PATCH", path, R"({"detector":"tool_name"})"), Locations{"body.target"});
  EXPECT_EQ(invalid(t, "PATCH", path, R"({"enabled":1})"), Locations{"body.enabled"});
  EXPECT_EQ(invalid(t, "PATCH", path, R"({"nmae":"typo"})"), Locations{"body.nmae"});
  // None of those changed it.
  auto unchanged = t.http.get(path).object();
  EXPECT_EQ(strField(unchanged, "updatedAt"), strField(rule, "updatedAt"));
  EXPECT_EQ(objects(listOf(t.http.get("/moderation/rules"))).size(), 1u);
}

TEST_F(RulesApi, AnotherOrganizationsRuleIsNotFoundAndUnchanged) {
  auto owner = newTenant("owner");
  auto other = newTenant("other");
  auto rule = createRule(owner, "mine", "block", "keyword", "secret");
  const auto path = "/moderation/rules/" + strField(rule, "ruleId");
  EXPECT_TRUE(IsProblem(other.http.get(path), 404));
  EXPECT_TRUE(IsProblem(other.http.patch(path, obj({{"name", "stolen"}})), 404));
  EXPECT_TRUE(IsProblem(other.http.del(path), 404));
  EXPECT_TRUE(objects(listOf(other.http.get("/moderation/rules"))).empty());
  EXPECT_EQ(strField(owner.http.get(path).object(), "name"), "mine");
  for (const char* bad :
       {"/moderation/rules/abc", "/moderation/rules/-1", "/moderation/rules/0", "/moderation/rules/99999999"})
    EXPECT_TRUE(IsProblem(owner.http.get(bad), 404)) << bad;
}

TEST_F(RulesApi, WritesNeedAMemberReadsOfReportsTakeAReadKey) {
  auto t = newTenant("auth");
  auto body = obj({{"name", "x"}, {"action", "flag"}, {"detector", "keyword"}, {"pattern", "x"}});
  EXPECT_TRUE(IsProblem(anon().post("/moderation/rules", body), 401));
  EXPECT_TRUE(IsProblem(anon().get("/moderation/rules"), 401));
  auto key = createKey(t, {"publish", "read", "subscribe"});
  auto keyed = anon().withApiKey(key.key);
  // Rules are configuration: Bearer users of the organization only, like environments.
  EXPECT_TRUE(IsProblem(keyed.post("/moderation/rules", body), 403));
  EXPECT_TRUE(IsProblem(keyed.get("/moderation/rules"), 403));
  // The reports read like analytics: a key with `read` is enough; `publish` alone is not.
  EXPECT_STATUS(keyed.get("/moderation/violations"), 200);
  EXPECT_STATUS(keyed.get("/moderation/efficacy"), 200);
  auto publishOnly = anon().withApiKey(createKey(t, {"publish"}).key);
  EXPECT_TRUE(IsProblem(publishOnly.get("/moderation/efficacy"), 403));
  EXPECT_STATUS(publishOnly.post("/moderation/evaluate", obj({{"payload", obj({{"a", "b"}})}})), 200);
  auto readOnly = anon().withApiKey(createKey(t, {"read"}).key);
  EXPECT_TRUE(IsProblem(readOnly.post("/moderation/evaluate", obj({{"payload", obj({{"a", "b"}})}})), 403));
}

TEST_F(RulesApi, DocumentedInOpenApiWithSchemas) {
  auto doc = anon().get("/openapi.json");
  ASSERT_STATUS(doc, 200);
  auto paths = doc.object()->getObject("paths");
  for (const char* p : {"/moderation/rules", "/moderation/rules/{ruleId}", "/moderation/violations",
                        "/moderation/efficacy", "/moderation/evaluate"})
    EXPECT_TRUE(paths->has(p)) << p;
  auto efficacy = paths->getObject("/moderation/efficacy")->getObject("get");
  std::size_t queryParameters = 0;
  for (std::size_t i = 0; i < efficacy->getArray("parameters")->size(); ++i)
    queryParameters += efficacy->getArray("parameters")->getObject(i)->getValue<std::string>("in") == "query";
  EXPECT_EQ(queryParameters, 2u);  // besides the x-tenant-id header every authenticated route has
  for (const char* name :
       {"ModerationRule", "ModerationRuleList", "ModerationViolationList", "ModerationEfficacy", "ModerationVerdict"})
    EXPECT_STATUS(anon().get(std::string("/schemas/") + name + ".json"), 200);
}

}  // namespace
}  // namespace aev::testing

// GET /moderation/detector-kinds (docs/features.md#moderation): every detector a rule may
// name, the four built-in ones first, then each loaded plugin's with its configuration
// schema in the plugin's own property order. The daemon loads the standard plugins, the
// SDK's example detector (sdk/examples/detector_example, "acme.customer_number") and the
// typed fixture (tests/plugins/fixtures/typed_file_sinks.cpp, "typed.word") from three
// directories (AEV_PLUGIN_DIRS). A rule of each listed plugin detector, configured as its
// schema says, fires on a published event.
#include <algorithm>
#include <cstdlib>
#include <map>

#include "integration/moderation/moderation_support.h"

namespace aev::testing {
namespace {

std::string detectorPluginDirs() {
  const char* dirs = std::getenv("AEV_PLUGIN_DIRS");
  if (!dirs || !*dirs) throw std::runtime_error("AEV_PLUGIN_DIRS must list the standard, example and fixture dirs");
  return dirs;
}

class DetectorKindsApi : public ModerationTest {
 public:
  static void SetUpTestSuite() { startDaemon(options({{"plugins.dir", detectorPluginDirs()}})); }

 protected:
  static std::map<std::string, Poco::JSON::Object::Ptr> kindsByName(const HttpResult& r) {
    std::map<std::string, Poco::JSON::Object::Ptr> out;
    for (const auto& k : objects(r.object()->getArray("data"))) out[strField(k, "name")] = k;
    return out;
  }
};

TEST_F(DetectorKindsApi, ListsTheBuiltInAndEveryPluginDetectorWithItsSchema) {
  auto t = newTenant("kinds");
  auto r = t.http.get("/moderation/detector-kinds");
  ASSERT_STATUS(r, 200);
  EXPECT_NE(strField(r.object(), "$schema").find("/schemas/DetectorKindList.json"), std::string::npos) << r.body;
  std::vector<std::string> names;
  for (const auto& k : objects(r.object()->getArray("data"))) names.push_back(strField(k, "name"));
  ASSERT_GE(names.size(), 4u) << r.body;
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 4),
            (std::vector<std::string>{"regex", "keyword", "tool_name", "tool_arg"}));
  auto kinds = kindsByName(r);
  for (const char* name : {"pii.email", "prompt_injection", "acme.customer_number", "typed.word"})
    EXPECT_EQ(kinds.count(name), 1u) << name << ": " << r.body;
  if (HasFailure()) return;

  // A built-in detector: no plugin, no schema, a pattern; the tool ones scan tool calls only.
  auto regex = kinds["regex"];
  EXPECT_TRUE(regex->isNull("plugin"));
  EXPECT_TRUE(regex->getValue<bool>("builtIn"));
  EXPECT_TRUE(regex->getValue<bool>("takesPattern"));
  EXPECT_TRUE(regex->isNull("configSchema"));
  EXPECT_EQ(toJson(regex->get("targets")), R"(["request","response","tool_call"])");
  EXPECT_NE(strField(regex, "description").find("RE2"), std::string::npos);
  EXPECT_EQ(toJson(kinds["tool_arg"]->get("targets")), R"(["tool_call"])");

  // The SDK example: its plugin, description, the per-rule schema as it declares it.
  auto acme = kinds["acme.customer_number"];
  EXPECT_EQ(strField(acme, "plugin"), "detector_example");
  EXPECT_EQ(strField(acme, "description"), "ACME customer numbers");
  EXPECT_FALSE(acme->getValue<bool>("builtIn"));
  EXPECT_FALSE(acme->getValue<bool>("takesPattern"));
  // As the plugin wrote it, key order included (the answer's text; a parsed object is sorted).
  EXPECT_NE(r.body.find(R"("configSchema":{"type":"object","properties":{"digits":{"type":"integer","minimum":4,)"
                        R"("maximum":16,"default":8}}})"),
            std::string::npos)
      << r.body;
  EXPECT_EQ(toJson(acme->get("requiredKeys")), "[]");
  EXPECT_EQ(toJson(acme->get("targets")), R"(["request","response","tool_call"])");

  // The typed fixture: properties in the plugin's order (not alphabetical), the required
  // and the secret keys, the targets it declares.
  auto word = kinds["typed.word"];
  EXPECT_EQ(strField(word, "plugin"), "fixture_typed_file");
  EXPECT_EQ(word->getObject("configSchema")->getObject("properties")->size(), 5u);
  const auto properties = r.body.find(R"("properties":{"word":)");
  ASSERT_NE(properties, std::string::npos) << r.body;
  std::vector<std::size_t> at;
  for (const char* key : {"\"word\":{", "\"score\":{", "\"caseSensitive\":{", "\"label\":{", "\"token\":{"})
    at.push_back(r.body.find(key, properties));
  EXPECT_TRUE(std::is_sorted(at.begin(), at.end()) && at.back() != std::string::npos) << r.body.substr(properties, 600);
  EXPECT_EQ(toJson(word->get("requiredKeys")), R"(["word"])");
  EXPECT_EQ(toJson(word->get("secretKeys")), R"(["token"])");
  EXPECT_EQ(toJson(word->get("targets")), R"(["request","response"])");
  EXPECT_EQ(toJson(kinds["prompt_injection"]->get("targets")), R"(["request","tool_call"])");
}

TEST_F(DetectorKindsApi, AnApiKeyWithReadMayListThemAndOthersMayNot) {
  auto t = newTenant("kindscope");
  auto reader = anon().withApiKey(createKey(t, {"read"}).key);
  auto publisher = anon().withApiKey(createKey(t, {"publish"}).key);
  auto byKey = reader.get("/moderation/detector-kinds");
  ASSERT_STATUS(byKey, 200);
  auto byUser = t.http.get("/moderation/detector-kinds");
  ASSERT_STATUS(byUser, 200);
  EXPECT_EQ(toJson(byKey.object()->get("data")), toJson(byUser.object()->get("data")));
  EXPECT_TRUE(IsProblem(publisher.get("/moderation/detector-kinds"), 403));
  EXPECT_TRUE(IsProblem(anon().get("/moderation/detector-kinds"), 401));
}

TEST_F(DetectorKindsApi, RulesOfTheListedPluginDetectorsTakeTheirSchemasSettingsAndFire) {
  auto p = newPublisher("kindrule");
  // The example detector refuses digits outside 4..16: a 422 on detectorConfig, nothing saved.
  auto refused = postRule(p.tenant, obj({{"name", "short numbers"},
                                         {"action", "flag"},
                                         {"detector", "acme.customer_number"},
                                         {"detectorConfig", obj({{"digits", 2}})}}));
  ASSERT_TRUE(IsProblem(refused, 422));
  EXPECT_EQ(errorLocations(refused), (std::vector<std::string>{"body.detectorConfig"}));
  EXPECT_NE(refused.body.find("digits must be 4..16"), std::string::npos) << refused.body;
  refused = postRule(p.tenant, obj({{"name", "not a word"},
                                    {"action", "flag"},
                                    {"detector", "typed.word"},
                                    {"detectorConfig", obj({{"word", "two words"}})}}));
  ASSERT_TRUE(IsProblem(refused, 422));
  EXPECT_NE(refused.body.find("word must be letters only"), std::string::npos) << refused.body;
  EXPECT_TRUE(objects(listOf(p.tenant.http.get("/moderation/rules"))).empty());

  auto acme = postRule(p.tenant, obj({{"name", "six-digit customers"},
                                      {"action", "redact"},
                                      {"detector", "acme.customer_number"},
                                      {"detectorConfig", obj({{"digits", 6}})}}));
  ASSERT_STATUS(acme, 201);
  auto word = postRule(p.tenant, obj({{"name", "refunds"},
                                      {"action", "flag"},
                                      {"detector", "typed.word"},
                                      {"detectorConfig", obj({{"word", "refund"}, {"label", "money"}})},
                                      {"minScore", 0.5}}));
  ASSERT_STATUS(word, 201);

  auto published = publishOn(p, Path::Single, Kind::Request, "REFUND ACME-123456 but not ACME-12345678");
  ASSERT_EQ(published.status, 201) << published.body;
  EXPECT_EQ(textOf(Kind::Request, published.event), "REFUND [REDACTED:acme.customer_number] but not ACME-12345678");
  auto v = violations(p.keyed);
  ASSERT_EQ(v.size(), 2u);
  std::map<std::string, Poco::JSON::Object::Ptr> byRule;
  for (const auto& x : v) byRule[strField(x, "ruleName")] = x;
  ASSERT_EQ(byRule.count("refunds"), 1u);
  auto matches = objects(byRule["refunds"]->getArray("matches"));
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(strField(matches[0], "detector"), "typed.word");
  EXPECT_EQ(strField(matches[0], "label"), "money");
  EXPECT_EQ(matches[0]->getValue<double>("score"), 0.8);
  EXPECT_EQ(intField(byRule["six-digit customers"], "matchCount"), 1);
}

}  // namespace
}  // namespace aev::testing

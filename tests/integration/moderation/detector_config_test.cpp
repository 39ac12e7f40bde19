// Per-rule plugin configuration and scores that matter (docs/plugins.md#per-use-configuration):
// a rule's detectorConfig reaches the detector's create() (its refusal is a 422 with the
// plugin's message, and only plugin detectors take one), minScore drops matches scored
// lower, and violations and POST /moderation/evaluate show each match's detector, label
// and score.
#include "integration/moderation/moderation_support.h"

namespace aev::testing {
namespace {

class DetectorConfigApi : public ModerationTest {};

// Two AWS access key ids: AKIA… scores 0.95, ABIA… 0.9 (detector_builtin's secrets.api_key).
const std::string kKeys = "keys AKIAABCDEFGHIJKLMNOP and ABIAABCDEFGHIJKLMNOP";

TEST_F(DetectorConfigApi, MinScoreKeepsOnlyConfidentMatchesAndEachMatchShowsItsScore) {
  auto p = newPublisher("minscore");
  auto r = postRule(p.tenant, obj({{"name", "confident keys"},
                                   {"action", "flag"},
                                   {"detector", "secrets.api_key"},
                                   {"minScore", 0.92},
                                   {"detectorConfig", obj({{"minScore", 0.5}})}}));
  ASSERT_STATUS(r, 201);
  auto rule = r.object();
  EXPECT_EQ(rule->getValue<double>("minScore"), 0.92);
  EXPECT_EQ(toJson(rule->get("detectorConfig")), R"({"minScore":0.5})");
  EXPECT_EQ(toJson(rule->get("secretConfigKeys")), "[]");

  auto verdict = p.keyed.post("/moderation/evaluate", eventOf(Kind::Request, p.channelId, kKeys));
  ASSERT_STATUS(verdict, 200);
  auto matches = objects(verdict.object()->getArray("matches"));
  ASSERT_EQ(matches.size(), 1u) << verdict.body;
  EXPECT_EQ(intField(matches[0], "matchCount"), 1);
  auto details = objects(matches[0]->getArray("matches"));
  ASSERT_EQ(details.size(), 1u) << verdict.body;
  EXPECT_EQ(strField(details[0], "detector"), "secrets.api_key");
  EXPECT_EQ(strField(details[0], "label"), "aws_access_key_id");
  EXPECT_EQ(details[0]->getValue<double>("score"), 0.95);

  // Without minScore both keys count; the violation keeps each match's label and score.
  ASSERT_STATUS(
      p.tenant.http.patch("/moderation/rules/" + strField(rule, "ruleId"), obj({{"minScore", Poco::Dynamic::Var()}})),
      200);
  publishOn(p, Path::Single, Kind::Request, kKeys);
  auto v = violations(p.keyed);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(intField(v[0], "matchCount"), 2);
  auto stored = objects(v[0]->getArray("matches"));
  ASSERT_EQ(stored.size(), 2u) << toJson(v[0]);
  std::vector<double> scores;
  for (const auto& m : stored) {
    EXPECT_EQ(strField(m, "label"), "aws_access_key_id");
    scores.push_back(m->getValue<double>("score"));
  }
  std::sort(scores.begin(), scores.end());
  EXPECT_EQ(scores, (std::vector<double>{0.9, 0.95}));
}

TEST_F(DetectorConfigApi, TheDetectorRefusesItsConfigWithA422CarryingItsMessage) {
  auto t = newTenant("badconfig");
  auto r = postRule(
      t,
      obj({{"name", "n"}, {"action", "flag"}, {"detector", "pii.email"}, {"detectorConfig", obj({{"minScore", 7}})}}));
  ASSERT_TRUE(IsProblem(r, 422));
  EXPECT_EQ(errorLocations(r), (std::vector<std::string>{"body.detectorConfig"}));
  EXPECT_NE(r.body.find("minScore must be a number between 0 and 1"), std::string::npos) << r.body;
  // Core detectors take neither; minScore is a probability; detectorConfig an object.
  r = postRule(t, obj({{"name", "n"},
                       {"action", "flag"},
                       {"detector", "keyword"},
                       {"pattern", "x"},
                       {"detectorConfig", obj({{"a", 1}})},
                       {"minScore", 0.5}}));
  ASSERT_TRUE(IsProblem(r, 422));
  EXPECT_EQ(errorLocations(r), (std::vector<std::string>{"body.detectorConfig", "body.minScore"}));
  r = postRule(t, obj({{"name", "n"}, {"action", "flag"}, {"detector", "pii.email"}, {"minScore", 1.5}}));
  ASSERT_TRUE(IsProblem(r, 422));
  EXPECT_EQ(errorLocations(r), (std::vector<std::string>{"body.minScore"}));
  r = postRule(t, obj({{"name", "n"}, {"action", "flag"}, {"detector", "pii.email"}, {"detectorConfig", "x"}}));
  ASSERT_TRUE(IsProblem(r, 422));
  EXPECT_TRUE(objects(listOf(t.http.get("/moderation/rules"))).empty());
}

}  // namespace
}  // namespace aev::testing

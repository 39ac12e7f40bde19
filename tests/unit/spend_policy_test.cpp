// spend/policy.h and spend/validation.h: matching a policy's scope, the rung in force,
// exact nano-dollar arithmetic, and every invalid field of a policy at once.
#include <gtest/gtest.h>

#include <algorithm>

#include "spend/policy.h"
#include "spend/validation.h"

namespace aev::spend {
namespace {

store::SpendRungRecord rung(std::int64_t at, const std::string& action, std::optional<std::string> mode = std::nullopt,
                            std::optional<std::string> model = std::nullopt) {
  return {at, action, std::move(mode), std::move(model)};
}

store::SpendPolicyRecord validPolicy() {
  store::SpendPolicyRecord p;
  p.id = 1;
  p.orgId = 7;
  p.name = "  Team budget ";
  p.limitUsd = 100;
  p.windowType = "day";
  p.cooldownMins = 30;
  p.rungs = {rung(50, "alert"), rung(80, "fallback", std::nullopt, "gpt-4o-mini"), rung(100, "block", "hard")};
  return p;
}

std::vector<std::string> locations(const std::vector<FieldError>& problems) {
  std::vector<std::string> out;
  for (const auto& p : problems) out.push_back(p.location);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(SpendValidation, AValidPolicyPassesAndItsNameIsTrimmed) {
  auto p = validPolicy();
  EXPECT_TRUE(checkPolicy(p, nullptr).empty());
  EXPECT_EQ(p.name, "Team budget");
}

TEST(SpendValidation, EveryInvalidFieldIsReported) {
  auto p = validPolicy();
  p.name = "   ";
  p.limitUsd = -1;
  p.windowType = "year";
  p.cooldownMins = -5;
  p.tagKey = "team";  // without tagValue
  p.model = "";
  p.rungs = {rung(0, "alert"), rung(90, "explode"), rung(80, "block", "maybe"), rung(95, "fallback"),
             rung(96, "alert", "hard", "x")};
  EXPECT_EQ(locations(checkPolicy(p, nullptr)),
            (std::vector<std::string>{"body.cooldownMins", "body.limitUsd", "body.model", "body.name",
                                      "body.rungs[0].at_percent", "body.rungs[1].action", "body.rungs[2].at_percent",
                                      "body.rungs[2].block_mode", "body.rungs[3].fallback_model",
                                      "body.rungs[4].block_mode", "body.rungs[4].fallback_model", "body.tagValue",
                                      "body.windowType"}));
}

TEST(SpendValidation, LimitsOfNumbersAndRungs) {
  auto p = validPolicy();
  p.limitUsd = std::numeric_limits<double>::infinity();
  p.rungs = {};
  EXPECT_EQ(locations(checkPolicy(p, nullptr)), (std::vector<std::string>{"body.limitUsd", "body.rungs"}));
  p = validPolicy();
  p.rungs.clear();
  for (int i = 1; i <= 11; ++i) p.rungs.push_back(rung(i * 10, "alert"));
  EXPECT_EQ(locations(checkPolicy(p, nullptr)), (std::vector<std::string>{"body.rungs"}));
  p = validPolicy();
  p.rungs = {rung(1000, "alert")};
  EXPECT_TRUE(checkPolicy(p, nullptr).empty());
  p.rungs = {rung(1001, "alert")};
  EXPECT_EQ(locations(checkPolicy(p, nullptr)), (std::vector<std::string>{"body.rungs[0].at_percent"}));
  p.rungs = {rung(50, "alert"), rung(50, "block")};  // strictly ascending
  EXPECT_EQ(locations(checkPolicy(p, nullptr)), (std::vector<std::string>{"body.rungs[1].at_percent"}));
}

TEST(SpendValidation, DestinationNeedsALoadedAlertSink) {
  auto p = validPolicy();
  p.destination = "https://hooks.example.com/spend";
  p.destinationType = "webhook";
  // No plugin registry: no alert sink is loaded, so no destinationType is valid.
  EXPECT_EQ(locations(checkPolicy(p, nullptr)), (std::vector<std::string>{"body.destinationType"}));
  p.destinationType.reset();
  EXPECT_EQ(locations(checkPolicy(p, nullptr)), (std::vector<std::string>{"body.destinationType"}));
  p.destination = "ftp://x";
  EXPECT_EQ(locations(checkPolicy(p, nullptr)), (std::vector<std::string>{"body.destination", "body.destinationType"}));
  p.destination.reset();
  p.destinationType = "webhook";
  EXPECT_EQ(locations(checkPolicy(p, nullptr)), (std::vector<std::string>{"body.destination", "body.destinationType"}));
}

ActivePolicy active(store::SpendPolicyRecord p, std::optional<std::string> slug = std::nullopt) {
  auto a = activePolicyOf(std::move(p), std::move(slug));
  if (!a) throw std::runtime_error("not active");
  return *a;
}

TEST(SpendMatching, EveryScopeFieldSetMustEqual) {
  auto p = validPolicy();
  Subject s;
  EXPECT_TRUE(matches(active(p), s));  // no scope: everything of the organization
  p.model = "gpt-4o";
  p.apiKeyId = 5;
  EXPECT_FALSE(matches(active(p), s));
  s.model = "gpt-4o";
  s.apiKeyId = 6;
  EXPECT_FALSE(matches(active(p), s));
  s.apiKeyId = 5;
  EXPECT_TRUE(matches(active(p), s));
  p.tagKey = "team";
  p.tagValue = "search";
  EXPECT_FALSE(matches(active(p), s));
  s.tags = {{"team", "ads"}};
  EXPECT_FALSE(matches(active(p), s));
  s.tags.emplace_back("team", "search");
  EXPECT_TRUE(matches(active(p), s));
  p.userId = "u-1";
  p.provider = "openai";
  p.appId = 3;
  s.userId = "u-1";
  s.provider = "openai";
  s.appId = 3;
  EXPECT_TRUE(matches(active(p), s));
  s.provider = "anthropic";
  EXPECT_FALSE(matches(active(p), s));
}

TEST(SpendMatching, EnvironmentMatchesBySlugAndAGoneEnvironmentMatchesNothing) {
  auto p = validPolicy();
  p.environmentId = 4;
  Subject s;
  s.environment = "prod";
  EXPECT_TRUE(matches(active(p, "prod"), s));
  EXPECT_FALSE(matches(active(p, "staging"), s));
  EXPECT_FALSE(matches(active(p, std::nullopt), s));
}

TEST(SpendMatching, SubjectOfAnEventReadsItsTelemetry) {
  store::NewEvent e;
  e.apiKeyId = 9;
  e.appId = 2;
  e.telemetry.model = "m";
  e.telemetry.provider = "p";
  e.telemetry.endUser = "alice";
  e.telemetry.environment = "prod";
  e.telemetry.attributes = {{"k", "v"}};
  auto s = subjectOf(e);
  EXPECT_EQ(*s.apiKeyId, 9);
  EXPECT_EQ(*s.appId, 2);
  EXPECT_EQ(*s.model, "m");
  EXPECT_EQ(*s.provider, "p");
  EXPECT_EQ(*s.userId, "alice");
  EXPECT_EQ(*s.environment, "prod");
  ASSERT_EQ(s.tags.size(), 1u);
}

TEST(SpendRungs, TheMostSevereReachedRungIsInForce) {
  auto p = active(validPolicy());  // alert 50, fallback 80, block(hard) 100 of $100
  EXPECT_EQ(rungInForce(p, nanosOf(49.999999999)), nullptr);
  ASSERT_NE(rungInForce(p, nanosOf(50)), nullptr);  // exactly at the rung
  EXPECT_EQ(rungInForce(p, nanosOf(50))->action, RungAction::Alert);
  EXPECT_EQ(rungInForce(p, nanosOf(80))->action, RungAction::Fallback);
  EXPECT_EQ(*rungInForce(p, nanosOf(99))->fallbackModel, "gpt-4o-mini");
  EXPECT_EQ(rungInForce(p, nanosOf(100))->action, RungAction::Block);
  EXPECT_EQ(rungInForce(p, nanosOf(100))->blockMode, BlockMode::Hard);
  // A soft block below a fallback: the block is the more severe and stays in force.
  auto r = validPolicy();
  r.rungs = {rung(10, "block", "soft"), rung(20, "fallback", std::nullopt, "small")};
  EXPECT_EQ(rungInForce(active(r), nanosOf(30))->action, RungAction::Block);
  // block without block_mode is hard.
  r.rungs = {rung(10, "block")};
  EXPECT_EQ(rungInForce(active(r), nanosOf(10))->blockMode, BlockMode::Hard);
}

TEST(SpendRungs, NanoDollarsAddExactly) {
  std::int64_t sum = 0;
  for (int i = 0; i < 1000; ++i) sum += nanosOf(0.001);
  EXPECT_EQ(sum, nanosOf(1.0));
  EXPECT_EQ(nanosOf(-3), 0);
  EXPECT_EQ(nanosOf(std::numeric_limits<double>::quiet_NaN()), 0);
  EXPECT_DOUBLE_EQ(usdOf(nanosOf(12.34)), 12.34);
  EXPECT_DOUBLE_EQ(percentOf(nanosOf(25), nanosOf(200)), 12.5);
}

}  // namespace
}  // namespace aev::spend

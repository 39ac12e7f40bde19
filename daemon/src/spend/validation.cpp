#include "spend/validation.h"

#include <cmath>

#include "common/text.h"
#include "identity/environment_rules.h"
#include "plugins/registry.h"
#include "spend/policy.h"
#include "spend/window.h"

namespace aev::spend {

namespace {

constexpr std::size_t kScopeMax = 256;
constexpr std::size_t kDestinationMax = 2048;
constexpr std::size_t kModelMax = 256;

std::string formatNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

void checkScopeText(std::vector<FieldError>& problems, const char* field, const std::optional<std::string>& value) {
  if (value && (value->empty() || utf8Length(*value) > kScopeMax))
    problems.push_back({std::string("body.") + field, "must be 1 to 256 characters", value->substr(0, 200)});
}

bool isHttpUrl(const std::string& url) {
  for (const char* scheme : {"http://", "https://"})
    if (url.rfind(scheme, 0) == 0 && url.size() > std::string(scheme).size()) return true;
  return false;
}

void checkRungs(std::vector<FieldError>& problems, const std::vector<store::SpendRungRecord>& rungs) {
  if (rungs.empty() || rungs.size() > kMaxRungs) {
    problems.push_back({"body.rungs", "must hold 1 to 10 rungs", std::to_string(rungs.size())});
    if (rungs.empty()) return;
  }
  std::int64_t previous = 0;
  for (std::size_t i = 0; i < rungs.size(); ++i) {
    const auto& rung = rungs[i];
    const std::string at = "body.rungs[" + std::to_string(i) + "].";
    if (rung.atPercent < 1 || rung.atPercent > kMaxAtPercent)
      problems.push_back({at + "at_percent", "must be an integer from 1 to 1000", std::to_string(rung.atPercent)});
    else if (rung.atPercent <= previous)
      problems.push_back({at + "at_percent", "must be greater than the previous rung's (" +
                                                 std::to_string(previous) + "): rungs ascend strictly",
                          std::to_string(rung.atPercent)});
    previous = std::max(previous, rung.atPercent);
    auto action = rungActionOf(rung.action);
    if (!action) {
      problems.push_back(
          {at + "action", "must be one of " + joinWithCommas(rungActionNames()), rung.action.substr(0, 200)});
      continue;
    }
    if (rung.blockMode) {
      if (*action != RungAction::Block)
        problems.push_back({at + "block_mode", "applies to block rungs only", *rung.blockMode});
      else if (*rung.blockMode != "hard" && *rung.blockMode != "soft")
        problems.push_back({at + "block_mode", "must be one of hard, soft", rung.blockMode->substr(0, 200)});
    }
    if (*action == RungAction::Fallback) {
      if (!rung.fallbackModel)
        problems.push_back({at + "fallback_model", "is required for a fallback rung", ""});
      else if (rung.fallbackModel->empty() || utf8Length(*rung.fallbackModel) > kModelMax)
        problems.push_back({at + "fallback_model", "must be 1 to 256 characters", rung.fallbackModel->substr(0, 200)});
    } else if (rung.fallbackModel) {
      problems.push_back({at + "fallback_model", "applies to fallback rungs only", rung.fallbackModel->substr(0, 200)});
    }
  }
}

}  // namespace

std::vector<FieldError> checkPolicy(store::SpendPolicyRecord& p, const plugins::Registry* registry) {
  std::vector<FieldError> problems;
  p.name = identity::trimWhitespace(p.name);
  const auto length = utf8Length(p.name);
  if (length < 1 || length > kNameMax)
    problems.push_back(
        {"body.name", "must be 1 to 120 characters (surrounding whitespace is not counted)", p.name.substr(0, 200)});
  if (!std::isfinite(p.limitUsd) || p.limitUsd <= 0 || p.limitUsd > kMaxLimitUsd)
    problems.push_back({"body.limitUsd", "must be a number greater than 0 and at most 1e9", formatNumber(p.limitUsd)});
  if (!windowTypeOf(p.windowType))
    problems.push_back(
        {"body.windowType", "must be one of " + joinWithCommas(windowTypeNames()), p.windowType.substr(0, 200)});
  if (p.cooldownMins < 0 || p.cooldownMins > kMaxCooldownMins)
    problems.push_back(
        {"body.cooldownMins", "must be an integer from 0 to 525600", std::to_string(p.cooldownMins)});
  checkScopeText(problems, "userId", p.userId);
  checkScopeText(problems, "model", p.model);
  checkScopeText(problems, "provider", p.provider);
  checkScopeText(problems, "tagKey", p.tagKey);
  checkScopeText(problems, "tagValue", p.tagValue);
  if (p.tagKey.has_value() != p.tagValue.has_value())
    problems.push_back({p.tagKey ? "body.tagValue" : "body.tagKey", "tagKey and tagValue are set together", ""});
  if (p.destination && (p.destination->empty() || p.destination->size() > kDestinationMax || !isHttpUrl(*p.destination)))
    problems.push_back({"body.destination", "must be an http or https URL of at most 2048 characters",
                        p.destination->substr(0, 200)});
  if (p.destination && !p.destinationType)
    problems.push_back({"body.destinationType", "is required with a destination (an alert sink name)", ""});
  if (p.destinationType && !p.destination) problems.push_back({"body.destination", "is required with a destinationType", ""});
  if (p.destinationType && (!registry || !registry->alertSink(*p.destinationType))) {
    std::string names;
    if (registry)
      for (const auto& sink : registry->alertSinks()) names += (names.empty() ? "" : ", ") + sink->info().name;
    problems.push_back({"body.destinationType",
                        names.empty() ? "names no loaded alert sink (none is loaded)"
                                      : "must be a loaded alert sink: one of " + names,
                        p.destinationType->substr(0, 200)});
  }
  checkRungs(problems, p.rungs);
  return problems;
}

}  // namespace aev::spend

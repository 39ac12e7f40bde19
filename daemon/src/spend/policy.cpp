#include "spend/policy.h"

#include <cmath>

namespace aev::spend {

const std::vector<std::string>& rungActionNames() {
  static const std::vector<std::string> names = {"alert", "block", "fallback"};
  return names;
}

const std::vector<std::string>& blockModeNames() {
  static const std::vector<std::string> names = {"hard", "soft"};
  return names;
}

std::optional<RungAction> rungActionOf(const std::string& name) {
  if (name == "alert") return RungAction::Alert;
  if (name == "block") return RungAction::Block;
  if (name == "fallback") return RungAction::Fallback;
  return std::nullopt;
}

std::string nameOf(RungAction action) {
  switch (action) {
    case RungAction::Alert: return "alert";
    case RungAction::Block: return "block";
    case RungAction::Fallback: return "fallback";
  }
  return "alert";
}

int severity(const Rung& rung) {
  switch (rung.action) {
    case RungAction::Alert: return 1;
    case RungAction::Fallback: return 2;
    case RungAction::Block: return rung.blockMode == BlockMode::Hard ? 4 : 3;
  }
  return 0;
}

std::optional<ActivePolicy> activePolicyOf(store::SpendPolicyRecord record,
                                           std::optional<std::string> environmentSlug) {
  ActivePolicy p;
  auto window = windowTypeOf(record.windowType);
  if (!window || !(record.limitUsd > 0)) return std::nullopt;
  p.window = *window;
  p.limitNanos = nanosOf(record.limitUsd);
  for (const auto& r : record.rungs) {
    auto action = rungActionOf(r.action);
    if (!action) return std::nullopt;
    Rung rung;
    rung.atPercent = r.atPercent;
    rung.action = *action;
    rung.blockMode = r.blockMode && *r.blockMode == "soft" ? BlockMode::Soft : BlockMode::Hard;
    rung.fallbackModel = r.fallbackModel;
    p.rungs.push_back(std::move(rung));
  }
  p.environmentSlug = std::move(environmentSlug);
  p.record = std::move(record);
  return p;
}

std::int64_t nanosOf(double usd) {
  if (!std::isfinite(usd) || usd <= 0) return 0;
  return std::llround(usd * 1e9);
}

double usdOf(std::int64_t nanos) { return static_cast<double>(nanos) / 1e9; }

double percentOf(std::int64_t spentNanos, std::int64_t limitNanos) {
  if (limitNanos <= 0) return 0;
  return static_cast<double>(spentNanos) * 100.0 / static_cast<double>(limitNanos);
}

bool reached(const Rung& rung, std::int64_t spentNanos, std::int64_t limitNanos) {
  return static_cast<__int128>(spentNanos) * 100 >= static_cast<__int128>(rung.atPercent) * limitNanos;
}

const Rung* rungInForce(const ActivePolicy& policy, std::int64_t spentNanos) {
  const Rung* best = nullptr;
  for (const auto& rung : policy.rungs) {
    if (!reached(rung, spentNanos, policy.limitNanos)) break;  // ascending
    if (!best || severity(rung) >= severity(*best)) best = &rung;
  }
  return best;
}

Subject subjectOf(const store::NewEvent& e) {
  Subject s;
  s.apiKeyId = e.apiKeyId;
  s.appId = e.appId;
  s.environment = e.telemetry.environment;
  s.userId = e.telemetry.endUser;
  s.model = e.telemetry.model;
  s.provider = e.telemetry.provider;
  s.tags = e.telemetry.attributes;
  return s;
}

bool matches(const ActivePolicy& policy, const Subject& s) {
  const auto& r = policy.record;
  auto same = [](const auto& want, const auto& have) { return !want || (have && *have == *want); };
  if (!same(r.apiKeyId, s.apiKeyId) || !same(r.appId, s.appId)) return false;
  if (r.environmentId && (!policy.environmentSlug || !s.environment || *s.environment != *policy.environmentSlug))
    return false;
  if (!same(r.userId, s.userId) || !same(r.model, s.model) || !same(r.provider, s.provider)) return false;
  if (r.tagKey && r.tagValue) {
    bool found = false;
    for (const auto& [key, value] : s.tags)
      if (key == *r.tagKey && value == *r.tagValue) found = true;
    if (!found) return false;
  }
  return true;
}

}  // namespace aev::spend

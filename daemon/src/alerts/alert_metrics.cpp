#include "alerts/alert_metrics.h"

#include <algorithm>

#include "analytics/percentiles.h"
#include "common/clock.h"

namespace aev::alerts {

std::optional<double> AlertMetrics::value(store::Connection& c, const store::AlertRuleRecord& rule, std::int64_t now) {
  store::AnalyticsFilter f;
  f.orgId = rule.orgId;
  f.until = now;
  f.since = now - rule.windowMins * clock::kMinute;
  if (rule.appId) f.idEquals.emplace_back("app_id", *rule.appId);
  if (rule.model) f.textEquals.emplace_back("model", *rule.model);
  if (rule.service) f.textEquals.emplace_back("service", *rule.service);
  if (rule.release) f.textEquals.emplace_back("release_tag", *rule.release);
  if (rule.environmentId) {
    // Events name their environment by slug, name or id; a deleted one matches nothing.
    if (auto env = environments_.byId(c, rule.orgId, *rule.environmentId))
      f.environmentAnyOf = std::vector<std::string>{env->slug, env->name, std::to_string(env->id)};
    else
      return std::nullopt;
  }

  const auto& m = rule.metric;
  if (m.rfind("latency_", 0) == 0) {
    std::vector<double> durations;
    for (const auto& [bucket, d] : analytics_.durations(c, f, 0)) durations.push_back(d);
    if (durations.empty()) return std::nullopt;
    std::sort(durations.begin(), durations.end());
    const double p = m == "latency_p50_ms" ? 50 : m == "latency_p95_ms" ? 95 : 99;
    return analytics::nearestRank(durations, p);
  }
  // Counts and sums are 0 over an empty window (an "event_count lt 1" rule is how one
  // asks for silence); a rate of nothing is undefined.
  const auto t = analytics_.totals(c, f);
  if (m == "event_count") return static_cast<double>(t.eventCount);
  if (m == "error_count") return static_cast<double>(t.errorCount);
  if (m == "error_rate") {
    if (t.eventCount == 0) return std::nullopt;
    return static_cast<double>(t.errorCount) / static_cast<double>(t.eventCount);
  }
  if (m == "cost_usd") return t.costUsd;
  if (m == "tokens") return static_cast<double>(t.inputTokens + t.outputTokens);
  return std::nullopt;
}

}  // namespace aev::alerts

#include "spend/notification.h"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Stringifier.h>

#include <sstream>

namespace aev::spend {

namespace {
std::string idOrEmpty(const std::optional<std::int64_t>& id) { return id ? std::to_string(*id) : ""; }

std::int64_t windowMinutes(const ActivePolicy& policy, Micros windowStart) {
  auto w = windowAt(policy.window, windowStart);
  if (!w.end) return 24 * 60;
  return (*w.end - w.start) / clock::kMinute;
}
}  // namespace

std::string alertPayload(const ActivePolicy& policy, const Rung& rung, std::int64_t spentNanos, Micros windowStart,
                         Micros firedAt) {
  const auto& r = policy.record;
  Poco::JSON::Object o;
  o.set("alertRuleId", std::to_string(r.id));
  o.set("name", r.name);
  o.set("orgId", std::to_string(r.orgId));
  o.set("appId", idOrEmpty(r.appId));
  o.set("environmentId", idOrEmpty(r.environmentId));
  o.set("state", "firing");
  o.set("metric", "cost_usd");
  o.set("operator", "gte");
  o.set("threshold", r.limitUsd * static_cast<double>(rung.atPercent) / 100.0);
  o.set("value", usdOf(spentNanos));
  o.set("windowMins", windowMinutes(policy, windowStart));
  o.set("model", r.model.value_or(""));
  o.set("service", "");
  o.set("release", "");
  o.set("firedAt", clock::toRfc3339(firedAt));
  o.set("resolvedAt", Poco::Dynamic::Var());
  o.set("kind", "spend_policy");
  o.set("policyId", std::to_string(r.id));
  o.set("atPercent", rung.atPercent);
  o.set("percent", percentOf(spentNanos, policy.limitNanos));
  o.set("action", nameOf(rung.action));
  o.set("windowType", r.windowType);
  o.set("windowStart", clock::toRfc3339(windowStart));
  o.set("limitUsd", r.limitUsd);
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(o, out);
  return out.str();
}

}  // namespace aev::spend

#include "alerts/alert_evaluator.h"

#include <Poco/JSON/Object.h>
#include <spdlog/spdlog.h>

#include <map>
#include <sstream>

#include "alerts/alert_rule.h"
#include "common/clock.h"
#include "notifications/sink_message.h"

namespace aev::alerts {

namespace {
// pg_try_advisory_xact_lock key of the alert round: "aevalrt" in ASCII.
constexpr std::int64_t kRoundLockKey = 0x616576616c7274;

bool claimRound(store::Connection& c) {
  if (c.dialect() == store::Dialect::SQLite) return true;
  return c.query("SELECT pg_try_advisory_xact_lock(?) AS got", {kRoundLockKey}).front().boolean("got");
}

Poco::Dynamic::Var text(const std::optional<std::string>& v) { return v ? *v : std::string(); }
}  // namespace

std::string AlertEvaluator::alertJson(const store::AlertRuleRecord& r, const std::string& state,
                                      std::optional<double> value, std::int64_t firedAt,
                                      std::optional<std::int64_t> resolvedAt) const {
  Poco::JSON::Object obj(Poco::JSON_PRESERVE_KEY_ORDER);
  obj.set("alertRuleId", std::to_string(r.id));
  obj.set("name", r.name);
  obj.set("orgId", std::to_string(r.orgId));
  obj.set("appId", r.appId ? std::to_string(*r.appId) : std::string());
  obj.set("environmentId", r.environmentId ? std::to_string(*r.environmentId) : std::string());
  obj.set("state", state);
  obj.set("metric", r.metric);
  obj.set("operator", r.op);
  obj.set("threshold", r.threshold);
  obj.set("value", value ? Poco::Dynamic::Var(*value) : Poco::Dynamic::Var());
  obj.set("windowMins", r.windowMins);
  obj.set("model", text(r.model));
  obj.set("service", text(r.service));
  obj.set("release", text(r.release));
  obj.set("firedAt", clock::toRfc3339(firedAt));
  obj.set("resolvedAt", resolvedAt ? Poco::Dynamic::Var(clock::toRfc3339(*resolvedAt)) : Poco::Dynamic::Var());
  if (!publicUrl_.empty()) obj.set("url", publicUrl_ + "/v2/alerts/" + std::to_string(r.id));
  std::ostringstream out;
  obj.stringify(out);
  return out.str();
}

void AlertEvaluator::notify(store::Connection& c, const store::AlertRuleRecord& rule, store::AlertEventRecord event) {
  event.id = rules_.insertEvent(c, event);
  // The notification rides the delivery engine's outbox, written with the history row. A
  // sink whose schema needs no address (a file, a queue) has a rule without destination.
  if (rule.destinationType)
    notifications::enqueue(c, rule.orgId, notifications::kAlertTarget, rule.id,
                           {*rule.destinationType, rule.destination.value_or(""), event.notification, event.id,
                            rule.destinationConfig.value_or("{}")},
                           event.createdAt);
}

EvaluationResult AlertEvaluator::evaluate(std::int64_t now) {
  EvaluationResult result;
  std::vector<store::AlertRuleRecord> rules;
  std::map<std::int64_t, std::optional<double>> values;
  {
    auto c = db_.acquire();
    rules = rules_.enabled(*c);
    for (const auto& rule : rules) values[rule.id] = metrics_.value(*c, rule, now);
  }
  result.evaluated = rules.size();
  if (rules.empty()) return result;

  const bool applied = db_.transaction([&](store::Connection& c) {
    if (!claimRound(c)) return false;
    for (const auto& seen : rules) {
      auto rule = rules_.byId(c, seen.orgId, seen.id);  // re-read: changed or deleted meanwhile
      if (!rule || !rule->enabled || rule->updatedAt != seen.updatedAt) continue;
      const auto value = values[rule->id];
      const bool firing = value && crosses(rule->op, *value, rule->threshold);
      rule->lastValue = value;
      rule->lastEvaluatedAt = now;
      if (firing && rule->state != "firing") {
        rule->state = "firing";
        rule->firedAt = now;
        notify(c, *rule,
               {0, rule->orgId, rule->id, "firing", value, rule->threshold, now, std::nullopt,
                alertJson(*rule, "firing", value, now, std::nullopt), std::nullopt, now});
        ++result.fired;
      } else if (!firing && rule->state == "firing") {
        const auto firedAt = rule->firedAt.value_or(now);
        rule->state = "ok";
        notify(c, *rule,
               {0, rule->orgId, rule->id, "resolved", value, rule->threshold, firedAt, now,
                alertJson(*rule, "resolved", value, firedAt, now), std::nullopt, now});
        ++result.resolved;
      }
      rules_.setState(c, *rule);
    }
    return true;
  });
  if (!applied) spdlog::debug("alerts: another node applied this round");
  if (result.fired || result.resolved) {
    spdlog::info("alerts: {} fired, {} resolved ({} rules evaluated)", result.fired, result.resolved, result.evaluated);
    if (changed_) changed_();
  }
  return result;
}

}  // namespace aev::alerts

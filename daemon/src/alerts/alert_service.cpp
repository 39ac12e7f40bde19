#include "alerts/alert_service.h"

#include <algorithm>
#include <cmath>

#include "alerts/alert_rule.h"
#include "audit/audit_log.h"
#include "audit/changes.h"
#include "common/clock.h"
#include "common/text.h"
#include "identity/environment_rules.h"
#include "notifications/sink_message.h"
#include "plugins/components.h"
#include "plugins/instance_config.h"
#include "plugins/registry.h"

namespace aev::alerts {

namespace {

bool oneOf(const std::vector<std::string>& names, const std::string& v) {
  return std::find(names.begin(), names.end(), v) != names.end();
}

template <class T>
void assign(std::optional<T>& field, const std::optional<std::optional<T>>& input) {
  if (input) field = *input;
}

void applyFields(store::AlertRuleRecord& r, const AlertInput& in) {
  if (in.name) r.name = identity::trimWhitespace(*in.name);
  if (in.metric) r.metric = *in.metric;
  if (in.op) r.op = *in.op;
  if (in.threshold) r.threshold = *in.threshold;
  if (in.windowMins) r.windowMins = *in.windowMins;
  assign(r.appId, in.appId);
  assign(r.environmentId, in.environmentId);
  assign(r.model, in.model);
  assign(r.service, in.service);
  assign(r.release, in.release);
  assign(r.destination, in.destination);
  assign(r.destinationType, in.destinationType);
  if (in.enabled) r.enabled = *in.enabled;
}

Poco::Dynamic::Var optionalVar(const std::optional<std::string>& v) {
  return v ? Poco::Dynamic::Var(*v) : Poco::Dynamic::Var();
}
Poco::Dynamic::Var optionalVar(const std::optional<std::int64_t>& v) {
  return v ? Poco::Dynamic::Var(std::to_string(*v)) : Poco::Dynamic::Var();
}

// What the audit log keeps of a rule.
Poco::JSON::Object::Ptr alertRuleSnapshot(const store::AlertRuleRecord& r) {
  return audit::metadata({{"name", r.name},
                          {"metric", r.metric},
                          {"operator", r.op},
                          {"threshold", r.threshold},
                          {"windowMins", r.windowMins},
                          {"appId", optionalVar(r.appId)},
                          {"environmentId", optionalVar(r.environmentId)},
                          {"model", optionalVar(r.model)},
                          {"service", optionalVar(r.service)},
                          {"release", optionalVar(r.release)},
                          {"destination", optionalVar(r.destination)},
                          {"destinationType", optionalVar(r.destinationType)},
                          {"destinationConfig", plugins::publicConfig(r.destinationConfig.value_or("{}"))},
                          {"enabled", r.enabled}});
}

// Whether a sink needs the rule's `destination`: its schema requires the address, under
// "destination" (what the host sets from the rule) or "url" (the name the bundled sinks
// read first), and the rule's destinationConfig does not carry it. A sink with no such
// requirement (a file, a queue) takes a rule without destination.
bool needsDestination(const std::string& schemaJson, const std::string& storedConfig) {
  const auto required = plugins::requiredKeysOf(schemaJson);
  const auto config = plugins::parseConfig(storedConfig);
  for (const char* key : {"destination", "url"})
    if (required.count(key) && !config->has(key)) return true;
  return false;
}

}  // namespace

void AlertService::apply(store::AlertRuleRecord& r, const AlertInput& in) const {
  applyFields(r, in);
  if (!in.destinationConfig) return;
  if (!*in.destinationConfig || (*in.destinationConfig)->size() == 0) {
    r.destinationConfig.reset();
    return;
  }
  auto sink = registry_ && r.destinationType ? registry_->alertSink(*r.destinationType) : nullptr;
  const auto secretKeys = sink ? plugins::secretKeysOf(sink->info().configSchema) : std::set<std::string>{};
  r.destinationConfig = secrets_ ? plugins::sealConfig(**in.destinationConfig, secretKeys, *secrets_)
                                 : plugins::toJson(**in.destinationConfig);
}

std::string AlertService::sinkConfig(const std::string& destination, const std::string& storedConfig) const {
  const auto opened = secrets_ ? plugins::toJson(*plugins::openConfig(storedConfig, *secrets_)) : storedConfig;
  return notifications::sinkConfig(destination, allowPrivateAddresses_, opened);
}

std::vector<plugins::ComponentInfo> AlertService::destinationKinds() const {
  std::vector<plugins::ComponentInfo> out;
  if (registry_)
    for (const auto& s : registry_->alertSinks()) out.push_back(s->info());
  return out;
}

std::vector<FieldError> AlertService::problems(store::Connection& c, const store::AlertRuleRecord& r) {
  std::vector<FieldError> out;
  const auto length = utf8Length(r.name);
  if (length < 1 || length > 120) out.push_back({"body.name", "must be 1 to 120 characters", r.name.substr(0, 200)});
  if (!oneOf(metricNames(), r.metric))
    out.push_back({"body.metric", "must be one of " + joinWithCommas(metricNames()), r.metric.substr(0, 200)});
  if (!oneOf(operatorNames(), r.op))
    out.push_back({"body.operator", "must be one of " + joinWithCommas(operatorNames()), r.op.substr(0, 200)});
  if (!std::isfinite(r.threshold)) out.push_back({"body.threshold", "must be a finite number", ""});
  if (r.windowMins < 1 || r.windowMins > kMaxWindowMins)
    out.push_back({"body.windowMins", "must be 1 to " + std::to_string(kMaxWindowMins) + " minutes",
                   std::to_string(r.windowMins)});
  if (r.appId && !apps_.byId(c, r.orgId, *r.appId))
    out.push_back({"body.appId", "is not an app of this organization", std::to_string(*r.appId)});
  if (r.environmentId && !environments_.byId(c, r.orgId, *r.environmentId))
    out.push_back(
        {"body.environmentId", "is not an environment of this organization", std::to_string(*r.environmentId)});
  for (const auto& [field, value] : {std::pair{"model", &r.model}, {"service", &r.service}, {"release", &r.release}})
    if (*value && (value->value().empty() || value->value().size() > 200))
      out.push_back({std::string("body.") + field, "must be 1 to 200 characters (or null for any)",
                     value->value().substr(0, 200)});

  if (r.destinationConfig && !r.destinationType)
    out.push_back({"body.destinationConfig", "is the configuration of a destination: set destinationType too", ""});
  if (r.destination && !r.destinationType) {
    out.push_back({"body.destinationType", "destination and destinationType go together", ""});
  } else if (r.destinationType) {
    std::vector<std::string> sinks;
    if (registry_)
      for (const auto& s : registry_->alertSinks()) sinks.push_back(s->info().name);
    auto sink = registry_ ? registry_->alertSink(*r.destinationType) : nullptr;
    if (!sink) {
      out.push_back({"body.destinationType",
                     "no loaded alert sink has this name" + (sinks.empty() ? "" : "; loaded: " + joinWithCommas(sinks)),
                     r.destinationType->substr(0, 200)});
    } else if (!r.destination && needsDestination(sink->info().configSchema, r.destinationConfig.value_or("{}"))) {
      out.push_back({"body.destination", "is required by the " + *r.destinationType + " alert sink", ""});
    } else {
      // The sink checks its own configuration (URL form, scheme): its refusal is a 422
      // now rather than a failed delivery later.
      try {
        sink->open(sinkConfig(r.destination.value_or(""), r.destinationConfig.value_or("{}")));
      } catch (const plugins::PluginError& e) {
        out.push_back({r.destinationConfig ? "body.destinationConfig" : "body.destination", e.what(),
                       r.destinationConfig ? "" : r.destination->substr(0, 200)});
      }
    }
  }
  return out;
}

store::AlertRuleRecord AlertService::create(std::int64_t orgId, const AlertInput& input, const audit::Actor& actor) {
  std::vector<FieldError> missing;
  if (!input.name) missing.push_back({"body.name", "is required", ""});
  if (!input.metric) missing.push_back({"body.metric", "is required", ""});
  if (!input.op) missing.push_back({"body.operator", "is required", ""});
  if (!input.threshold) missing.push_back({"body.threshold", "is required", ""});
  if (!missing.empty()) throw errors::validation(std::move(missing));
  store::AlertRuleRecord rule;
  rule.orgId = orgId;
  rule.windowMins = kDefaultWindowMins;
  apply(rule, input);
  rule.createdAt = rule.updatedAt = clock::nowMicros();
  return db_.transaction([&](store::Connection& c) {
    if (auto p = problems(c, rule); !p.empty()) throw errors::validation(std::move(p));
    if (rules_.count(c, orgId) >= kMaxRulesPerOrg)
      throw errors::invalidField(
          "body", "an organization has at most " + std::to_string(kMaxRulesPerOrg) + " alert rules; delete some first");
    rule.id = rules_.insert(c, rule);
    audit_.record(c, orgId, actor, audit::Change::of("alert_rule", "create", rule.id, alertRuleSnapshot(rule)));
    return rule;
  });
}

std::vector<store::AlertRuleRecord> AlertService::list(std::int64_t orgId) {
  auto c = db_.acquire();
  return rules_.list(*c, orgId);
}

store::AlertRuleRecord AlertService::get(std::int64_t orgId, std::int64_t id) {
  auto c = db_.acquire();
  auto rule = rules_.byId(*c, orgId, id);
  if (!rule) throw errors::notFound("Alert rule");
  return *rule;
}

store::AlertRuleRecord AlertService::update(std::int64_t orgId, std::int64_t id, const AlertInput& input,
                                            const audit::Actor& actor) {
  return db_.transaction([&](store::Connection& c) {
    auto rule = rules_.byId(c, orgId, id);
    if (!rule) throw errors::notFound("Alert rule");
    const auto before = alertRuleSnapshot(*rule);
    apply(*rule, input);
    if (auto p = problems(c, *rule); !p.empty()) throw errors::validation(std::move(p));
    rule->updatedAt = std::max(clock::nowMicros(), rule->updatedAt + 1);
    rules_.update(c, *rule);
    audit_.record(c, orgId, actor,
                  audit::Change::of("alert_rule", "update", id, audit::changes(*before, *alertRuleSnapshot(*rule))));
    return *rule;
  });
}

void AlertService::remove(std::int64_t orgId, std::int64_t id, const audit::Actor& actor) {
  db_.transaction([&](store::Connection& c) {
    auto rule = rules_.byId(c, orgId, id);
    if (!rule) throw errors::notFound("Alert rule");
    rules_.remove(c, orgId, id);  // its history cascades
    audit_.record(c, orgId, actor, audit::Change::of("alert_rule", "delete", id, alertRuleSnapshot(*rule)));
  });
}

std::vector<store::AlertEventRecord> AlertService::history(std::int64_t orgId, std::int64_t id, std::int64_t limit) {
  auto c = db_.acquire();
  if (!rules_.byId(*c, orgId, id)) throw errors::notFound("Alert rule");
  return rules_.events(*c, orgId, id, limit);
}

}  // namespace aev::alerts

#include "moderation/rule_service.h"

#include "audit/audit_log.h"
#include "audit/changes.h"
#include "common/clock.h"
#include "common/text.h"
#include "identity/environment_rules.h"
#include "plugins/instance_config.h"
#include "plugins/registry.h"
#include "store/change_feed.h"

namespace aev::moderation {

namespace {

// What the audit log keeps of a rule (the pattern too: who changed what a rule matches
// is the point of the log).
Poco::JSON::Array::Ptr secretKeyList(const store::ModerationRuleRecord& rule) {
  Poco::JSON::Array::Ptr out = new Poco::JSON::Array;
  for (const auto& k : plugins::sealedKeys(rule.detectorConfig.value_or("{}"))) out->add(k);
  return out;
}

Poco::JSON::Object::Ptr moderationRuleSnapshot(const store::ModerationRuleRecord& rule) {
  return audit::metadata({{"name", rule.name},
                          {"action", rule.action},
                          {"detector", rule.detector},
                          {"pattern", rule.pattern ? Poco::Dynamic::Var(*rule.pattern) : Poco::Dynamic::Var()},
                          {"target", rule.target},
                          {"detectorConfig", plugins::publicConfig(rule.detectorConfig.value_or("{}"))},
                          {"secretConfigKeys", secretKeyList(rule)},
                          {"minScore", rule.minScore ? Poco::Dynamic::Var(*rule.minScore) : Poco::Dynamic::Var()},
                          {"enabled", rule.enabled}});
}

}  // namespace

void RuleService::apply(store::ModerationRuleRecord& rule, const RuleInput& input) const {
  if (input.name) rule.name = *input.name;
  if (input.action) rule.action = *input.action;
  if (input.detector) rule.detector = *input.detector;
  if (input.pattern) rule.pattern = *input.pattern;
  if (input.target) rule.target = *input.target;
  if (input.enabled) rule.enabled = *input.enabled;
  if (input.minScore) rule.minScore = *input.minScore;
  if (input.detectorConfig) {
    if (!*input.detectorConfig || (*input.detectorConfig)->size() == 0) {
      rule.detectorConfig.reset();
    } else {
      auto component = registry_ ? registry_->detector(rule.detector) : nullptr;
      const auto secretKeys =
          component ? plugins::secretKeysOf(component->info().configSchema) : std::set<std::string>{};
      // Without a sealing key (unit tests) the object is stored as it is.
      rule.detectorConfig = secrets_ ? plugins::sealConfig(**input.detectorConfig, secretKeys, *secrets_)
                                     : plugins::toJson(**input.detectorConfig);
    }
  }
}

std::vector<FieldError> checkRule(store::ModerationRuleRecord& rule, const plugins::Registry* registry,
                                  const webhooks::SecretBox* secrets) {
  std::vector<FieldError> problems;
  rule.name = identity::trimWhitespace(rule.name);
  const auto length = utf8Length(rule.name);
  if (length < 1 || length > kNameMax)
    problems.push_back(
        {"body.name", "must be 1 to 120 characters (surrounding whitespace is not counted)", rule.name.substr(0, 200)});
  auto action = actionOf(rule.action);
  if (!action)
    problems.push_back({"body.action", "must be one of " + joinWithCommas(actionNames()), rule.action.substr(0, 200)});
  auto target = targetOf(rule.target);
  if (!target)
    problems.push_back({"body.target", "must be one of " + joinWithCommas(targetNames()), rule.target.substr(0, 200)});
  if (rule.detector.empty()) {
    problems.push_back({"body.detector", "is required", ""});
  } else {
    Rule candidate;
    candidate.action = action.value_or(Action::Flag);
    candidate.detector = rule.detector;
    candidate.pattern = rule.pattern;
    const auto config = rule.detectorConfig.value_or("{}");
    candidate.detectorConfig = secrets ? plugins::toJson(*plugins::openConfig(config, *secrets)) : config;
    if (candidate.detectorConfig.size() > 16384)
      problems.push_back({"body.detectorConfig", "must be at most 16384 bytes of JSON", ""});
    candidate.minScore = rule.minScore;
    // An unknown target is reported above; the detector and pattern are still checked.
    candidate.target = target.value_or(Target::ToolCall);
    auto compiled = CompiledRule::compile(candidate, registry);
    if (auto* more = std::get_if<std::vector<FieldError>>(&compiled))
      problems.insert(problems.end(), more->begin(), more->end());
  }
  return problems;
}

store::ModerationRuleRecord RuleService::create(std::int64_t orgId, const RuleInput& input,
                                                const audit::Actor& actor) {
  store::ModerationRuleRecord rule;
  rule.orgId = orgId;
  rule.target = "request";
  apply(rule, input);
  if (rule.pattern && rule.pattern->empty()) rule.pattern.reset();
  if (auto problems = checkRule(rule, registry_, secrets_); !problems.empty())
    throw errors::validation(std::move(problems));
  rule.createdAt = rule.updatedAt = clock::nowMicros();
  auto saved = db_.transaction([&](store::Connection& c) {
    if (rules_.count(c, orgId) >= static_cast<std::int64_t>(kMaxRulesPerOrg))
      throw errors::invalidField("body", "an organization has at most " + std::to_string(kMaxRulesPerOrg) +
                                             " moderation rules; delete or merge some first");
    rule.id = rules_.insert(c, rule);
    audit_.record(c, orgId, actor,
                  audit::Change::of("moderation_rule", "create", rule.id, moderationRuleSnapshot(rule)));
    store::notifyChange(c, {"moderation.changed", orgId, 0});
    return rule;
  });
  cache_.invalidate(orgId);
  return saved;
}

std::vector<FieldError> RuleService::problems(std::int64_t orgId, std::optional<std::int64_t> ruleId,
                                              const RuleInput& input) {
  store::ModerationRuleRecord rule;
  rule.target = "request";
  if (ruleId) rule = get(orgId, *ruleId);  // 404 first, as update would
  apply(rule, input);
  if (rule.pattern && rule.pattern->empty()) rule.pattern.reset();
  return checkRule(rule, registry_, secrets_);
}

std::vector<store::ModerationRuleRecord> RuleService::list(std::int64_t orgId) {
  auto c = db_.acquire();
  return rules_.list(*c, orgId);
}

store::ModerationRuleRecord RuleService::get(std::int64_t orgId, std::int64_t ruleId) {
  auto c = db_.acquire();
  auto rule = rules_.byId(*c, orgId, ruleId);
  if (!rule) throw errors::notFound("Moderation rule");
  return *rule;
}

store::ModerationRuleRecord RuleService::update(std::int64_t orgId, std::int64_t ruleId, const RuleInput& input,
                                                const audit::Actor& actor) {
  auto saved = db_.transaction([&](store::Connection& c) {
    auto rule = rules_.byId(c, orgId, ruleId);
    if (!rule) throw errors::notFound("Moderation rule");
    const auto before = moderationRuleSnapshot(*rule);
    apply(*rule, input);
    if (rule->pattern && rule->pattern->empty()) rule->pattern.reset();
    if (auto problems = checkRule(*rule, registry_, secrets_); !problems.empty())
      throw errors::validation(std::move(problems));
    rule->updatedAt = std::max(clock::nowMicros(), rule->updatedAt + 1);  // the fingerprint must move
    rules_.update(c, *rule);
    audit_.record(c, orgId, actor,
                  audit::Change::of("moderation_rule", "update", ruleId,
                                    audit::changes(*before, *moderationRuleSnapshot(*rule))));
    store::notifyChange(c, {"moderation.changed", orgId, 0});
    return *rule;
  });
  cache_.invalidate(orgId);
  return saved;
}

void RuleService::remove(std::int64_t orgId, std::int64_t ruleId, const audit::Actor& actor) {
  db_.transaction([&](store::Connection& c) {
    auto rule = rules_.byId(c, orgId, ruleId);
    if (!rule) throw errors::notFound("Moderation rule");
    rules_.remove(c, orgId, ruleId);
    audit_.record(c, orgId, actor,
                  audit::Change::of("moderation_rule", "delete", ruleId, moderationRuleSnapshot(*rule)));
    store::notifyChange(c, {"moderation.changed", orgId, 0});
  });
  cache_.invalidate(orgId);
}

}  // namespace aev::moderation

#pragma once
// Moderation rules CRUD (docs/features.md#moderation: `/moderation/rules[/{ruleId}]`, org-scoped).
// Every field is checked and the rule compiled before it is saved, so a rule that is
// stored always runs; every problem comes back in one 422. Each change invalidates the
// organization's compiled rules (rule_cache.h). No HTTP types.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <Poco/JSON/Object.h>

#include "audit/actor.h"
#include "common/errors.h"
#include "moderation/detector_kinds.h"
#include "moderation/rule_cache.h"
#include "store/database.h"
#include "store/moderation_rule_repository.h"

namespace aev::audit {
class AuditLog;
}
namespace aev::webhooks {
class SecretBox;
}

namespace aev::moderation {

// A create or PATCH body, already type-checked; absent fields keep their value on PATCH
// (on create: target defaults to request, enabled to true). pattern = null clears it.
struct RuleInput {
  std::optional<std::string> name;
  std::optional<std::string> action;
  std::optional<std::string> detector;
  std::optional<std::optional<std::string>> pattern;
  std::optional<std::string> target;
  std::optional<bool> enabled;
  // Replaces the whole object; a null Ptr (JSON null) clears it. Secret keys are sealed.
  std::optional<Poco::JSON::Object::Ptr> detectorConfig;
  std::optional<std::optional<double>> minScore;  // null clears it
};

// The problems of a rule's fields (name, action, target, then detector/pattern/target
// through CompiledRule::compile), locations "body.<field>". Trims the name.
// `secrets` opens the sealed keys of the rule's detectorConfig (null: none are sealed).
std::vector<FieldError> checkRule(store::ModerationRuleRecord& rule, const plugins::Registry* registry,
                                  const webhooks::SecretBox* secrets = nullptr);

class RuleService {
 public:
  RuleService(store::Database& db, audit::AuditLog& audit, const plugins::Registry* registry, RuleCache& cache,
              const webhooks::SecretBox* secrets = nullptr)
      : db_(db), audit_(audit), registry_(registry), cache_(cache), secrets_(secrets) {}

  store::ModerationRuleRecord create(std::int64_t orgId, const RuleInput& input, const audit::Actor& actor);
  // The value problems create (ruleId absent) or update would report, saving nothing: lets
  // a caller that found type problems in the body answer every problem in one 422.
  std::vector<FieldError> problems(std::int64_t orgId, std::optional<std::int64_t> ruleId, const RuleInput& input);
  std::vector<store::ModerationRuleRecord> list(std::int64_t orgId);  // creation order
  store::ModerationRuleRecord get(std::int64_t orgId, std::int64_t ruleId);
  store::ModerationRuleRecord update(std::int64_t orgId, std::int64_t ruleId, const RuleInput& input,
                                     const audit::Actor& actor);
  void remove(std::int64_t orgId, std::int64_t ruleId, const audit::Actor& actor);
  // The detectors a rule may name, with their configuration schemas (not per organization).
  std::vector<DetectorKind> detectorKinds() const { return moderation::detectorKinds(registry_); }

 private:
  store::Database& db_;
  audit::AuditLog& audit_;
  const plugins::Registry* registry_;
  RuleCache& cache_;
  const webhooks::SecretBox* secrets_;
  store::ModerationRuleRepository rules_;
  void apply(store::ModerationRuleRecord& rule, const RuleInput& input) const;
};

}  // namespace aev::moderation

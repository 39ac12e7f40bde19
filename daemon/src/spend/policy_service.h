#pragma once
// Spend policies CRUD (docs/features.md#spend-policies: `/spend-policies[/{policyId}]`, org-scoped). Every
// field is checked before saving and every problem comes back in one 422; scope ids
// must name the organization's own API key, app and environment. Each change refreshes
// the organization's cached policies and rebuilds the policy's current-window spend
// from the stored events. No HTTP types.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit/actor.h"
#include "common/errors.h"
#include "spend/accountant.h"
#include "spend/policy_cache.h"
#include "store/database.h"
#include "store/spend_policy_repository.h"
#include "store/spend_refusal_repository.h"

namespace aev::plugins {
class Registry;
}

namespace aev::audit {
class AuditLog;
}

namespace aev::spend {

// A create or PATCH body, already type-checked. Absent fields keep their value on PATCH;
// an inner nullopt clears an optional field (JSON null). On create: cooldownMins
// defaults to 60, enabled to true.
struct PolicyInput {
  std::optional<std::string> name;
  std::optional<std::optional<std::int64_t>> apiKeyId, appId, environmentId;
  std::optional<std::optional<std::string>> userId, model, provider, tagKey, tagValue, destination, destinationType;
  std::optional<double> limitUsd;
  std::optional<std::string> windowType;
  std::optional<std::int64_t> cooldownMins;
  std::optional<bool> enabled;
  std::optional<std::vector<store::SpendRungRecord>> rungs;
};

// A policy with its current-window spend, as the API shows it.
struct PolicyView {
  store::SpendPolicyRecord policy;
  std::int64_t currentSpendNanos = 0;
};

// The publishes a policy refused: the running count and the newest rows (newest first).
struct RefusalsView {
  std::int64_t count = 0;
  std::vector<store::SpendRefusalRecord> newest;
};

class PolicyService {
 public:
  PolicyService(store::Database& db, audit::AuditLog& audit, const plugins::Registry* registry, PolicyCache& cache,
                Accountant& accountant)
      : db_(db), audit_(audit), registry_(registry), cache_(cache), accountant_(accountant) {}

  // Changes are recorded in the audit log in their own transaction.
  PolicyView create(std::int64_t orgId, const PolicyInput& input, const audit::Actor& actor);
  // The value problems create (policyId absent) or update would report, saving nothing.
  std::vector<FieldError> problems(std::int64_t orgId, std::optional<std::int64_t> policyId, const PolicyInput& input);
  std::vector<PolicyView> list(std::int64_t orgId);  // creation order
  PolicyView get(std::int64_t orgId, std::int64_t policyId);
  // 404 when the organization has no such policy.
  RefusalsView refusals(std::int64_t orgId, std::int64_t policyId);
  PolicyView update(std::int64_t orgId, std::int64_t policyId, const PolicyInput& input, const audit::Actor& actor);
  void remove(std::int64_t orgId, std::int64_t policyId, const audit::Actor& actor);

  // The slug of an environment of the organization (POST /spend-policies/check), or nullopt.
  std::optional<std::string> environmentSlug(std::int64_t orgId, std::int64_t environmentId);

 private:
  std::vector<FieldError> check(store::Connection& c, store::SpendPolicyRecord& policy);
  PolicyView view(const store::SpendPolicyRecord& policy);

  store::Database& db_;
  audit::AuditLog& audit_;
  const plugins::Registry* registry_;
  PolicyCache& cache_;
  Accountant& accountant_;
  store::SpendPolicyRepository policies_;
};

}  // namespace aev::spend

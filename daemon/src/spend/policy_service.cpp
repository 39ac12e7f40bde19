#include "spend/policy_service.h"

#include <limits>

#include "audit/audit_log.h"
#include "audit/changes.h"
#include "common/clock.h"
#include "spend/validation.h"
#include "store/app_repository.h"
#include "store/change_feed.h"
#include "store/credential_repositories.h"
#include "store/environment_repository.h"
#include "store/spend_ledger_repository.h"

namespace aev::spend {

namespace {

void apply(store::SpendPolicyRecord& p, const PolicyInput& in) {
  if (in.name) p.name = *in.name;
  if (in.apiKeyId) p.apiKeyId = *in.apiKeyId;
  if (in.appId) p.appId = *in.appId;
  if (in.environmentId) p.environmentId = *in.environmentId;
  if (in.userId) p.userId = *in.userId;
  if (in.model) p.model = *in.model;
  if (in.provider) p.provider = *in.provider;
  if (in.tagKey) p.tagKey = *in.tagKey;
  if (in.tagValue) p.tagValue = *in.tagValue;
  if (in.destination) p.destination = *in.destination;
  if (in.destinationType) p.destinationType = *in.destinationType;
  if (in.limitUsd) p.limitUsd = *in.limitUsd;
  if (in.windowType) p.windowType = *in.windowType;
  if (in.cooldownMins) p.cooldownMins = *in.cooldownMins;
  if (in.enabled) p.enabled = *in.enabled;
  if (in.rungs) p.rungs = *in.rungs;
}

store::SpendPolicyRecord fresh(std::int64_t orgId) {
  store::SpendPolicyRecord p;
  p.orgId = orgId;
  p.cooldownMins = 60;
  p.enabled = true;
  return p;
}

}  // namespace

std::vector<FieldError> PolicyService::check(store::Connection& c, store::SpendPolicyRecord& p) {
  auto problems = checkPolicy(p, registry_);
  if (p.apiKeyId && !store::ApiKeyRepository().byId(c, p.orgId, *p.apiKeyId))
    problems.push_back({"body.apiKeyId", "does not name an API key of this organization", std::to_string(*p.apiKeyId)});
  if (p.appId && !store::AppRepository().byId(c, p.orgId, *p.appId))
    problems.push_back({"body.appId", "does not name an app of this organization", std::to_string(*p.appId)});
  if (p.environmentId && !store::EnvironmentRepository().byId(c, p.orgId, *p.environmentId))
    problems.push_back(
        {"body.environmentId", "does not name an environment of this organization", std::to_string(*p.environmentId)});
  return problems;
}

namespace {

Poco::Dynamic::Var optionalPolicyVar(const std::optional<std::string>& v) {
  return v ? Poco::Dynamic::Var(*v) : Poco::Dynamic::Var();
}
Poco::Dynamic::Var optionalPolicyVar(const std::optional<std::int64_t>& v) {
  return v ? Poco::Dynamic::Var(std::to_string(*v)) : Poco::Dynamic::Var();
}

// What the audit log keeps of a policy.
Poco::JSON::Object::Ptr spendPolicySnapshot(const store::SpendPolicyRecord& p) {
  Poco::JSON::Array::Ptr rungs = new Poco::JSON::Array;
  for (const auto& r : p.rungs)
    rungs->add(audit::metadata({{"at_percent", r.atPercent},
                                {"action", r.action},
                                {"block_mode", optionalPolicyVar(r.blockMode)},
                                {"fallback_model", optionalPolicyVar(r.fallbackModel)}}));
  return audit::metadata({{"name", p.name},
                          {"limitUsd", p.limitUsd},
                          {"windowType", p.windowType},
                          {"cooldownMins", p.cooldownMins},
                          {"apiKeyId", optionalPolicyVar(p.apiKeyId)},
                          {"appId", optionalPolicyVar(p.appId)},
                          {"environmentId", optionalPolicyVar(p.environmentId)},
                          {"userId", optionalPolicyVar(p.userId)},
                          {"model", optionalPolicyVar(p.model)},
                          {"provider", optionalPolicyVar(p.provider)},
                          {"tagKey", optionalPolicyVar(p.tagKey)},
                          {"tagValue", optionalPolicyVar(p.tagValue)},
                          {"destination", optionalPolicyVar(p.destination)},
                          {"destinationType", optionalPolicyVar(p.destinationType)},
                          {"enabled", p.enabled},
                          {"rungs", rungs}});
}

}  // namespace

PolicyView PolicyService::view(const store::SpendPolicyRecord& policy) {
  PolicyView v{policy, 0};
  v.currentSpendNanos = accountant_.currentSpend(policy.orgId, {policy})[policy.id];
  return v;
}

PolicyView PolicyService::create(std::int64_t orgId, const PolicyInput& input, const audit::Actor& actor) {
  auto policy = fresh(orgId);
  apply(policy, input);
  auto saved = db_.transaction([&](store::Connection& c) {
    if (auto problems = check(c, policy); !problems.empty()) throw errors::validation(std::move(problems));
    if (policies_.count(c, orgId) >= static_cast<std::int64_t>(kMaxPoliciesPerOrg))
      throw errors::invalidField("body", "an organization has at most " + std::to_string(kMaxPoliciesPerOrg) +
                                             " spend policies; delete or merge some first");
    policy.createdAt = policy.updatedAt = clock::nowMicros();
    policy.id = policies_.insert(c, policy);
    audit_.record(c, orgId, actor, audit::Change::of("spend_policy", "create", policy.id, spendPolicySnapshot(policy)));
    store::notifyChange(c, {"spend.changed", orgId, 0});
    return policy;
  });
  // Enforcement sees the policy first, then its counter is set from the events already
  // stored in this window.
  cache_.invalidate(orgId);
  accountant_.rebuild(saved);
  return view(saved);
}

std::vector<FieldError> PolicyService::problems(std::int64_t orgId, std::optional<std::int64_t> policyId,
                                                const PolicyInput& input) {
  auto policy = fresh(orgId);
  auto c = db_.acquire();
  if (policyId) {
    auto existing = policies_.byId(*c, orgId, *policyId);
    if (!existing) throw errors::notFound("Spend policy");  // 404 first, as update would
    policy = *existing;
  }
  apply(policy, input);
  return check(*c, policy);
}

std::vector<PolicyView> PolicyService::list(std::int64_t orgId) {
  std::vector<store::SpendPolicyRecord> all;
  {
    auto c = db_.acquire();
    all = policies_.list(*c, orgId);
  }
  auto spend = accountant_.currentSpend(orgId, all);
  std::vector<PolicyView> out;
  for (auto& p : all) {
    const auto id = p.id;
    out.push_back({std::move(p), spend[id]});
  }
  return out;
}

PolicyView PolicyService::get(std::int64_t orgId, std::int64_t policyId) {
  std::optional<store::SpendPolicyRecord> policy;
  {
    auto c = db_.acquire();
    policy = policies_.byId(*c, orgId, policyId);
  }
  if (!policy) throw errors::notFound("Spend policy");
  return view(*policy);
}

RefusalsView PolicyService::refusals(std::int64_t orgId, std::int64_t policyId) {
  auto c = db_.acquire();
  if (!policies_.byId(*c, orgId, policyId)) throw errors::notFound("Spend policy");
  store::SpendRefusalRepository repository;
  return {repository.count(*c, orgId, policyId), repository.newest(*c, orgId, policyId)};
}

PolicyView PolicyService::update(std::int64_t orgId, std::int64_t policyId, const PolicyInput& input,
                                 const audit::Actor& actor) {
  auto saved = db_.transaction([&](store::Connection& c) {
    auto policy = policies_.byId(c, orgId, policyId);
    if (!policy) throw errors::notFound("Spend policy");
    const auto before = spendPolicySnapshot(*policy);
    apply(*policy, input);
    if (auto problems = check(c, *policy); !problems.empty()) throw errors::validation(std::move(problems));
    policy->updatedAt = std::max(clock::nowMicros(), policy->updatedAt + 1);
    policies_.update(c, *policy);
    audit_.record(
        c, orgId, actor,
        audit::Change::of("spend_policy", "update", policyId, audit::changes(*before, *spendPolicySnapshot(*policy))));
    store::notifyChange(c, {"spend.changed", orgId, 0});
    return *policy;
  });
  cache_.invalidate(orgId);
  accountant_.rebuild(saved);  // the scope or window may have changed
  return view(saved);
}

void PolicyService::remove(std::int64_t orgId, std::int64_t policyId, const audit::Actor& actor) {
  db_.transaction([&](store::Connection& c) {
    auto policy = policies_.byId(c, orgId, policyId);
    if (!policy) throw errors::notFound("Spend policy");
    policies_.remove(c, orgId, policyId);
    store::SpendLedgerRepository().removeBuckets(c, policyId, std::numeric_limits<std::int64_t>::min(),
                                                 std::numeric_limits<std::int64_t>::max());
    audit_.record(c, orgId, actor, audit::Change::of("spend_policy", "delete", policyId, spendPolicySnapshot(*policy)));
    store::notifyChange(c, {"spend.changed", orgId, 0});
  });
  cache_.invalidate(orgId);
}

std::optional<std::string> PolicyService::environmentSlug(std::int64_t orgId, std::int64_t environmentId) {
  auto c = db_.acquire();
  auto env = store::EnvironmentRepository().byId(*c, orgId, environmentId);
  if (!env) return std::nullopt;
  return env->slug;
}

}  // namespace aev::spend

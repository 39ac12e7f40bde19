#include "spend/policy_cache.h"

#include <spdlog/spdlog.h>

#include "store/environment_repository.h"
#include "store/spend_policy_repository.h"

namespace aev::spend {

std::optional<ActivePolicy> PolicyCache::resolve(store::Connection& c, const store::SpendPolicyRecord& record) {
  std::optional<std::string> slug;
  if (record.environmentId)
    if (auto env = store::EnvironmentRepository().byId(c, record.orgId, *record.environmentId)) slug = env->slug;
  auto active = activePolicyOf(record, slug);
  if (!active) spdlog::warn("spend policy {} of organization {} cannot be read and is skipped", record.id, record.orgId);
  return active;
}

std::shared_ptr<const PolicyList> PolicyCache::load(std::int64_t orgId) {
  auto list = std::make_shared<PolicyList>();
  auto c = db_.acquire();
  for (const auto& record : store::SpendPolicyRepository().list(*c, orgId)) {
    if (!record.enabled) continue;
    if (auto active = resolve(*c, record)) list->push_back(std::move(*active));
  }
  return list;
}

std::shared_ptr<const PolicyList> PolicyCache::policies(std::int64_t orgId) {
  std::uint64_t generation = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(orgId);
    if (it != entries_.end() &&
        (recheck_.count() == 0 || std::chrono::steady_clock::now() - it->second.loadedAt < recheck_))
      return it->second.policies;
    generation = generations_[orgId];
  }
  auto loaded = load(orgId);  // outside the lock: other organizations are not held up
  std::lock_guard lock(mutex_);
  // A change made while this load ran has invalidated it: serve it to this caller (it
  // began before the change) but do not cache it.
  if (generations_[orgId] == generation) entries_[orgId] = {loaded, std::chrono::steady_clock::now()};
  return loaded;
}

void PolicyCache::invalidate(std::int64_t orgId) {
  std::lock_guard lock(mutex_);
  entries_.erase(orgId);
  ++generations_[orgId];
}

}  // namespace aev::spend

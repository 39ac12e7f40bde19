#pragma once
// The enabled spend policies of each organization, loaded on its first publish and
// again only after invalidate() (every change this node makes), so an organization
// without policies costs publish no query. Several nodes on one PostgreSQL: with
// `recheck` > 0 an entry older than that is reloaded, so another node's change is seen
// within it (SQLite has one node per store: recheck 0, never reloaded on its own).
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "spend/policy.h"
#include "store/database.h"

namespace aev::spend {

using PolicyList = std::vector<ActivePolicy>;

class PolicyCache {
 public:
  PolicyCache(store::Database& db, std::chrono::milliseconds recheck) : db_(db), recheck_(recheck) {}

  // Never null; empty when the organization has no enabled policy.
  std::shared_ptr<const PolicyList> policies(std::int64_t orgId);
  void invalidate(std::int64_t orgId);
  // The policy as enforcement sees it (environment slug resolved), read from the store.
  static std::optional<ActivePolicy> resolve(store::Connection& c, const store::SpendPolicyRecord& record);

 private:
  struct Entry {
    std::shared_ptr<const PolicyList> policies;
    std::chrono::steady_clock::time_point loadedAt;
  };
  std::shared_ptr<const PolicyList> load(std::int64_t orgId);

  store::Database& db_;
  std::chrono::milliseconds recheck_;
  std::mutex mutex_;
  std::unordered_map<std::int64_t, Entry> entries_;
  std::unordered_map<std::int64_t, std::uint64_t> generations_;  // bumped by invalidate()
};

}  // namespace aev::spend

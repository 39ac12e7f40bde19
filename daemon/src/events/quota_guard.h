#pragma once
// The organization's monthly event quota (plan eventsQuotaMonthly, docs/features.md#plans-and-quotas):
// publishes past it get 429 with Retry-After until the next calendar month (UTC).
// Usage is counted by the writer in the same transaction as the events; this guard
// caches it per organization for a few seconds, so the check costs no query on the
// hot path, and the cache is bumped after each commit.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "identity/plans.h"
#include "store/database.h"

namespace aev::events {

class QuotaGuard {
 public:
  QuotaGuard(store::Database& db, const identity::PlanCatalog& plans) : db_(db), plans_(plans) {}
  // Throws 429 when `count` more events would pass the quota.
  void check(std::int64_t orgId, std::int64_t count);
  void recordCommitted(std::int64_t orgId, std::int64_t count);

 private:
  struct Entry {
    std::string period;
    std::int64_t used = 0;
    std::int64_t quota = 0;
    std::chrono::steady_clock::time_point loadedAt;
  };
  Entry& entryLocked(std::int64_t orgId, const std::string& period);

  store::Database& db_;
  const identity::PlanCatalog& plans_;
  std::mutex mutex_;
  std::unordered_map<std::int64_t, Entry> cache_;
};

}  // namespace aev::events

#pragma once
// Recently authenticated API keys by the SHA-256 of the full key, so a publish does not
// pay a database read for its key. Only live keys are cached (a miss always reads the
// store, so unknown keys cannot fill it). Correctness rests on invalidation: revoking a
// key or deleting its organization forgets it at once on this node; on PostgreSQL other
// nodes hear of it through the change feed (store/change_feed.h), and while that feed is
// down the cache is suspended: every request reads the store.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "common/revocation.h"
#include "store/credential_repositories.h"

namespace aev::auth {

class ApiKeyCache {
 public:
  using Clock = std::chrono::steady_clock;
  ApiKeyCache(std::chrono::seconds ttl, std::size_t capacity = 10000) : ttl_(ttl), capacity_(capacity) {}

  bool enabled() const { return ttl_.count() > 0 && !suspended_.load(); }
  // Empties the cache and stops using it (the change feed is down: revocations made on
  // other nodes could be missed) / starts using it again, from empty.
  void suspend();
  void resume();
  std::optional<store::ApiKeyRecord> find(const std::string& keyHash, Clock::time_point now = Clock::now());
  // Read before the store is: a revocation between that read and remember() bumps it,
  // and remember() then drops the (possibly stale) record instead of caching it.
  std::uint64_t generation() const;
  void remember(const std::string& keyHash, const store::ApiKeyRecord& record, std::uint64_t generationBeforeRead,
                Clock::time_point now = Clock::now());
  // Forgets every key the revocation covers (its key id, or all keys of its organization).
  void forget(const Revocation& r);
  std::size_t size() const;

 private:
  struct Entry {
    store::ApiKeyRecord record;
    Clock::time_point expires;
  };
  std::chrono::seconds ttl_;
  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  std::uint64_t generation_ = 0;
  std::atomic<bool> suspended_{false};
};

}  // namespace aev::auth

#include "auth/api_key_cache.h"

namespace aev::auth {

std::optional<store::ApiKeyRecord> ApiKeyCache::find(const std::string& keyHash, Clock::time_point now) {
  if (!enabled()) return std::nullopt;
  std::lock_guard lock(mutex_);
  auto it = entries_.find(keyHash);
  if (it == entries_.end()) return std::nullopt;
  if (it->second.expires <= now) {
    entries_.erase(it);
    return std::nullopt;
  }
  return it->second.record;
}

std::uint64_t ApiKeyCache::generation() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

void ApiKeyCache::remember(const std::string& keyHash, const store::ApiKeyRecord& record,
                           std::uint64_t generationBeforeRead, Clock::time_point now) {
  if (!enabled() || record.revokedAt) return;
  std::lock_guard lock(mutex_);
  if (generation_ != generationBeforeRead) return;
  // Full: start over rather than track recency; the store answers the misses.
  if (entries_.size() >= capacity_ && !entries_.count(keyHash)) entries_.clear();
  entries_[keyHash] = Entry{record, now + ttl_};
}

void ApiKeyCache::forget(const Revocation& r) {
  // A user's revocation (removed member, disabled user) does not touch keys: keys
  // belong to the organization.
  if (!r.apiKeyId && !r.orgId) return;
  std::lock_guard lock(mutex_);
  ++generation_;
  for (auto it = entries_.begin(); it != entries_.end();) {
    const auto& k = it->second.record;
    const bool covered = (!r.apiKeyId || k.id == *r.apiKeyId) && (!r.orgId || k.orgId == *r.orgId);
    it = covered ? entries_.erase(it) : std::next(it);
  }
}

void ApiKeyCache::suspend() {
  std::lock_guard lock(mutex_);
  suspended_ = true;
  ++generation_;  // a read in flight must not cache what it found
  entries_.clear();
}

void ApiKeyCache::resume() {
  std::lock_guard lock(mutex_);
  ++generation_;
  entries_.clear();
  suspended_ = false;
}

std::size_t ApiKeyCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace aev::auth

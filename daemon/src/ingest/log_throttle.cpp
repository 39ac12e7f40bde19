#include "ingest/log_throttle.h"

namespace aev::ingest {

bool LogThrottle::admit(const std::string& key, std::int64_t nowMicros) {
  std::lock_guard lock(mutex_);
  if (last_.size() >= capacity_ && !last_.contains(key)) {
    std::erase_if(last_, [&](const auto& entry) { return nowMicros - entry.second >= interval_; });
    if (last_.size() >= capacity_) last_.clear();
  }
  auto [it, inserted] = last_.try_emplace(key, nowMicros);
  if (inserted) return true;
  if (nowMicros - it->second < interval_) return false;
  it->second = nowMicros;
  return true;
}

}  // namespace aev::ingest

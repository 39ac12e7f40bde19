#include "mcp/rate_limiter.h"

namespace aev::mcp {

int RateLimiter::admit(std::int64_t keyId, std::int64_t nowMicros) {
  constexpr std::int64_t kMinute = 60'000'000;
  const auto minute = nowMicros / kMinute;
  std::lock_guard lock(mutex_);
  // Keys idle since an earlier minute hold nothing worth keeping.
  if (windows_.size() > 10000) std::erase_if(windows_, [&](const auto& w) { return w.second.minute != minute; });
  auto& w = windows_[keyId];
  if (w.minute != minute) w = Window{minute, 0};
  if (w.count >= perMinute_) return static_cast<int>((minute + 1) * kMinute / 1'000'000 - nowMicros / 1'000'000);
  ++w.count;
  return 0;
}

}  // namespace aev::mcp

#pragma once
// Calls per API key per minute (fixed one-minute windows): one runaway agent loop must
// not take the daemon's request threads from everyone else.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace aev::mcp {

class RateLimiter {
 public:
  explicit RateLimiter(int perMinute) : perMinute_(perMinute) {}
  // 0 when the call may proceed (and is counted), else the seconds until it may.
  int admit(std::int64_t keyId, std::int64_t nowMicros);

 private:
  struct Window {
    std::int64_t minute = 0;
    int count = 0;
  };
  int perMinute_;
  std::mutex mutex_;
  std::unordered_map<std::int64_t, Window> windows_;
};

}  // namespace aev::mcp

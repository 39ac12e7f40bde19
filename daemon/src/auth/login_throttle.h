#pragma once
// Failed-login throttling per account and per client address (docs/api.md#authentication): after
// `maxFailures` failures inside the window further attempts get 429 until the oldest
// failure leaves the window. In memory: a restart forgives, which is acceptable for a
// brake on guessing (the hash cost is the other brake).
#include <chrono>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace aev::auth {

class LoginThrottle {
 public:
  LoginThrottle(int maxFailuresPerAccount, int maxFailuresPerAddress, std::chrono::seconds window);
  // Throws 429 with Retry-After when either key is over its budget.
  void check(const std::string& account, const std::string& address);
  void recordFailure(const std::string& account, const std::string& address);
  void recordSuccess(const std::string& account);

 private:
  using Clock = std::chrono::steady_clock;
  int retryAfter(std::deque<Clock::time_point>& failures, int max, Clock::time_point now);
  void prune(std::deque<Clock::time_point>& failures, Clock::time_point now);
  int maxAccount_;
  int maxAddress_;
  std::chrono::seconds window_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::deque<Clock::time_point>> byAccount_;
  std::unordered_map<std::string, std::deque<Clock::time_point>> byAddress_;
};

}  // namespace aev::auth

#pragma once
// When a failed delivery is tried again (docs/features.md#webhooks): the n-th retry waits the n-th
// step of the schedule (default 5s,5m,30m,2h,5h,10h,10h), spread by ±jitter so receivers
// that failed together are not hit together again, and never sooner than a Retry-After
// the receiver sent (capped at a day). Past the last step the message has failed.
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace aev::delivery {

class RetrySchedule {
 public:
  RetrySchedule() = default;
  explicit RetrySchedule(std::vector<std::chrono::milliseconds> steps, double jitter = 0.1)
      : steps_(std::move(steps)), jitter_(jitter) {}

  // "5s,5m,30m,2h" (units ms, s, m, h, d; whitespace ignored). Throws
  // std::invalid_argument naming the bad step.
  static RetrySchedule parse(const std::string& text, double jitter = 0.1);

  // Attempts in all: the first one plus one per step.
  std::size_t maxAttempts() const { return steps_.size() + 1; }
  const std::vector<std::chrono::milliseconds>& steps() const { return steps_; }

  // The wait after failed attempt number `attempt` (1-based), or std::nullopt when it was
  // the last one. `unit` is a uniform draw in [0, 1) (tests pass fixed values).
  std::optional<std::chrono::milliseconds> delayAfter(std::int64_t attempt,
                                                      std::optional<std::chrono::milliseconds> retryAfter,
                                                      double unit) const;
  // The same with a draw from a per-thread generator.
  std::optional<std::chrono::milliseconds> delayAfter(std::int64_t attempt,
                                                      std::optional<std::chrono::milliseconds> retryAfter) const;

  static constexpr std::chrono::milliseconds kMaxRetryAfter = std::chrono::hours(24);

 private:
  std::vector<std::chrono::milliseconds> steps_;
  double jitter_ = 0.1;
};

}  // namespace aev::delivery

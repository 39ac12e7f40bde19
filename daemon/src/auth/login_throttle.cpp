#include "auth/login_throttle.h"

#include "common/errors.h"

namespace aev::auth {

LoginThrottle::LoginThrottle(int maxFailuresPerAccount, int maxFailuresPerAddress, std::chrono::seconds window)
    : maxAccount_(maxFailuresPerAccount), maxAddress_(maxFailuresPerAddress), window_(window) {}

void LoginThrottle::prune(std::deque<Clock::time_point>& failures, Clock::time_point now) {
  while (!failures.empty() && now - failures.front() >= window_) failures.pop_front();
}

int LoginThrottle::retryAfter(std::deque<Clock::time_point>& failures, int max, Clock::time_point now) {
  prune(failures, now);
  if (static_cast<int>(failures.size()) < max) return 0;
  auto wait = std::chrono::duration_cast<std::chrono::seconds>(failures.front() + window_ - now).count();
  return static_cast<int>(wait < 1 ? 1 : wait);
}

void LoginThrottle::check(const std::string& account, const std::string& address) {
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  int wait = 0;
  if (auto it = byAccount_.find(account); it != byAccount_.end()) wait = retryAfter(it->second, maxAccount_, now);
  if (auto it = byAddress_.find(address); it != byAddress_.end())
    wait = std::max(wait, retryAfter(it->second, maxAddress_, now));
  if (wait > 0) throw errors::tooManyRequests("Too many failed logins; try again later.", wait);
}

void LoginThrottle::recordFailure(const std::string& account, const std::string& address) {
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  // Bound memory under a spray of random account names: drop idle entries.
  if (byAccount_.size() > 100000) byAccount_.clear();
  if (byAddress_.size() > 100000) byAddress_.clear();
  auto& a = byAccount_[account];
  prune(a, now);
  a.push_back(now);
  auto& b = byAddress_[address];
  prune(b, now);
  b.push_back(now);
}

void LoginThrottle::recordSuccess(const std::string& account) {
  std::lock_guard lock(mutex_);
  byAccount_.erase(account);
}

}  // namespace aev::auth

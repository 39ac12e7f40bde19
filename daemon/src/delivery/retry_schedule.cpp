#include "delivery/retry_schedule.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace aev::delivery {

namespace {

std::chrono::milliseconds parseStep(const std::string& raw) {
  std::string step;
  for (char c : raw)
    if (!std::isspace(static_cast<unsigned char>(c))) step += c;
  std::size_t digits = 0;
  while (digits < step.size() && std::isdigit(static_cast<unsigned char>(step[digits]))) ++digits;
  if (digits == 0 || digits > 9) throw std::invalid_argument("retry step '" + raw + "' must be a number with a unit");
  const std::int64_t n = std::stoll(step.substr(0, digits));
  const std::string unit = step.substr(digits);
  std::int64_t ms = 0;
  if (unit == "ms") ms = n;
  else if (unit == "s") ms = n * 1000;
  else if (unit == "m") ms = n * 60'000;
  else if (unit == "h") ms = n * 3'600'000;
  else if (unit == "d") ms = n * 86'400'000;
  else throw std::invalid_argument("retry step '" + raw + "' needs a unit: ms, s, m, h or d");
  return std::chrono::milliseconds(ms);
}

}  // namespace

RetrySchedule RetrySchedule::parse(const std::string& text, double jitter) {
  std::vector<std::chrono::milliseconds> steps;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const auto part = text.substr(start, comma - start);
    if (part.find_first_not_of(" \t") != std::string::npos) steps.push_back(parseStep(part));
    start = comma + 1;
  }
  return RetrySchedule(std::move(steps), jitter);
}

std::optional<std::chrono::milliseconds> RetrySchedule::delayAfter(std::int64_t attempt,
                                                                   std::optional<std::chrono::milliseconds> retryAfter,
                                                                   double unit) const {
  if (attempt < 1 || static_cast<std::size_t>(attempt) > steps_.size()) return std::nullopt;
  const auto base = steps_[static_cast<std::size_t>(attempt - 1)];
  // unit 0 → base·(1 − jitter), unit → 1 → base·(1 + jitter).
  const double factor = 1.0 + jitter_ * (2.0 * std::clamp(unit, 0.0, 1.0) - 1.0);
  auto delay = std::chrono::milliseconds(static_cast<std::int64_t>(static_cast<double>(base.count()) * factor));
  if (retryAfter) delay = std::max(delay, std::min(*retryAfter, kMaxRetryAfter));
  return delay;
}

std::optional<std::chrono::milliseconds> RetrySchedule::delayAfter(
    std::int64_t attempt, std::optional<std::chrono::milliseconds> retryAfter) const {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return delayAfter(attempt, retryAfter, std::uniform_real_distribution<double>(0.0, 1.0)(rng));
}

}  // namespace aev::delivery

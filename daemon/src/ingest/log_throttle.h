#pragma once
// Admits one message per key per interval: how refused exports are logged (once a minute
// per API key or address and reason) so a misconfigured exporter retrying in a loop
// writes one line a minute, not one per request. Bounded: past `capacity` keys the
// expired ones are swept, and if all are live (a flood of distinct addresses) forgotten.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace aev::ingest {

class LogThrottle {
 public:
  LogThrottle(std::int64_t intervalMicros, std::size_t capacity) : interval_(intervalMicros), capacity_(capacity) {}

  // True when `key` was not admitted in the interval before `nowMicros` (then remembered).
  bool admit(const std::string& key, std::int64_t nowMicros);

 private:
  std::int64_t interval_;
  std::size_t capacity_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::int64_t> last_;  // key → µs of its last admission
};

}  // namespace aev::ingest

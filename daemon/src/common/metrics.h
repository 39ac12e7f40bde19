#pragma once
// A tiny process-wide registry of counters and gauges rendered as Prometheus text by
// ops. Lock-free increments on the request path; names are fixed at first use.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace aev {

class Metrics {
 public:
  static Metrics& instance();

  // name may carry labels in Prometheus syntax: http_requests_total{status="2xx"}
  std::atomic<std::int64_t>& counter(const std::string& name, const std::string& help = "");
  void add(const std::string& name, std::int64_t delta = 1) { counter(name).fetch_add(delta, std::memory_order_relaxed); }
  std::string renderPrometheus() const;

 private:
  struct Entry {
    std::string help;
    std::atomic<std::int64_t> value{0};
  };
  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Entry>> entries_;
};

}  // namespace aev

#pragma once
// A tiny process-wide registry of counters and gauges rendered as Prometheus text by
// ops. Lock-free increments on the request path; names are fixed at first use. The
// families docs/operations.md names are registered at start, at 0, with their label sets
// (common/metric_catalog.cpp), so "alert on any increase" sees the first one.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace aev {

// A documented metric: its family, the label sets known in advance ("" for none, else
// `{status="5xx"}`), HELP, and the unit scale of its rendered value.
struct MetricDoc {
  std::string family;
  std::vector<std::string> labelSets;
  std::string help;
  double scale = 1.0;  // rendered value = stored integer * scale (1e-6: microseconds stored, seconds shown)
};

// The families exported from start (common/metric_catalog.cpp).
const std::vector<MetricDoc>& documentedMetrics();

class Metrics {
 public:
  static Metrics& instance();

  // name may carry labels in Prometheus syntax: http_requests_total{status="2xx"}. help
  // and scale describe the family (the first non-empty help wins; a family registered
  // with a scale keeps it).
  std::atomic<std::int64_t>& counter(const std::string& name, const std::string& help = "", double scale = 1.0);
  void add(const std::string& name, std::int64_t delta = 1) { counter(name).fetch_add(delta, std::memory_order_relaxed); }
  // Every family with # HELP and # TYPE (counter for a `_total` name, else gauge), its
  // samples together.
  std::string renderPrometheus() const;

 private:
  Metrics();
  struct Family {
    std::string help;
    double scale = 1.0;
    std::map<std::string, std::unique_ptr<std::atomic<std::int64_t>>> samples;  // by label set
  };
  mutable std::mutex mutex_;
  std::map<std::string, Family> families_;
};

}  // namespace aev

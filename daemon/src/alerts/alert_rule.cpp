#include "alerts/alert_rule.h"

#include <cmath>
#include <stdexcept>

namespace aev::alerts {

const std::vector<std::string>& metricNames() {
  static const std::vector<std::string> names = {"event_count", "error_count",    "error_rate",     "cost_usd",
                                                 "tokens",      "latency_p50_ms", "latency_p95_ms", "latency_p99_ms"};
  return names;
}

const std::vector<std::string>& operatorNames() {
  static const std::vector<std::string> names = {"gt", "gte", "lt", "lte", "eq"};
  return names;
}

bool crosses(const std::string& op, double value, double threshold) {
  if (op == "gt") return value > threshold;
  if (op == "gte") return value >= threshold;
  if (op == "lt") return value < threshold;
  if (op == "lte") return value <= threshold;
  // eq on measured doubles (rates, costs) compares to a relative tolerance: 0.1 + 0.2
  // must equal 0.3.
  if (op == "eq") return std::fabs(value - threshold) <= 1e-9 * std::max(1.0, std::fabs(threshold));
  throw std::logic_error("unknown alert operator " + op);
}

}  // namespace aev::alerts

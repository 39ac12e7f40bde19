#pragma once
// The vocabulary of alert rules (docs/features.md#alerts): metrics, operators, and when a value
// crosses a threshold.
#include <string>
#include <vector>

namespace aev::alerts {

const std::vector<std::string>& metricNames();    // event_count, error_count, error_rate, ...
const std::vector<std::string>& operatorNames();  // gt, gte, lt, lte, eq
bool crosses(const std::string& op, double value, double threshold);

constexpr long long kDefaultWindowMins = 5;
constexpr long long kMaxWindowMins = 24 * 60;

}  // namespace aev::alerts

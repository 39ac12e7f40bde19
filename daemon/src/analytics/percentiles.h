#pragma once
// Nearest-rank percentiles over sorted samples: the p-th percentile is the smallest
// sample with at least p% of the samples at or below it (always an observed value,
// identical on both stores because it is computed here, not by SQL).
#include <cmath>
#include <cstddef>
#include <vector>

namespace aev::analytics {

inline double nearestRank(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
  if (rank < 1) rank = 1;
  if (rank > sorted.size()) rank = sorted.size();
  return sorted[rank - 1];
}

}  // namespace aev::analytics

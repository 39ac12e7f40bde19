#pragma once
// How a window [since, until) is answered from rollups (docs/features.md#analytics-rollups):
// whole hours from hour rollups (when hours may be used), whole minutes from minute
// rollups, and the partial minutes at either edge from raw events.
#include <cstdint>
#include <vector>

namespace aev::analytics {

struct WindowPart {
  std::int64_t from = 0, to = 0;  // µs, [from, to)
  std::int64_t span = 0;          // rollup bucket seconds (60, 3600); 0: raw events
};

// `hours`: whether hour rollups may serve (not for a per-minute series).
std::vector<WindowPart> splitWindow(std::int64_t since, std::int64_t until, bool hours);

}  // namespace aev::analytics

#pragma once
// How a window [since, until) is answered from rollups (docs/features.md#analytics-rollups):
// whole UTC days from day rollups, the whole hours left at either end from hour rollups,
// then whole minutes from minute rollups, and the partial minutes at either edge from raw
// events; spans coarser than `maxSpanSeconds` are left out.
#include <cstdint>
#include <vector>

namespace aev::analytics {

struct WindowPart {
  std::int64_t from = 0, to = 0;  // µs, [from, to)
  std::int64_t span = 0;          // rollup bucket seconds (60, 3600, 86400); 0: raw events
};

// `maxSpanSeconds`: the coarsest rollup that may serve: a series of `step` buckets takes
// spans up to its step (each rollup bucket then lies inside one series bucket); a
// breakdown or a percentile over the whole window takes days.
std::vector<WindowPart> splitWindow(std::int64_t since, std::int64_t until, std::int64_t maxSpanSeconds);

}  // namespace aev::analytics

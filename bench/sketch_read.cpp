// sketch_read: the CPU a percentile over a window spends reading the rollups' latency
// sketches: 150 serialized sketches (22 busy hours of 6,000 lognormal durations, 128
// minutes of 100, the shape of a 24-hour window's hour and minute rows) deserialized and
// merged into one, then its p95. Prints the best of 7 repeats of 200 merges, in µs per
// merge. Built and run by bench/sketch_read.sh against a base revision's sketch.cpp.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "analytics/sketch.h"

using aev::analytics::LatencySketch;

int main() {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> duration(7.0, 1.5);
  std::vector<std::string> rows;
  for (int r = 0; r < 150; ++r) {
    LatencySketch s;
    for (int i = 0, n = r < 22 ? 6000 : 100; i < n; ++i) s.add(duration(rng));
    rows.push_back(s.serialize());
  }
  std::size_t bytes = 0;
  for (const auto& r : rows) bytes += r.size();
  double best = 1e18, p95 = 0;
  for (int repeat = 0; repeat < 7; ++repeat) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 200; ++i) {
      LatencySketch all;
      for (const auto& r : rows) all.merge(*LatencySketch::deserialize(r));
      p95 = all.quantile(95);
    }
    best =
        std::min(best, std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 200);
  }
  std::printf("%zu sketches, %zu bytes: %.1f us a merge (p95 %.3f)\n", rows.size(), bytes, best, p95);
}

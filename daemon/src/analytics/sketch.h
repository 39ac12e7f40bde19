#pragma once
// A mergeable latency sketch (DDSketch, Masson et al., VLDB 2019): values are counted in
// logarithmic buckets, bucket i holding (γ^(i-1), γ^i] with γ = (1 + α) / (1 - α). A
// quantile answers bucket i's midpoint 2γ^i / (γ + 1), which is within a relative error
// α of every value in the bucket, so of the exact nearest-rank percentile. α = 1 %.
//
// Why this shape (docs/features.md#analytics-rollups):
//   * merging is adding bucket counts, so minute sketches merge into hours and windows
//     exactly as if the values had been counted together (associative, commutative);
//   * subtracting is possible too (a count per bucket, no min/max kept), which is what lets
//     retention and a deleted channel take their events back out of a rollup;
//   * the size depends on the spread of the values, not their number: 1 ms .. 1 hour is at
//     most ~750 buckets, a minute of one model's calls usually a few dozen.
// Zero, and magnitudes below kMinMagnitude (1 ns in ms), are counted as 0; negative values
// in a mirrored set of buckets; magnitudes above kMaxMagnitude are clamped to it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aev::analytics {

class LatencySketch {
 public:
  static constexpr double kRelativeAccuracy = 0.01;
  static constexpr double kMinMagnitude = 1e-6;
  static constexpr double kMaxMagnitude = 1e15;

  void add(double value, std::uint64_t count = 1);
  void merge(const LatencySketch& other);
  // Takes out what `other` added (every count of other ≤ this one's; counts that would go
  // below zero stop at zero and the call answers false).
  bool subtract(const LatencySketch& other);

  std::uint64_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  // The nearest-rank p-th percentile (0 < p ≤ 100: the smallest value with at least p % of
  // the values at or below it), within kRelativeAccuracy of the exact one; 0 when empty.
  double quantile(double p) const;

  // Compact bytes: a version byte, the zero count, then each side's buckets as
  // (index delta, count) LEB128 varints (zig-zag for the first index).
  std::string serialize() const;
  // nullopt for anything serialize() could not have written (truncated, overlong or
  // trailing bytes, buckets out of order or out of range, zero counts, a count overflow).
  static std::optional<LatencySketch> deserialize(std::string_view bytes);

  // The bucket index of a positive magnitude, and the value a bucket answers.
  static int indexOf(double magnitude);
  static double valueOf(int index);
  static int minIndex();
  static int maxIndex();

  bool operator==(const LatencySketch& other) const = default;

 private:
  // Dense counts of buckets [offset, offset + counts.size()), no zero counts at the ends.
  struct Store {
    int offset = 0;
    std::vector<std::uint64_t> counts;
    void add(int index, std::uint64_t n);
    void merge(const Store& other);
    bool subtract(const Store& other);
    void trim();
    bool operator==(const Store& other) const = default;
  };
  static void appendStore(std::string& out, const Store& s);
  static bool readStore(std::string_view bytes, std::size_t& at, Store& s, std::uint64_t& total);

  Store positive_, negative_;
  std::uint64_t zero_ = 0;
  std::uint64_t count_ = 0;
};

}  // namespace aev::analytics

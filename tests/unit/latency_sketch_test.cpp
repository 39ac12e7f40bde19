// The rollups' latency sketch (analytics/sketch.h): merging is associative and equal to
// counting together, subtracting undoes a merge, quantiles stay within the documented
// relative error of the exact nearest-rank percentile, and the bytes round-trip and are
// refused when malformed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "analytics/percentiles.h"
#include "analytics/sketch.h"

namespace {

using aev::analytics::LatencySketch;

std::vector<double> randomValues(std::mt19937_64& rng, std::size_t n, int shape) {
  std::lognormal_distribution<double> lognormal(std::log(250.0), 1.5);
  std::uniform_real_distribution<double> uniform(0, 60000);
  std::uniform_int_distribution<int> small(-3, 3);
  std::vector<double> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    switch (shape) {
      case 0:
        out.push_back(lognormal(rng));
        break;
      case 1:
        out.push_back(uniform(rng));
        break;
      default:  // integers around zero: zeros and negatives too
        out.push_back(small(rng) * std::pow(10.0, small(rng)));
    }
  }
  return out;
}

LatencySketch sketchOf(const std::vector<double>& values) {
  LatencySketch s;
  for (double v : values) s.add(v);
  return s;
}

TEST(LatencySketch, QuantilesStayWithinTheRelativeErrorOfTheExactPercentile) {
  std::mt19937_64 rng(20261128);
  const double bound = LatencySketch::kRelativeAccuracy * (1 + 1e-9);
  for (int shape = 0; shape < 3; ++shape) {
    for (std::size_t n : {1u, 2u, 7u, 100u, 5000u}) {
      auto values = randomValues(rng, n, shape);
      const auto sketch = sketchOf(values);
      std::sort(values.begin(), values.end());
      ASSERT_EQ(sketch.count(), n);
      for (double p : {1.0, 25.0, 50.0, 90.0, 95.0, 99.0, 99.9, 100.0}) {
        const double exact = aev::analytics::nearestRank(values, p);
        const double approx = sketch.quantile(p);
        if (std::fabs(exact) < LatencySketch::kMinMagnitude) {
          EXPECT_EQ(approx, 0) << "shape " << shape << " n " << n << " p" << p;
          continue;
        }
        EXPECT_LE(std::fabs(approx - exact), bound * std::fabs(exact))
            << "shape " << shape << " n " << n << " p" << p << " exact " << exact << " sketch " << approx;
      }
    }
  }
}

TEST(LatencySketch, MergeIsAssociativeCommutativeAndEqualToCountingTogether) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20; ++round) {
    auto a = randomValues(rng, 300, round % 3), b = randomValues(rng, 50, (round + 1) % 3),
         c = randomValues(rng, 700, (round + 2) % 3);
    auto sa = sketchOf(a), sb = sketchOf(b), sc = sketchOf(c);
    auto left = sa;
    left.merge(sb);
    left.merge(sc);
    auto bc = sb;
    bc.merge(sc);
    auto right = sa;
    right.merge(bc);
    auto reversed = sc;
    reversed.merge(sb);
    reversed.merge(sa);
    std::vector<double> all = a;
    all.insert(all.end(), b.begin(), b.end());
    all.insert(all.end(), c.begin(), c.end());
    const auto together = sketchOf(all);
    EXPECT_EQ(left, right);
    EXPECT_EQ(left, reversed);
    EXPECT_EQ(left, together);
    EXPECT_EQ(left.serialize(), together.serialize());
  }
}

TEST(LatencySketch, SubtractUndoesAMerge) {
  std::mt19937_64 rng(11);
  auto a = sketchOf(randomValues(rng, 400, 0)), b = sketchOf(randomValues(rng, 400, 2));
  auto both = a;
  both.merge(b);
  EXPECT_TRUE(both.subtract(b));
  EXPECT_EQ(both, a);
  EXPECT_TRUE(both.subtract(a));
  EXPECT_TRUE(both.empty());
  EXPECT_EQ(both, LatencySketch{});
  // Taking out more than was added stops at zero and says so.
  auto one = sketchOf({5.0});
  EXPECT_FALSE(one.subtract(sketchOf({5.0, 5.0, 900.0})));
  EXPECT_TRUE(one.empty());
}

TEST(LatencySketch, BytesRoundTripAndStaySmall) {
  std::mt19937_64 rng(3);
  for (int shape = 0; shape < 3; ++shape) {
    const auto s = sketchOf(randomValues(rng, 2000, shape));
    const auto bytes = s.serialize();
    auto back = LatencySketch::deserialize(bytes);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, s);
    EXPECT_EQ(back->serialize(), bytes);
    EXPECT_LT(bytes.size(), 2000u);
  }
  const LatencySketch empty;
  EXPECT_EQ(empty.serialize().size(), 4u);
  EXPECT_EQ(LatencySketch::deserialize(empty.serialize()), empty);
  // A minute of one model's calls: a few dozen bytes.
  LatencySketch minute;
  for (int i = 0; i < 60; ++i) minute.add(800 + i * 3);
  EXPECT_LT(minute.serialize().size(), 64u);
}

TEST(LatencySketch, MalformedBytesAreRefused) {
  LatencySketch s;
  for (double v : {-4.0, 0.0, 1.5, 1.5, 2000.0}) s.add(v);
  const auto bytes = s.serialize();
  for (std::size_t cut = 0; cut < bytes.size(); ++cut)
    EXPECT_FALSE(LatencySketch::deserialize(bytes.substr(0, cut))) << "truncated at " << cut;
  EXPECT_FALSE(LatencySketch::deserialize(bytes + '\0'));                                        // trailing byte
  EXPECT_FALSE(LatencySketch::deserialize("\x02" + bytes.substr(1)));                            // unknown version
  EXPECT_FALSE(LatencySketch::deserialize(std::string("\x01\x80\x00\x00\x00", 5)));              // padded varint
  EXPECT_FALSE(LatencySketch::deserialize(std::string("\x01\x00\x01\x02\x00\x00", 6)));          // a zero count
  EXPECT_FALSE(LatencySketch::deserialize(std::string("\x01\x00\x02\x02\x01\x00\x01\x00", 8)));  // gap 0
  EXPECT_FALSE(LatencySketch::deserialize(std::string("\x01\x00\x01\xfe\x7f\x01\x00", 7)));      // index out of range
}

TEST(LatencySketch, ExtremesAreClampedNotLost) {
  LatencySketch s;
  s.add(1e-12);         // below the smallest magnitude: counted as 0
  s.add(1e300);         // above the largest: counted at it
  s.add(std::nan(""));  // not a duration: ignored
  EXPECT_EQ(s.count(), 2u);
  EXPECT_EQ(s.quantile(50), 0);
  EXPECT_NEAR(s.quantile(100), LatencySketch::kMaxMagnitude, LatencySketch::kMaxMagnitude * 0.011);
}

}  // namespace

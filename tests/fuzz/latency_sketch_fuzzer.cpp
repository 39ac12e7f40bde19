// libFuzzer target for the rollups' latency sketch bytes (analytics/sketch.h), which the
// daemon reads back from the store. Any input is either refused or is exactly what
// serialize() writes for the sketch it decodes to (one encoding per sketch); a decoded
// sketch answers ordered quantiles, and merging it with itself then subtracting it back
// gives it again.
#include <cstdint>
#include <string_view>

#include "analytics/sketch.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using aev::analytics::LatencySketch;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto sketch = LatencySketch::deserialize(input);
  if (!sketch) return 0;
  aev::fuzz::require(sketch->serialize() == input);
  double previous = sketch->quantile(0.5);
  for (double p : {1.0, 10.0, 50.0, 90.0, 99.0, 100.0}) {
    const double q = sketch->quantile(p);
    aev::fuzz::require(q >= previous);
    previous = q;
  }
  auto twice = *sketch;
  twice.merge(*sketch);
  aev::fuzz::require(twice.count() == 2 * sketch->count());
  aev::fuzz::require(twice.subtract(*sketch));
  aev::fuzz::require(twice == *sketch);
  return 0;
}

#include "analytics/rollup_window.h"

#include <iterator>

#include "store/rollup_writer.h"

namespace aev::analytics {

namespace {

std::int64_t ceilTo(std::int64_t ts, std::int64_t spanSeconds) {
  const auto floor = store::rollupBucketOf(ts, spanSeconds);
  return floor == ts ? ts : floor + spanSeconds * 1000000;
}

// [from, to) at `span`, its unaligned ends handed to `finer` (the next smaller span; raw
// below minutes).
void split(std::int64_t from, std::int64_t to, std::size_t level, const std::vector<std::int64_t>& spans,
           std::vector<WindowPart>& out) {
  if (from >= to) return;
  if (level == spans.size()) {
    out.push_back({from, to, 0});
    return;
  }
  const auto span = spans[level];
  const auto a = ceilTo(from, span), b = store::rollupBucketOf(to, span);
  if (a >= b) {
    split(from, to, level + 1, spans, out);
    return;
  }
  split(from, a, level + 1, spans, out);
  out.push_back({a, b, span});
  split(b, to, level + 1, spans, out);
}

}  // namespace

std::vector<WindowPart> splitWindow(std::int64_t since, std::int64_t until, std::int64_t maxSpanSeconds) {
  std::vector<WindowPart> out;
  std::vector<std::int64_t> spans;  // coarsest first
  for (auto it = std::rbegin(store::kRollupSpans); it != std::rend(store::kRollupSpans); ++it)
    if (*it <= maxSpanSeconds) spans.push_back(*it);
  split(since, until, 0, spans, out);
  return out;
}

}  // namespace aev::analytics

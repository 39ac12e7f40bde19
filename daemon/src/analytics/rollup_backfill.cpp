#include "analytics/rollup_backfill.h"

#include <algorithm>

namespace aev::analytics {

bool RollupBackfill::run(const std::function<bool()>& keepGoing) {
  if (finished_) return true;
  while (keepGoing()) {
    const auto started = std::chrono::steady_clock::now();
    const auto step = db_.transaction([&](store::Connection& c) { return writer_.backfillStep(c, chunk_); });
    if (adaptive_) {
      // Doubling or halving toward the target: a publisher that needs a row the step has
      // locked waits at most about one step.
      const auto took = std::chrono::steady_clock::now() - started;
      if (took < kTargetStep / 2) chunk_ = std::min(chunk_ * 2, kMaxChunk);
      if (took > kTargetStep * 2) chunk_ = std::max(chunk_ / 2, kMinChunk);
    }
    if (progress_.record(step.until, step.done, step.folded, step.finished)) {
      finished_ = true;
      return true;
    }
  }
  return false;
}

}  // namespace aev::analytics

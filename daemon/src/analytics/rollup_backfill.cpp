#include "analytics/rollup_backfill.h"

namespace aev::analytics {

bool RollupBackfill::run(const std::function<bool()>& keepGoing) {
  if (finished_) return true;
  while (keepGoing()) {
    const auto step = db_.transaction([&](store::Connection& c) { return writer_.backfillStep(c, chunk_); });
    if (progress_.record(step.until, step.done, step.folded, step.finished)) {
      finished_ = true;
      return true;
    }
  }
  return false;
}

}  // namespace aev::analytics

#include "traces/trace_facet_backfill.h"

namespace aev::traces {

bool TraceFacetBackfill::run(const std::function<bool()>& keepGoing) {
  if (finished_) return true;
  while (keepGoing()) {
    const auto step = db_.transaction([&](store::Connection& c) { return repo_.backfillStep(c, chunk_); });
    if (progress_.record(step.until, step.done, step.folded, step.finished)) {
      finished_ = true;
      return true;
    }
  }
  return false;
}

}  // namespace aev::traces

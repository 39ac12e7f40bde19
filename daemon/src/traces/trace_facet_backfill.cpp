#include "traces/trace_facet_backfill.h"

#include <spdlog/spdlog.h>

#include "common/metrics.h"

namespace aev::traces {

bool TraceFacetBackfill::run(const std::function<bool()>& keepGoing) {
  if (finished_) return true;
  static auto& remaining = Metrics::instance().counter("agent_events_trace_facet_backfill_remaining");
  static auto& folded = Metrics::instance().counter("agent_events_trace_facet_backfill_events_total");
  while (keepGoing()) {
    const auto step = db_.transaction([&](store::Connection& c) { return repo_.backfillStep(c, chunk_); });
    remaining.store(step.until - step.done, std::memory_order_relaxed);
    folded.fetch_add(step.folded, std::memory_order_relaxed);
    const auto now = std::chrono::steady_clock::now();
    if (step.finished) {
      if (announced_ || step.folded > 0)
        spdlog::info("trace facets: backfill done (events up to id {}); trace filters read the facets", step.until);
      finished_ = true;
      return true;
    }
    if (!announced_) {
      spdlog::info(
          "trace facets: backfilling the events stored before them (ids {} to {}); the trace, session and end-user "
          "filters probe events until it is done",
          step.done, step.until);
      announced_ = true;
      lastLog_ = now;
    } else if (now - lastLog_ > std::chrono::seconds(10)) {
      spdlog::info("trace facets: backfill at event id {} of {} ({:.1f} %)", step.done, step.until,
                   100.0 * static_cast<double>(step.done) / static_cast<double>(step.until));
      lastLog_ = now;
    }
  }
  return false;
}

}  // namespace aev::traces

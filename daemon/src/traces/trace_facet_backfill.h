#pragma once
// Writes the trace facets (store/trace_facets.h) of the events a store held before they
// existed (migration v23), in the background, in chunks of one transaction each: publishing
// waits at most one chunk behind it, a restart resumes where the last chunk committed, and
// the traces, sessions and end-users lists probe events until the last chunk is done.
// Progress goes to the log and to /metrics (agent_events_trace_facet_backfill_remaining,
// agent_events_trace_facet_backfill_events_total).
#include <cstdint>
#include <functional>

#include "common/backfill_progress.h"
#include "store/database.h"
#include "store/trace_facets.h"

namespace aev::traces {

class TraceFacetBackfill {
 public:
  explicit TraceFacetBackfill(store::Database& db, std::int64_t chunk = 2000) : db_(db), chunk_(chunk) {}
  // Chunks until done or `keepGoing` says stop; true once every facet is written.
  bool run(const std::function<bool()>& keepGoing = [] { return true; });

 private:
  store::Database& db_;
  std::int64_t chunk_;
  store::TraceFacetRepository repo_;
  bool finished_ = false;
  BackfillProgress progress_{"trace facets", "agent_events_trace_facet_backfill",
                             "the trace, session and end-user filters probe events until it is done",
                             "trace filters read the facets"};
};

}  // namespace aev::traces

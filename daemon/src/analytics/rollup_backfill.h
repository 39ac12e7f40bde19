#pragma once
// Folds the events a store held before the analytics rollups existed into them, in the
// background, in chunks of one transaction each (docs/features.md#analytics-rollups):
// publishing waits at most one chunk behind it, a restart resumes where the last chunk
// committed, and analytics reads raw events until the last chunk is done. Progress goes
// to the log and to /metrics (agent_events_rollup_backfill_remaining,
// agent_events_rollup_backfill_events_total).
#include <cstdint>
#include <functional>

#include "common/backfill_progress.h"
#include "store/database.h"
#include "store/rollup_writer.h"

namespace aev::analytics {

class RollupBackfill {
 public:
  explicit RollupBackfill(store::Database& db, std::int64_t chunk = 2000) : db_(db), chunk_(chunk) {}
  // Chunks until done or `keepGoing` says stop; true once everything is folded in.
  bool run(const std::function<bool()>& keepGoing = [] { return true; });
  bool finished() const { return finished_; }

 private:
  store::Database& db_;
  std::int64_t chunk_;
  store::RollupWriter writer_;
  bool finished_ = false;
  BackfillProgress progress_{"analytics rollups", "agent_events_rollup_backfill",
                             "analytics reads raw events until it is done", "analytics reads the rollups"};
};

}  // namespace aev::analytics

#pragma once
// Folds the events a store held before the analytics rollups existed into them, in the
// background, in chunks of one transaction each (docs/features.md#analytics-rollups):
// publishing waits at most one chunk behind it, a restart resumes where the last chunk
// committed, and analytics reads raw events until the last chunk is done. Progress goes
// to the log and to /metrics (agent_events_rollup_backfill_remaining,
// agent_events_rollup_backfill_events_total).
#include <chrono>
#include <cstdint>
#include <functional>

#include "common/backfill_progress.h"
#include "store/database.h"
#include "store/rollup_writer.h"

namespace aev::analytics {

class RollupBackfill {
 public:
  // Chunks sized to take about kTargetStep each: the size that keeps a transaction short
  // depends on the store and on how dense the events are (a chunk that spans less than a
  // minute rewrites the same rollup rows again at every step: bench/NOTEBOOK.md,
  // 2026-11-28 16:00).
  explicit RollupBackfill(store::Database& db) : db_(db), chunk_(kFirstChunk), adaptive_(true) {}
  // Chunks of exactly `chunk` events (tests).
  RollupBackfill(store::Database& db, std::int64_t chunk) : db_(db), chunk_(chunk), adaptive_(false) {}
  // Chunks until done or `keepGoing` says stop; true once everything is folded in.
  bool run(const std::function<bool()>& keepGoing = [] { return true; });
  bool finished() const { return finished_; }

 private:
  static constexpr std::int64_t kFirstChunk = 2000, kMinChunk = 500, kMaxChunk = 32000;
  static constexpr std::chrono::milliseconds kTargetStep{250};

  store::Database& db_;
  std::int64_t chunk_;
  bool adaptive_;
  store::RollupWriter writer_;
  bool finished_ = false;
  BackfillProgress progress_{"analytics rollups", "agent_events_rollup_backfill",
                             "analytics reads raw events until it is done", "analytics reads the rollups"};
};

}  // namespace aev::analytics

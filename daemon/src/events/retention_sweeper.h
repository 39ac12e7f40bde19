#pragma once
// Deletes events older than their organization's plan retention (docs/features.md#plans-and-quotas,
// plans.<plan>.retention_days; 0 keeps them forever), oldest first, in transactions of
// at most `batchSize` events so publishing never waits long behind the sweep. Trace
// rollups of the deleted events are rebuilt in the same transaction. With several nodes
// on one PostgreSQL, an advisory lock lets one of them sweep at a time.
#include <cstdint>
#include <functional>

#include "identity/plans.h"
#include "store/database.h"
#include "store/retention_repository.h"
#include "store/trace_repository.h"

namespace aev::events {

class RetentionSweeper {
 public:
  RetentionSweeper(store::Database& db, const identity::PlanCatalog& plans, std::int64_t batchSize);

  // One pass as of `now` (µs since the epoch; injected so tests need not wait days).
  // `keepGoing` is asked between batches (false stops early, e.g. at shutdown). Returns
  // the number of events deleted.
  std::size_t sweep(
      std::int64_t now, const std::function<bool()>& keepGoing = [] { return true; });

 private:
  store::Database& db_;
  const identity::PlanCatalog& plans_;
  std::int64_t batchSize_;
  store::RetentionRepository repo_;
  store::TraceRepository traces_;
};

}  // namespace aev::events

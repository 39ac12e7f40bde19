// v22: UTC day rollups (docs/features.md#analytics-rollups). No column changes: a day row
// is a row of analytics_rollups with span_s 86400. What changes is the data: a store
// written since v20 holds minutes and hours but no days, and a day row must equal the sum
// of its hours for a window to be answered from either. So the rollups are emptied and
// every stored event handed to the background backfill (store/rollup_writer.h), which
// writes minutes, hours and days together in resumable chunks; queries read raw events
// until it is done, as after v20. v20 shipped in no release, so only stores written by a
// development build of it pay the rebuild.
#include "store/schema_parts.h"

namespace aev::store {

Migration rollupDaysMigration(Dialect d) {
  return {22,
          "analytics_rollup_days",
          {d == Dialect::PostgreSQL ? "TRUNCATE analytics_rollups" : "DELETE FROM analytics_rollups",
           "UPDATE analytics_rollup_state SET backfill_until = (SELECT COALESCE(MAX(id), 0) FROM events), "
           "backfilled_to = 0 WHERE id = 1"}};
}

}  // namespace aev::store

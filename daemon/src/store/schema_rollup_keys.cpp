// v24: the analytics rollups' rows without foreign keys on PostgreSQL. Each new rollup row
// (every key of a minute the first time it is seen, and most rows a backfill writes) ran
// two referential-integrity checks, each a query through SPI that locks the organization's
// and the app's row: a quarter of PostgreSQL's time in a rollup backfill (perf,
// bench/NOTEBOOK.md, 2026-11-28 16:00). The rows are derived data: deleting an app or an
// organization deletes its rollups itself (AppRepository::remove,
// OrganizationRepository::remove), in the same transaction, instead of by cascade. SQLite
// keeps its foreign keys (a check there is one B-tree probe in the same process).
#include "store/schema_parts.h"

namespace aev::store {

Migration rollupKeysMigration(Dialect d) {
  if (d != Dialect::PostgreSQL) return {24, "analytics_rollup_keys", {}};
  return {24,
          "analytics_rollup_keys",
          {"ALTER TABLE analytics_rollups DROP CONSTRAINT IF EXISTS analytics_rollups_org_id_fkey, "
           "DROP CONSTRAINT IF EXISTS analytics_rollups_app_id_fkey"}};
}

}  // namespace aev::store

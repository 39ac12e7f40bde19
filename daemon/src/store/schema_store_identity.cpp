// v14: the store's identity (store/store_identity.h): one row saying whether this store is
// live or a backup not yet restored, and on PostgreSQL which database it was written in.
// Filled at the first start on this schema (checkStoreServable), not here: the oid and the
// instance id come from the running store.
#include "store/schema_parts.h"

namespace aev::store {

Migration storeIdentityMigration(Dialect) {
  return {14, "store_identity", {R"(CREATE TABLE store_identity (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  instance_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('live', 'backup')),
  database_oid BIGINT,
  created_at BIGINT NOT NULL,
  backup_taken_at BIGINT,
  restored_at BIGINT))"}};
}

}  // namespace aev::store

// v7: the tamper-evident audit log (docs/features.md#audit-log): entries chained by hash per
// organization, the head each append advances, and signed checkpoints of that head.
#include "store/schema_parts.h"

namespace aev::store {

Migration auditMigration(Dialect d) {
  return {7,
          "audit_log",
          {// actor_id is not a foreign key: an entry outlives the user or key that acted.
           // metadata holds the canonical JSON text the hash covered (NULL for none).
           ddl(d, R"(CREATE TABLE audit_log (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  seq BIGINT NOT NULL,
  actor_id TEXT NOT NULL,
  actor_email TEXT NOT NULL,
  action TEXT NOT NULL,
  resource_type TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  source TEXT NOT NULL,
  ip_address TEXT NOT NULL,
  request_id TEXT NOT NULL,
  metadata TEXT,
  created_at BIGINT NOT NULL,
  prev_hash TEXT NOT NULL,
  entry_hash TEXT NOT NULL,
  UNIQUE (org_id, seq)))"),
           // The list reads an organization's entries newest first, bounded by `before`.
           "CREATE INDEX audit_log_org_time ON audit_log(org_id, created_at)",
           // One row per organization: the last seq and entry hash. Appends advance it
           // with one UPDATE, whose row lock (PostgreSQL) or write lock (SQLite) holds
           // until commit, so concurrent changes queue instead of forking the chain.
           R"(CREATE TABLE audit_heads (
  org_id BIGINT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  seq BIGINT NOT NULL,
  entry_hash TEXT NOT NULL))",
           // Signed statements "the chain of org X had entry hash H at seq N", made with
           // a key kept outside the database: a rewrite or truncation that also fixes up
           // the head still contradicts them.
           ddl(d, R"(CREATE TABLE audit_checkpoints (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  seq BIGINT NOT NULL,
  entry_hash TEXT NOT NULL,
  signed_at BIGINT NOT NULL,
  key_id TEXT NOT NULL,
  signature TEXT NOT NULL,
  UNIQUE (org_id, seq)))")}};
}

}  // namespace aev::store

// v10: export destinations (docs/features.md#export-destinations). Their messages use the
// delivery engine's outbox and attempt log (v9) with target_kind 'export'.
#include "store/schema_parts.h"

namespace aev::store {

Migration exportsMigration(Dialect d) {
  return {10,
          "exports",
          {ddl(d, R"(CREATE TABLE export_destinations (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  endpoint_url TEXT NOT NULL,
  env_slug TEXT NOT NULL,
  signals TEXT NOT NULL,
  event_type_filter TEXT,
  headers TEXT NOT NULL,
  service_name TEXT,
  encoding TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL))"),
           // signals and event_type_filter as ",a,b," (one LIKE matches a value); headers
           // is a JSON object whose values are never shown again (headerKeys only).
           "CREATE INDEX export_destinations_org ON export_destinations(org_id, active)"}};
}

}  // namespace aev::store

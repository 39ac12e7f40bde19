// v4: the telemetry fields of docs/features.md#telemetry-fields, extracted once at ingest into columns of
// events (analytics groups and sums them without parsing JSON), and custom attributes
// (metadata.tags) into their own table. Events stored before v4 keep NULL telemetry.
#include "store/schema_parts.h"

namespace aev::store {

Migration telemetryMigration(Dialect d) {
  Migration m{4, "telemetry", {}};
  // ts: the time analytics windows use (the publisher's timestamp, else receipt).
  for (const char* column :
       {"ts BIGINT", "model TEXT", "provider TEXT", "status TEXT", "agent TEXT", "tool TEXT", "finish_reason TEXT",
        "semantic_kind TEXT", "service TEXT", "operation TEXT", "error_type TEXT", "environment TEXT",
        "release_tag TEXT", "end_user TEXT", "input_tokens BIGINT", "output_tokens BIGINT",
        "cost_usd DOUBLE PRECISION", "duration_ms DOUBLE PRECISION"})
    m.statements.push_back(std::string("ALTER TABLE events ADD COLUMN ") + column);
  m.statements.push_back("UPDATE events SET ts = COALESCE(occurred_at, received_at)");
  m.statements.push_back("CREATE INDEX events_org_ts ON events(org_id, ts)");
  m.statements.push_back(ddl(d, R"(CREATE TABLE event_attributes (
  event_id BIGINT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  org_id BIGINT NOT NULL,
  ts BIGINT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL))"));
  m.statements.push_back("CREATE INDEX event_attributes_org_key_ts ON event_attributes(org_id, key, ts)");
  m.statements.push_back("CREATE INDEX event_attributes_event ON event_attributes(event_id, key)");
  // The keys /analytics/dimensions lists, per environment ('' when the event has none).
  m.statements.push_back(ddl(d, R"(CREATE TABLE attribute_keys (
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  key TEXT NOT NULL,
  source TEXT NOT NULL,
  last_seen BIGINT NOT NULL,
  PRIMARY KEY (org_id, environment, key)))"));
  return m;
}

}  // namespace aev::store

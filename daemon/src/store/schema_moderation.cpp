// v6: moderation rules and the violations they record (docs/features.md#moderation).
#include "store/schema_parts.h"

namespace aev::store {

Migration moderationMigration(Dialect d) {
  return {6,
          "moderation",
          {ddl(d, R"(CREATE TABLE moderation_rules (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  action TEXT NOT NULL,
  detector TEXT NOT NULL,
  pattern TEXT,
  target TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL))"),
           // Rules load per organization in creation (id) order.
           "CREATE INDEX moderation_rules_org ON moderation_rules(org_id, id)",
           // One row per rule that matched an event. rule_id and event_id are not foreign
           // keys: a violation outlives its rule (efficacy keeps counting it, with the
           // name it had) and a blocked event never gets an id. The matched text is never
           // stored, only where it was (fields).
           ddl(d, R"(CREATE TABLE moderation_violations (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  rule_id BIGINT NOT NULL,
  rule_name TEXT NOT NULL,
  detector TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  event_id BIGINT,
  channel_id BIGINT,
  event_type TEXT,
  source TEXT NOT NULL,
  match_count BIGINT NOT NULL,
  fields TEXT NOT NULL,
  latency_ms DOUBLE PRECISION NOT NULL,
  created_at BIGINT NOT NULL))"),
           // Efficacy and the newest-first list both read an organization's time window.
           "CREATE INDEX moderation_violations_org_time ON moderation_violations(org_id, created_at)"}};
}

}  // namespace aev::store

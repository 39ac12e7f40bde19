// v11: alert rules (docs/features.md#alerts) with their evaluation state, and the history of their
// state changes (each one a notification for the rule's destination).
#include "store/schema_parts.h"

namespace aev::store {

Migration alertsMigration(Dialect d) {
  return {11,
          "alerts",
          {// app_id / environment_id are filters, not foreign keys: deleting an app leaves
           // the rule (it then matches nothing) rather than silently dropping an alert.
           ddl(d, R"(CREATE TABLE alert_rules (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  metric TEXT NOT NULL,
  operator TEXT NOT NULL,
  threshold DOUBLE PRECISION NOT NULL,
  window_mins BIGINT NOT NULL,
  app_id BIGINT,
  environment_id BIGINT,
  model TEXT,
  service TEXT,
  release_tag TEXT,
  destination TEXT,
  destination_type TEXT,
  enabled INTEGER NOT NULL DEFAULT 1,
  state TEXT NOT NULL DEFAULT 'ok',
  last_value DOUBLE PRECISION,
  last_evaluated_at BIGINT,
  fired_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL))"),
           "CREATE INDEX alert_rules_org ON alert_rules(org_id, id)",
           // notification: the alert JSON (docs/plugins.md) sent to the destination;
           // delivered_at stays NULL until an alert sink accepted it.
           ddl(d, R"(CREATE TABLE alert_events (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  rule_id BIGINT NOT NULL REFERENCES alert_rules(id) ON DELETE CASCADE,
  state TEXT NOT NULL,
  value DOUBLE PRECISION,
  threshold DOUBLE PRECISION NOT NULL,
  fired_at BIGINT NOT NULL,
  resolved_at BIGINT,
  notification TEXT NOT NULL,
  delivered_at BIGINT,
  created_at BIGINT NOT NULL))"),
           "CREATE INDEX alert_events_rule ON alert_events(org_id, rule_id, id)"}};
}

}  // namespace aev::store

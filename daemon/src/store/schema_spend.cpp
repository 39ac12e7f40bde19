// v8: spend policies (docs/features.md#spend-policies), the per-window spend counters publish adds to, the
// rung crossings recorded once per window, and the notifications the outbound delivery
// engine sends (rows with sent_at NULL).
#include "store/schema_parts.h"

namespace aev::store {

Migration spendMigration(Dialect d) {
  return {8,
          "spend",
          {ddl(d, R"(CREATE TABLE spend_policies (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  api_key_id BIGINT,
  app_id BIGINT,
  environment_id BIGINT,
  user_id TEXT,
  model TEXT,
  provider TEXT,
  tag_key TEXT,
  tag_value TEXT,
  limit_usd DOUBLE PRECISION NOT NULL,
  window_type TEXT NOT NULL,
  cooldown_mins BIGINT NOT NULL,
  destination TEXT,
  destination_type TEXT,
  enabled INTEGER NOT NULL DEFAULT 1,
  rungs TEXT NOT NULL,
  last_notified_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL))"),
           "CREATE INDEX spend_policies_org ON spend_policies(org_id, id)",
           // Spend in nano-dollars (integers add exactly and in any order) per policy and
           // bucket: the window's start for calendar windows, the minute for rolling_24h.
           // Publish adds to it in the transaction that stores the event. No foreign key:
           // an event assessed just before its policy was deleted must still commit (the
           // policy's buckets are deleted with it; such a late row is never read).
           ddl(d, R"(CREATE TABLE spend_buckets (
  policy_id BIGINT NOT NULL,
  bucket_start BIGINT NOT NULL,
  spent_nanos BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (policy_id, bucket_start)))"),
           // One row per rung crossed per window: the unique key makes the record (and so
           // the notification) happen once, whichever request or node crosses first.
           ddl(d, R"(CREATE TABLE spend_crossings (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  policy_id BIGINT NOT NULL REFERENCES spend_policies(id) ON DELETE CASCADE,
  window_start BIGINT NOT NULL,
  at_percent INTEGER NOT NULL,
  action TEXT NOT NULL,
  spent_nanos BIGINT NOT NULL,
  crossed_at BIGINT NOT NULL,
  UNIQUE (policy_id, window_start, at_percent)))"),
           // Outbox of spend alerts for the delivery engine: it sends rows with sent_at NULL
           // (oldest first) through the alert sink named by destination_type and sets
           // sent_at. Not tied to the policy: a notification outlives its policy.
           ddl(d, R"(CREATE TABLE spend_notifications (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  policy_id BIGINT NOT NULL,
  crossing_id BIGINT NOT NULL,
  at_percent INTEGER NOT NULL,
  percent DOUBLE PRECISION NOT NULL,
  window_start BIGINT NOT NULL,
  destination TEXT NOT NULL,
  destination_type TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  sent_at BIGINT))"),
           "CREATE INDEX spend_notifications_unsent ON spend_notifications(sent_at, id)",
           "CREATE INDEX spend_notifications_org ON spend_notifications(org_id, id)"}};
}

}  // namespace aev::store

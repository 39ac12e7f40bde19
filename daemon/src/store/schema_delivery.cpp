// v9: the outbound delivery engine's outbox and attempt log, and webhook endpoints
// (docs/features.md#webhooks, #outbound-requests). Export destinations add their own table later.
#include "store/schema_parts.h"

namespace aev::store {

Migration deliveryMigration(Dialect d) {
  return {9,
          "delivery",
          {ddl(d, R"(CREATE TABLE webhook_endpoints (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  channel_id BIGINT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  event_types TEXT,
  description TEXT NOT NULL DEFAULT '',
  active INTEGER NOT NULL DEFAULT 1,
  failing_since BIGINT,
  disabled_at BIGINT,
  disabled_reason TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL))"),
           // event_types: NULL = every type, else ",agent.start,agent.end," so the outbox
           // insert filters with one LIKE in both dialects.
           "CREATE INDEX webhook_endpoints_channel ON webhook_endpoints(channel_id, active)",
           "CREATE INDEX webhook_endpoints_org ON webhook_endpoints(org_id, id)",
           // One row per message to one target (a webhook endpoint, later an export
           // destination or an alert sink), written in the transaction of what caused it.
           // event_id is not a foreign key: retention may delete the event first, and the
           // message then fails with a reason instead of vanishing. message_id NULL means
           // "msg_<id>"; a redelivery copies the original's so the webhook-id stays.
           // claimed_until is the lease of the worker that holds the message: a crashed
           // node's claims expire and the message is taken again.
           ddl(d, R"(CREATE TABLE delivery_outbox (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  target_kind TEXT NOT NULL,
  target_id BIGINT NOT NULL,
  event_id BIGINT,
  message_id TEXT,
  payload TEXT,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  claimed_until BIGINT,
  last_error TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL))"),
           "CREATE INDEX delivery_outbox_due ON delivery_outbox(state, next_attempt_at)",
           // The head of a target's queue (ordering per target) is its lowest pending id.
           "CREATE INDEX delivery_outbox_target ON delivery_outbox(target_kind, target_id, state, id)",
           // Every attempt, for GET /webhooks/deliveries/:endpointId and the export
           // destination deliveries list. response_body is stored truncated (4 KiB).
           ddl(d, R"(CREATE TABLE delivery_attempts (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  outbox_id BIGINT NOT NULL,
  target_kind TEXT NOT NULL,
  target_id BIGINT NOT NULL,
  event_id BIGINT,
  message_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  status_code INTEGER NOT NULL,
  response_body TEXT NOT NULL,
  outcome TEXT NOT NULL,
  duration_ms BIGINT NOT NULL,
  next_attempt_at BIGINT,
  created_at BIGINT NOT NULL))"),
           "CREATE INDEX delivery_attempts_target ON delivery_attempts(target_kind, target_id, id)"}};
}

}  // namespace aev::store

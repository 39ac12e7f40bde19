// v21: the publishes a spend policy's hard block rung refused (issue 27), so the console can
// say how many and show the newest: a running count on the policy, and the newest rows
// (each write prunes the policy's rows beyond its newest 20, so the table stays bounded).
// Written only when a publish is refused: the accepted path never touches them.
#include "store/schema_parts.h"

namespace aev::store {

Migration spendRefusalsMigration(Dialect d) {
  return {21,
          "spend_refusals",
          {"ALTER TABLE spend_policies ADD COLUMN refusal_count BIGINT NOT NULL DEFAULT 0",
           ddl(d, R"(CREATE TABLE spend_refusals (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  policy_id BIGINT NOT NULL REFERENCES spend_policies(id) ON DELETE CASCADE,
  occurred_at BIGINT NOT NULL,
  api_key_id BIGINT,
  channel_id BIGINT,
  agent_id TEXT,
  reason TEXT NOT NULL,
  amount_usd DOUBLE PRECISION))"),
           "CREATE INDEX spend_refusals_policy ON spend_refusals(policy_id, id)"}};
}

}  // namespace aev::store

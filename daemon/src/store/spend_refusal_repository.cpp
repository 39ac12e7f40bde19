#include "store/spend_refusal_repository.h"

namespace aev::store {

void SpendRefusalRepository::record(Connection& c, const SpendRefusalRecord& r) {
  // Scoped to the policy's own organization: a refusal never lands on another's policy. The
  // casts type the NULLs a SELECT list would otherwise leave as text (PostgreSQL).
  c.exec(
      "INSERT INTO spend_refusals (org_id, policy_id, occurred_at, api_key_id, channel_id, agent_id, reason, "
      "amount_usd) SELECT ?, ?, ?, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS "
      "DOUBLE PRECISION) WHERE EXISTS (SELECT 1 FROM spend_policies WHERE org_id = ? AND id = ?)",
      {r.orgId, r.policyId, r.occurredAt, optionalValue(r.apiKeyId), optionalValue(r.channelId),
       optionalValue(r.agentId), r.reason, optionalValue(r.amountUsd), r.orgId, r.policyId});
  c.exec("UPDATE spend_policies SET refusal_count = refusal_count + 1 WHERE org_id = ? AND id = ?",
         {r.orgId, r.policyId});
  c.exec(
      "DELETE FROM spend_refusals WHERE policy_id = ? AND id <= (SELECT id FROM spend_refusals WHERE policy_id = ? "
      "ORDER BY id DESC LIMIT 1 OFFSET ?)",
      {r.policyId, r.policyId, kKeptRefusals});
}

std::int64_t SpendRefusalRepository::count(Connection& c, std::int64_t orgId, std::int64_t policyId) {
  auto rows = c.query("SELECT refusal_count FROM spend_policies WHERE org_id = ? AND id = ?", {orgId, policyId});
  return rows.empty() ? 0 : rows.front().i64("refusal_count");
}

std::vector<SpendRefusalRecord> SpendRefusalRepository::newest(Connection& c, std::int64_t orgId,
                                                               std::int64_t policyId) {
  std::vector<SpendRefusalRecord> out;
  for (const auto& row : c.query(
           "SELECT occurred_at, api_key_id, channel_id, agent_id, reason, amount_usd FROM spend_refusals WHERE org_id "
           "= ? AND policy_id = ? ORDER BY id DESC LIMIT ?",
           {orgId, policyId, kKeptRefusals})) {
    SpendRefusalRecord r;
    r.orgId = orgId;
    r.policyId = policyId;
    r.occurredAt = row.i64("occurred_at");
    r.apiKeyId = row.optI64("api_key_id");
    r.channelId = row.optI64("channel_id");
    r.agentId = row.optStr("agent_id");
    r.reason = row.str("reason");
    if (!row.isNull("amount_usd")) r.amountUsd = row.f64("amount_usd");
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace aev::store

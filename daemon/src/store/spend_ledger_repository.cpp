#include "store/spend_ledger_repository.h"

namespace aev::store {

namespace {
constexpr const char* kNotificationColumns =
    "id, org_id, policy_id, crossing_id, at_percent, percent, window_start, destination, destination_type, payload, "
    "created_at, sent_at";

SpendNotificationRecord notificationFromRow(const Row& r) {
  SpendNotificationRecord n;
  n.id = r.i64("id");
  n.orgId = r.i64("org_id");
  n.policyId = r.i64("policy_id");
  n.crossingId = r.i64("crossing_id");
  n.atPercent = r.i64("at_percent");
  n.percent = r.f64("percent");
  n.windowStart = r.i64("window_start");
  n.destination = r.str("destination");
  n.destinationType = r.str("destination_type");
  n.payloadJson = r.str("payload");
  n.createdAt = r.i64("created_at");
  n.sentAt = r.optI64("sent_at");
  return n;
}
}  // namespace

void SpendLedgerRepository::add(Connection& c, std::int64_t policyId, std::int64_t bucketStart, std::int64_t nanos) {
  c.exec(
      "INSERT INTO spend_buckets (policy_id, bucket_start, spent_nanos) VALUES (?, ?, ?) "
      "ON CONFLICT (policy_id, bucket_start) DO UPDATE SET spent_nanos = spend_buckets.spent_nanos + excluded.spent_nanos",
      {policyId, bucketStart, nanos});
}

std::map<std::int64_t, std::int64_t> SpendLedgerRepository::totals(
    Connection& c, std::int64_t orgId, const std::map<std::int64_t, std::int64_t>& sinceByPolicy) {
  std::map<std::int64_t, std::int64_t> out;
  if (sinceByPolicy.empty()) return out;
  std::string sql =
      "SELECT b.policy_id AS policy_id, SUM(b.spent_nanos) AS spent FROM spend_buckets b "
      "JOIN spend_policies p ON p.id = b.policy_id WHERE p.org_id = ? AND (";
  Params params;
  params.emplace_back(orgId);
  bool first = true;
  for (const auto& [policyId, since] : sinceByPolicy) {
    out[policyId] = 0;
    sql += first ? "" : " OR ";
    sql += "(b.policy_id = ? AND b.bucket_start >= ?)";
    params.emplace_back(policyId);
    params.emplace_back(since);
    first = false;
  }
  sql += ") GROUP BY b.policy_id";
  for (const auto& r : c.query(sql, std::move(params))) out[r.i64("policy_id")] = r.i64("spent");
  return out;
}

std::vector<std::pair<std::int64_t, std::int64_t>> SpendLedgerRepository::buckets(Connection& c, std::int64_t orgId,
                                                                                  std::int64_t policyId,
                                                                                  std::int64_t since) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (const auto& r : c.query(
           "SELECT b.bucket_start AS bucket_start, b.spent_nanos AS spent FROM spend_buckets b "
           "JOIN spend_policies p ON p.id = b.policy_id WHERE p.org_id = ? AND b.policy_id = ? AND b.bucket_start >= ? "
           "ORDER BY b.bucket_start",
           {orgId, policyId, since}))
    out.emplace_back(r.i64("bucket_start"), r.i64("spent"));
  return out;
}

void SpendLedgerRepository::touch(Connection& c, std::int64_t policyId, std::int64_t bucketStart) {
  // A no-op update rather than DO NOTHING: it locks an existing row too.
  c.exec(
      "INSERT INTO spend_buckets (policy_id, bucket_start, spent_nanos) VALUES (?, ?, 0) "
      "ON CONFLICT (policy_id, bucket_start) DO UPDATE SET spent_nanos = spend_buckets.spent_nanos",
      {policyId, bucketStart});
}

void SpendLedgerRepository::set(Connection& c, std::int64_t policyId, std::int64_t bucketStart, std::int64_t nanos) {
  c.exec(
      "INSERT INTO spend_buckets (policy_id, bucket_start, spent_nanos) VALUES (?, ?, ?) "
      "ON CONFLICT (policy_id, bucket_start) DO UPDATE SET spent_nanos = excluded.spent_nanos",
      {policyId, bucketStart, nanos});
}

void SpendLedgerRepository::removeBuckets(Connection& c, std::int64_t policyId, std::int64_t from,
                                          std::int64_t before) {
  c.exec("DELETE FROM spend_buckets WHERE policy_id = ? AND bucket_start >= ? AND bucket_start < ?",
         {policyId, from, before});
}

std::vector<std::pair<std::int64_t, double>> SpendLedgerRepository::matchingCosts(
    Connection& c, const SpendPolicyRecord& policy, const std::optional<std::string>& environmentSlug,
    std::int64_t since) {
  std::vector<std::pair<std::int64_t, double>> out;
  if (policy.environmentId && !environmentSlug) return out;
  std::string sql =
      "SELECT e.received_at AS received_at, e.cost_usd AS cost_usd FROM events e "
      "WHERE e.org_id = ? AND e.received_at >= ? AND e.cost_usd IS NOT NULL";
  Params params;
  params.emplace_back(policy.orgId);
  params.emplace_back(since);
  auto equal = [&](const char* column, SqlValue value) {
    sql += std::string(" AND e.") + column + " = ?";
    params.emplace_back(std::move(value));
  };
  if (policy.apiKeyId) equal("api_key_id", *policy.apiKeyId);
  if (policy.appId) equal("app_id", *policy.appId);
  if (policy.environmentId) equal("environment", *environmentSlug);
  if (policy.userId) equal("end_user", *policy.userId);
  if (policy.model) equal("model", *policy.model);
  if (policy.provider) equal("provider", *policy.provider);
  if (policy.tagKey && policy.tagValue) {
    sql += " AND EXISTS (SELECT 1 FROM event_attributes a WHERE a.event_id = e.id AND a.key = ? AND a.value = ?)";
    params.emplace_back(*policy.tagKey);
    params.emplace_back(*policy.tagValue);
  }
  for (const auto& r : c.query(sql, std::move(params))) out.emplace_back(r.i64("received_at"), r.f64("cost_usd"));
  return out;
}

std::optional<std::int64_t> SpendLedgerRepository::recordCrossing(Connection& c, std::int64_t orgId,
                                                                  const SpendCrossingRecord& x) {
  auto rows = c.query(
      "INSERT INTO spend_crossings (org_id, policy_id, window_start, at_percent, action, spent_nanos, crossed_at) "
      "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (policy_id, window_start, at_percent) DO NOTHING RETURNING id",
      {orgId, x.policyId, x.windowStart, x.atPercent, x.action, x.spentNanos, x.crossedAt});
  if (rows.empty()) return std::nullopt;
  return rows.front().i64("id");
}

std::vector<SpendCrossingRecord> SpendLedgerRepository::crossings(Connection& c, std::int64_t orgId,
                                                                  std::int64_t policyId) {
  std::vector<SpendCrossingRecord> out;
  for (const auto& r : c.query(
           "SELECT id, policy_id, window_start, at_percent, action, spent_nanos, crossed_at FROM spend_crossings "
           "WHERE org_id = ? AND policy_id = ? ORDER BY id",
           {orgId, policyId})) {
    SpendCrossingRecord x;
    x.id = r.i64("id");
    x.policyId = r.i64("policy_id");
    x.windowStart = r.i64("window_start");
    x.atPercent = r.i64("at_percent");
    x.action = r.str("action");
    x.spentNanos = r.i64("spent_nanos");
    x.crossedAt = r.i64("crossed_at");
    out.push_back(std::move(x));
  }
  return out;
}

std::int64_t SpendLedgerRepository::insertNotification(Connection& c, const SpendNotificationRecord& n) {
  return c.insert(
      "INSERT INTO spend_notifications (org_id, policy_id, crossing_id, at_percent, percent, window_start, "
      "destination, destination_type, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
      {n.orgId, n.policyId, n.crossingId, n.atPercent, n.percent, n.windowStart, n.destination, n.destinationType,
       n.payloadJson, n.createdAt});
}

std::vector<SpendNotificationRecord> SpendLedgerRepository::notifications(Connection& c, std::int64_t orgId,
                                                                          std::int64_t policyId) {
  std::vector<SpendNotificationRecord> out;
  for (const auto& r : c.query(std::string("SELECT ") + kNotificationColumns +
                                   " FROM spend_notifications WHERE org_id = ? AND policy_id = ? ORDER BY id",
                               {orgId, policyId}))
    out.push_back(notificationFromRow(r));
  return out;
}

std::vector<SpendNotificationRecord> SpendLedgerRepository::unsentNotifications(Connection& c, std::int64_t limit) {
  std::vector<SpendNotificationRecord> out;
  for (const auto& r : c.query(std::string("SELECT ") + kNotificationColumns +
                                   " FROM spend_notifications WHERE sent_at IS NULL ORDER BY id LIMIT ?",
                               {limit}))
    out.push_back(notificationFromRow(r));
  return out;
}

void SpendLedgerRepository::markSent(Connection& c, std::int64_t orgId, std::int64_t id, std::int64_t sentAt) {
  c.exec("UPDATE spend_notifications SET sent_at = ? WHERE org_id = ? AND id = ?", {sentAt, orgId, id});
}

}  // namespace aev::store

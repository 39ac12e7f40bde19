#include "store/moderation_rule_repository.h"

namespace aev::store {

namespace {
constexpr const char* kModerationRuleColumns =
    "id, org_id, name, action, detector, pattern, target, detector_config, min_score, enabled, created_at, updated_at";

ModerationRuleRecord moderationRuleFromRow(const Row& r) {
  ModerationRuleRecord rule;
  rule.id = r.i64("id");
  rule.orgId = r.i64("org_id");
  rule.name = r.str("name");
  rule.action = r.str("action");
  rule.detector = r.str("detector");
  rule.pattern = r.optStr("pattern");
  rule.target = r.str("target");
  rule.detectorConfig = r.optStr("detector_config");
  if (!r.isNull("min_score")) rule.minScore = r.f64("min_score");
  rule.enabled = r.boolean("enabled");
  rule.createdAt = r.i64("created_at");
  rule.updatedAt = r.i64("updated_at");
  return rule;
}
}  // namespace

std::int64_t ModerationRuleRepository::insert(Connection& c, const ModerationRuleRecord& r) {
  return c.insert(
      "INSERT INTO moderation_rules (org_id, name, action, detector, pattern, target, detector_config, min_score, "
      "enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
      {r.orgId, r.name, r.action, r.detector, optionalValue(r.pattern), r.target, optionalValue(r.detectorConfig),
       optionalValue(r.minScore), std::int64_t{r.enabled ? 1 : 0}, r.createdAt, r.updatedAt});
}

std::vector<ModerationRuleRecord> ModerationRuleRepository::list(Connection& c, std::int64_t orgId) {
  std::vector<ModerationRuleRecord> out;
  for (const auto& r :
       c.query(std::string("SELECT ") + kModerationRuleColumns + " FROM moderation_rules WHERE org_id = ? ORDER BY id",
               {orgId}))
    out.push_back(moderationRuleFromRow(r));
  return out;
}

std::optional<ModerationRuleRecord> ModerationRuleRepository::byId(Connection& c, std::int64_t orgId, std::int64_t id) {
  auto rows =
      c.query(std::string("SELECT ") + kModerationRuleColumns + " FROM moderation_rules WHERE org_id = ? AND id = ?",
              {orgId, id});
  if (rows.empty()) return std::nullopt;
  return moderationRuleFromRow(rows.front());
}

std::int64_t ModerationRuleRepository::count(Connection& c, std::int64_t orgId) {
  return c.query("SELECT COUNT(*) AS n FROM moderation_rules WHERE org_id = ?", {orgId}).front().i64("n");
}

void ModerationRuleRepository::update(Connection& c, const ModerationRuleRecord& r) {
  c.exec(
      "UPDATE moderation_rules SET name = ?, action = ?, detector = ?, pattern = ?, target = ?, detector_config = ?, "
      "min_score = ?, enabled = ?, updated_at = ? WHERE org_id = ? AND id = ?",
      {r.name, r.action, r.detector, optionalValue(r.pattern), r.target, optionalValue(r.detectorConfig),
       optionalValue(r.minScore), std::int64_t{r.enabled ? 1 : 0}, r.updatedAt, r.orgId, r.id});
}

void ModerationRuleRepository::remove(Connection& c, std::int64_t orgId, std::int64_t id) {
  c.exec("DELETE FROM moderation_rules WHERE org_id = ? AND id = ?", {orgId, id});
}

std::string ModerationRuleRepository::fingerprint(Connection& c, std::int64_t orgId) {
  // Count catches deletes, the newest update time catches changes, the highest id
  // catches a delete plus a create between two looks.
  auto row = c.query(
                  "SELECT COUNT(*) AS n, COALESCE(MAX(updated_at), 0) AS u, COALESCE(MAX(id), 0) AS m "
                  "FROM moderation_rules WHERE org_id = ?",
                  {orgId})
                 .front();
  return std::to_string(row.i64("n")) + ":" + std::to_string(row.i64("u")) + ":" + std::to_string(row.i64("m"));
}

}  // namespace aev::store

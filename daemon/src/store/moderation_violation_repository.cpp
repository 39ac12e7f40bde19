#include "store/moderation_violation_repository.h"

namespace aev::store {

namespace {

constexpr const char* kViolationColumns =
    "id, org_id, rule_id, rule_name, detector, action, target, event_id, channel_id, event_type, source, match_count, "
    "fields, matches, latency_ms, created_at";

ViolationRecord violationFromRow(const Row& r) {
  ViolationRecord v;
  v.id = r.i64("id");
  v.orgId = r.i64("org_id");
  v.ruleId = r.i64("rule_id");
  v.ruleName = r.str("rule_name");
  v.detector = r.str("detector");
  v.action = r.str("action");
  v.target = r.str("target");
  v.eventId = r.optI64("event_id");
  v.channelId = r.optI64("channel_id");
  v.eventType = r.optStr("event_type");
  v.source = r.str("source");
  v.matchCount = r.i64("match_count");
  v.fieldsJson = r.str("fields");
  v.matchesJson = r.optStr("matches");
  v.latencyMs = r.f64("latency_ms");
  v.createdAt = r.i64("created_at");
  return v;
}

// " WHERE ..." of a filter, with its parameters appended.
std::string violationWhereOf(const ViolationFilter& f, Params& params) {
  std::string sql = " WHERE org_id = ? AND created_at >= ? AND created_at < ?";
  params.emplace_back(f.orgId);
  params.emplace_back(f.since);
  params.emplace_back(f.until);
  if (f.ruleId) {
    sql += " AND rule_id = ?";
    params.emplace_back(*f.ruleId);
  }
  if (f.action) {
    sql += " AND action = ?";
    params.emplace_back(*f.action);
  }
  if (f.target) {
    sql += " AND target = ?";
    params.emplace_back(*f.target);
  }
  return sql;
}

}  // namespace

void ModerationViolationRepository::insert(Connection& c, const ViolationRecord& v) {
  c.exec(
      "INSERT INTO moderation_violations (org_id, rule_id, rule_name, detector, action, target, event_id, channel_id, "
      "event_type, source, match_count, fields, matches, latency_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
      "?, ?, ?, ?, ?, "
      "?)",
      {v.orgId, v.ruleId, v.ruleName, v.detector, v.action, v.target, optionalValue(v.eventId),
       optionalValue(v.channelId), optionalValue(v.eventType), v.source, v.matchCount, v.fieldsJson,
       optionalValue(v.matchesJson), v.latencyMs, v.createdAt});
}

std::vector<ViolationRecord> ModerationViolationRepository::page(Connection& c, const ViolationFilter& f,
                                                                 std::int64_t offset, std::int64_t limit) {
  Params params;
  const auto where = violationWhereOf(f, params);
  params.emplace_back(limit);
  params.emplace_back(offset);
  std::vector<ViolationRecord> out;
  // The event's trace, so a list links to it: one probe of the events' primary key per row.
  for (const auto& r :
       c.query(std::string("SELECT ") + kViolationColumns +
                   ", (SELECT e.trace_id FROM events e WHERE e.id = moderation_violations.event_id "
                   "AND e.org_id = moderation_violations.org_id) AS trace_id FROM moderation_violations" +
                   where + " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
               params)) {
    out.push_back(violationFromRow(r));
    out.back().traceId = r.optStr("trace_id");
  }
  return out;
}

std::int64_t ModerationViolationRepository::count(Connection& c, const ViolationFilter& f) {
  Params params;
  const auto where = violationWhereOf(f, params);
  return c.query("SELECT COUNT(*) AS n FROM moderation_violations" + where, params).front().i64("n");
}

std::vector<EfficacyRow> ModerationViolationRepository::efficacy(Connection& c, std::int64_t orgId, std::int64_t since,
                                                                 std::int64_t until) {
  std::vector<EfficacyRow> out;
  for (const auto& r :
       c.query("SELECT detector, action, target, COUNT(*) AS n, AVG(latency_ms) AS avg_ms, MAX(latency_ms) AS max_ms "
               "FROM moderation_violations WHERE org_id = ? AND created_at >= ? AND created_at < ? "
               "GROUP BY detector, action, target ORDER BY n DESC, detector, action, target",
               {orgId, since, until}))
    out.push_back({r.str("detector"), r.str("action"), r.str("target"), r.i64("n"), r.f64("avg_ms"), r.f64("max_ms")});
  return out;
}

std::vector<RuleViolationCount> ModerationViolationRepository::perRule(Connection& c, std::int64_t orgId,
                                                                       std::int64_t since, std::int64_t until) {
  // The newest violation of each rule (its highest id) carries the name a deleted rule had.
  std::vector<RuleViolationCount> out;
  for (const auto& r :
       c.query("SELECT g.rule_id, g.n, g.last_at, COALESCE(r.name, newest.rule_name) AS rule_name, "
               "COALESCE(r.action, newest.action) AS action, CASE WHEN r.id IS NULL THEN 1 ELSE 0 END AS deleted "
               "FROM (SELECT rule_id, COUNT(*) AS n, MAX(created_at) AS last_at, MAX(id) AS newest_id "
               "FROM moderation_violations WHERE org_id = ? AND created_at >= ? AND created_at < ? GROUP BY rule_id) g "
               "JOIN moderation_violations newest ON newest.id = g.newest_id "
               "LEFT JOIN moderation_rules r ON r.org_id = ? AND r.id = g.rule_id "
               "ORDER BY g.n DESC, g.rule_id",
               {orgId, since, until, orgId}))
    out.push_back(
        {r.i64("rule_id"), r.str("rule_name"), r.str("action"), r.i64("n"), r.i64("last_at"), r.i64("deleted") != 0});
  return out;
}

}  // namespace aev::store

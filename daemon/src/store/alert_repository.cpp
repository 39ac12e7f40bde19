#include "store/alert_repository.h"

namespace aev::store {

namespace {

constexpr const char* kAlertRuleColumns =
    "id, org_id, name, metric, operator, threshold, window_mins, app_id, environment_id, model, service, release_tag, "
    "destination, destination_type, destination_config, enabled, state, last_value, last_evaluated_at, fired_at, "
    "created_at, updated_at";

std::optional<double> optF64(const Row& r, const std::string& column) {
  if (r.isNull(column)) return std::nullopt;
  return r.f64(column);
}

AlertRuleRecord alertRuleFromRow(const Row& r) {
  AlertRuleRecord a;
  a.id = r.i64("id");
  a.orgId = r.i64("org_id");
  a.name = r.str("name");
  a.metric = r.str("metric");
  a.op = r.str("operator");
  a.threshold = r.f64("threshold");
  a.windowMins = r.i64("window_mins");
  a.appId = r.optI64("app_id");
  a.environmentId = r.optI64("environment_id");
  a.model = r.optStr("model");
  a.service = r.optStr("service");
  a.release = r.optStr("release_tag");
  a.destination = r.optStr("destination");
  a.destinationType = r.optStr("destination_type");
  a.destinationConfig = r.optStr("destination_config");
  a.enabled = r.boolean("enabled");
  a.state = r.str("state");
  a.lastValue = optF64(r, "last_value");
  a.lastEvaluatedAt = r.optI64("last_evaluated_at");
  a.firedAt = r.optI64("fired_at");
  a.createdAt = r.i64("created_at");
  a.updatedAt = r.i64("updated_at");
  return a;
}

AlertEventRecord alertEventFromRow(const Row& r) {
  AlertEventRecord e;
  e.id = r.i64("id");
  e.orgId = r.i64("org_id");
  e.ruleId = r.i64("rule_id");
  e.state = r.str("state");
  e.value = optF64(r, "value");
  e.threshold = r.f64("threshold");
  e.firedAt = r.i64("fired_at");
  e.resolvedAt = r.optI64("resolved_at");
  e.notification = r.str("notification");
  e.deliveredAt = r.optI64("delivered_at");
  e.createdAt = r.i64("created_at");
  return e;
}

SqlValue optDouble(const std::optional<double>& v) { return v ? SqlValue(*v) : SqlValue(std::monostate{}); }

}  // namespace

std::int64_t AlertRepository::insert(Connection& c, const AlertRuleRecord& r) {
  return c.insert(
      "INSERT INTO alert_rules (org_id, name, metric, operator, threshold, window_mins, app_id, environment_id, model, "
      "service, release_tag, destination, destination_type, destination_config, enabled, state, created_at, "
      "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'ok', ?, ?) RETURNING id",
      {r.orgId, r.name, r.metric, r.op, r.threshold, r.windowMins, optionalValue(r.appId),
       optionalValue(r.environmentId), optionalValue(r.model), optionalValue(r.service), optionalValue(r.release),
       optionalValue(r.destination), optionalValue(r.destinationType), optionalValue(r.destinationConfig),
       std::int64_t{r.enabled ? 1 : 0}, r.createdAt, r.updatedAt});
}

void AlertRepository::update(Connection& c, const AlertRuleRecord& r) {
  c.exec(
      "UPDATE alert_rules SET name = ?, metric = ?, operator = ?, threshold = ?, window_mins = ?, app_id = ?, "
      "environment_id = ?, model = ?, service = ?, release_tag = ?, destination = ?, destination_type = ?, "
      "destination_config = ?, enabled = ?, updated_at = ? WHERE org_id = ? AND id = ?",
      {r.name, r.metric, r.op, r.threshold, r.windowMins, optionalValue(r.appId), optionalValue(r.environmentId),
       optionalValue(r.model), optionalValue(r.service), optionalValue(r.release), optionalValue(r.destination),
       optionalValue(r.destinationType), optionalValue(r.destinationConfig), std::int64_t{r.enabled ? 1 : 0},
       r.updatedAt, r.orgId, r.id});
}

void AlertRepository::remove(Connection& c, std::int64_t orgId, std::int64_t id) {
  c.exec("DELETE FROM alert_rules WHERE org_id = ? AND id = ?", {orgId, id});
}

std::optional<AlertRuleRecord> AlertRepository::byId(Connection& c, std::int64_t orgId, std::int64_t id) {
  auto rows = c.query(std::string("SELECT ") + kAlertRuleColumns + " FROM alert_rules WHERE org_id = ? AND id = ?",
                      {orgId, id});
  if (rows.empty()) return std::nullopt;
  return alertRuleFromRow(rows.front());
}

std::vector<AlertRuleRecord> AlertRepository::list(Connection& c, std::int64_t orgId) {
  std::vector<AlertRuleRecord> out;
  for (const auto& r :
       c.query(std::string("SELECT ") + kAlertRuleColumns + " FROM alert_rules WHERE org_id = ? ORDER BY id", {orgId}))
    out.push_back(alertRuleFromRow(r));
  return out;
}

std::int64_t AlertRepository::count(Connection& c, std::int64_t orgId) {
  return c.query("SELECT COUNT(*) AS n FROM alert_rules WHERE org_id = ?", {orgId}).front().i64("n");
}

std::vector<AlertRuleRecord> AlertRepository::enabled(Connection& c) {
  std::vector<AlertRuleRecord> out;
  for (const auto& r :
       c.query(std::string("SELECT ") + kAlertRuleColumns + " FROM alert_rules WHERE enabled = 1 ORDER BY id"))
    out.push_back(alertRuleFromRow(r));
  return out;
}

void AlertRepository::setState(Connection& c, const AlertRuleRecord& r) {
  c.exec(
      "UPDATE alert_rules SET state = ?, last_value = ?, last_evaluated_at = ?, fired_at = ? WHERE org_id = ? AND id = "
      "?",
      {r.state, optDouble(r.lastValue), optionalValue(r.lastEvaluatedAt), optionalValue(r.firedAt), r.orgId, r.id});
}

std::int64_t AlertRepository::insertEvent(Connection& c, const AlertEventRecord& e) {
  return c.insert(
      "INSERT INTO alert_events (org_id, rule_id, state, value, threshold, fired_at, resolved_at, notification, "
      "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
      {e.orgId, e.ruleId, e.state, optDouble(e.value), e.threshold, e.firedAt, optionalValue(e.resolvedAt),
       e.notification, e.createdAt});
}

void AlertRepository::markDelivered(Connection& c, std::int64_t orgId, std::int64_t eventId, std::int64_t at) {
  c.exec("UPDATE alert_events SET delivered_at = ? WHERE org_id = ? AND id = ? AND delivered_at IS NULL",
         {at, orgId, eventId});
}

std::vector<AlertEventRecord> AlertRepository::events(Connection& c, std::int64_t orgId, std::int64_t ruleId,
                                                      std::int64_t limit) {
  std::vector<AlertEventRecord> out;
  for (const auto& r : c.query(
           "SELECT id, org_id, rule_id, state, value, threshold, fired_at, resolved_at, notification, delivered_at, "
           "created_at FROM alert_events WHERE org_id = ? AND rule_id = ? ORDER BY id DESC LIMIT ?",
           {orgId, ruleId, limit}))
    out.push_back(alertEventFromRow(r));
  return out;
}

}  // namespace aev::store

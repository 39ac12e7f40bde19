#include "store/spend_policy_repository.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>

#include <sstream>

namespace aev::store {

namespace {
constexpr const char* kSpendPolicyColumns =
    "id, org_id, name, api_key_id, app_id, environment_id, user_id, model, provider, tag_key, tag_value, limit_usd, "
    "window_type, cooldown_mins, destination, destination_type, enabled, rungs, created_at, updated_at";

SpendPolicyRecord policyFromRow(const Row& r) {
  SpendPolicyRecord p;
  p.id = r.i64("id");
  p.orgId = r.i64("org_id");
  p.name = r.str("name");
  p.apiKeyId = r.optI64("api_key_id");
  p.appId = r.optI64("app_id");
  p.environmentId = r.optI64("environment_id");
  p.userId = r.optStr("user_id");
  p.model = r.optStr("model");
  p.provider = r.optStr("provider");
  p.tagKey = r.optStr("tag_key");
  p.tagValue = r.optStr("tag_value");
  p.limitUsd = r.f64("limit_usd");
  p.windowType = r.str("window_type");
  p.cooldownMins = r.i64("cooldown_mins");
  p.destination = r.optStr("destination");
  p.destinationType = r.optStr("destination_type");
  p.enabled = r.boolean("enabled");
  p.rungs = rungsFromJson(r.str("rungs"));
  p.createdAt = r.i64("created_at");
  p.updatedAt = r.i64("updated_at");
  return p;
}

// Appends the written fields, in the column order of INSERT and UPDATE below.
void appendFields(Params& params, const SpendPolicyRecord& p) {
  params.emplace_back(p.name);
  params.emplace_back(optionalValue(p.apiKeyId));
  params.emplace_back(optionalValue(p.appId));
  params.emplace_back(optionalValue(p.environmentId));
  params.emplace_back(optionalValue(p.userId));
  params.emplace_back(optionalValue(p.model));
  params.emplace_back(optionalValue(p.provider));
  params.emplace_back(optionalValue(p.tagKey));
  params.emplace_back(optionalValue(p.tagValue));
  params.emplace_back(p.limitUsd);
  params.emplace_back(p.windowType);
  params.emplace_back(p.cooldownMins);
  params.emplace_back(optionalValue(p.destination));
  params.emplace_back(optionalValue(p.destinationType));
  params.emplace_back(std::int64_t{p.enabled ? 1 : 0});
  params.emplace_back(rungsToJson(p.rungs));
}

Poco::Dynamic::Var optionalJson(const std::optional<std::string>& v) {
  return v ? Poco::Dynamic::Var(*v) : Poco::Dynamic::Var();
}
}  // namespace

std::string rungsToJson(const std::vector<SpendRungRecord>& rungs) {
  Poco::JSON::Array array;
  for (const auto& rung : rungs) {
    Poco::JSON::Object::Ptr o = new Poco::JSON::Object;
    o->set("at_percent", rung.atPercent);
    o->set("action", rung.action);
    o->set("block_mode", optionalJson(rung.blockMode));
    o->set("fallback_model", optionalJson(rung.fallbackModel));
    array.add(o);
  }
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(array, out);
  return out.str();
}

std::vector<SpendRungRecord> rungsFromJson(const std::string& json) {
  std::vector<SpendRungRecord> rungs;
  auto array = Poco::JSON::Parser().parse(json).extract<Poco::JSON::Array::Ptr>();
  for (std::size_t i = 0; array && i < array->size(); ++i) {
    auto o = array->getObject(static_cast<unsigned>(i));
    if (!o) continue;
    SpendRungRecord rung;
    rung.atPercent = o->getValue<std::int64_t>("at_percent");
    rung.action = o->getValue<std::string>("action");
    if (o->has("block_mode") && !o->isNull("block_mode")) rung.blockMode = o->getValue<std::string>("block_mode");
    if (o->has("fallback_model") && !o->isNull("fallback_model"))
      rung.fallbackModel = o->getValue<std::string>("fallback_model");
    rungs.push_back(std::move(rung));
  }
  return rungs;
}

std::int64_t SpendPolicyRepository::insert(Connection& c, const SpendPolicyRecord& p) {
  Params params;
  params.emplace_back(p.orgId);
  appendFields(params, p);
  params.emplace_back(p.createdAt);
  params.emplace_back(p.updatedAt);
  return c.insert(
      "INSERT INTO spend_policies (org_id, name, api_key_id, app_id, environment_id, user_id, model, provider, "
      "tag_key, tag_value, limit_usd, window_type, cooldown_mins, destination, destination_type, enabled, rungs, "
      "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
      std::move(params));
}

std::vector<SpendPolicyRecord> SpendPolicyRepository::list(Connection& c, std::int64_t orgId) {
  std::vector<SpendPolicyRecord> out;
  for (const auto& r : c.query(
           std::string("SELECT ") + kSpendPolicyColumns + " FROM spend_policies WHERE org_id = ? ORDER BY id", {orgId}))
    out.push_back(policyFromRow(r));
  return out;
}

std::optional<SpendPolicyRecord> SpendPolicyRepository::byId(Connection& c, std::int64_t orgId, std::int64_t id) {
  auto rows = c.query(std::string("SELECT ") + kSpendPolicyColumns + " FROM spend_policies WHERE org_id = ? AND id = ?",
                      {orgId, id});
  if (rows.empty()) return std::nullopt;
  return policyFromRow(rows.front());
}

std::int64_t SpendPolicyRepository::count(Connection& c, std::int64_t orgId) {
  return c.query("SELECT COUNT(*) AS n FROM spend_policies WHERE org_id = ?", {orgId}).front().i64("n");
}

std::vector<SpendPolicyRecord> SpendPolicyRepository::allEnabled(Connection& c) {
  std::vector<SpendPolicyRecord> out;
  for (const auto& r :
       c.query(std::string("SELECT ") + kSpendPolicyColumns + " FROM spend_policies WHERE enabled = 1 ORDER BY id"))
    out.push_back(policyFromRow(r));
  return out;
}

void SpendPolicyRepository::update(Connection& c, const SpendPolicyRecord& p) {
  Params params;
  appendFields(params, p);
  params.emplace_back(p.updatedAt);
  params.emplace_back(p.orgId);
  params.emplace_back(p.id);
  c.exec(
      "UPDATE spend_policies SET name = ?, api_key_id = ?, app_id = ?, environment_id = ?, user_id = ?, model = ?, "
      "provider = ?, tag_key = ?, tag_value = ?, limit_usd = ?, window_type = ?, cooldown_mins = ?, destination = ?, "
      "destination_type = ?, enabled = ?, rungs = ?, updated_at = ? WHERE org_id = ? AND id = ?",
      std::move(params));
}

void SpendPolicyRepository::remove(Connection& c, std::int64_t orgId, std::int64_t id) {
  c.exec("DELETE FROM spend_policies WHERE org_id = ? AND id = ?", {orgId, id});
}

bool SpendPolicyRepository::claimNotification(Connection& c, std::int64_t orgId, std::int64_t id, std::int64_t now,
                                              std::int64_t cooldownMicros) {
  return c.exec(
             "UPDATE spend_policies SET last_notified_at = ? WHERE org_id = ? AND id = ? "
             "AND (last_notified_at IS NULL OR last_notified_at <= ?)",
             {now, orgId, id, now - cooldownMicros}) == 1;
}

}  // namespace aev::store

#include "http/render.h"

#include <Poco/JSON/Array.h>

#include "common/clock.h"
#include "events/event.h"

namespace aev::http {

JsonObject newObject() { return new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER); }

std::string idString(std::int64_t id) { return std::to_string(id); }

void setTimestamp(JsonObject obj, const std::string& field, std::optional<std::int64_t> micros) {
  if (micros)
    obj->set(field, clock::toRfc3339(*micros));
  else
    obj->set(field, Poco::Dynamic::Var());
}

JsonObject withSchema(const std::string& baseUrl, const std::string& schemaName) {
  auto obj = newObject();
  obj->set("$schema", baseUrl + "/schemas/" + schemaName + ".json");
  return obj;
}

JsonObject userFirstShape(const identity::UserInOrg& u) {
  auto obj = newObject();
  obj->set("id", u.user.id);
  obj->set("email", u.user.email);
  obj->set("username", u.user.username);
  obj->set("first_name", u.user.firstName);
  obj->set("last_name", u.user.lastName);
  if (u.orgId)
    obj->set("organizationId", *u.orgId);
  else
    obj->set("organizationId", Poco::Dynamic::Var());
  Poco::JSON::Array::Ptr roles = new Poco::JSON::Array;
  if (!u.role.empty()) roles->add(u.role);
  obj->set("roles", roles);
  obj->set("instanceAdmin", u.user.instanceAdmin);
  setTimestamp(obj, "disabledAt", u.user.disabledAt);
  setTimestamp(obj, "createdAt", u.user.createdAt);
  return obj;
}

JsonObject userAdminShape(const store::UserRecord& u) {
  auto obj = newObject();
  obj->set("id", idString(u.id));
  obj->set("email", u.email);
  obj->set("username", u.username);
  obj->set("firstName", u.firstName);
  obj->set("lastName", u.lastName);
  obj->set("organizationId", u.activeOrgId ? idString(*u.activeOrgId) : std::string());
  setTimestamp(obj, "disabledAt", u.disabledAt);
  return obj;
}

JsonObject organizationRecord(const std::string& baseUrl, const store::OrganizationRecord& org,
                              const identity::Plan& plan) {
  auto obj = withSchema(baseUrl, "Organization");
  obj->set("id", org.id);
  obj->set("orgId", idString(org.id));
  obj->set("name", org.name);
  obj->set("slug", org.slug);
  obj->set("description", org.description);
  obj->set("plan", org.plan);
  obj->set("subscriptionStatus", org.subscriptionStatus);
  obj->set("eventsQuotaMonthly", plan.eventsQuotaMonthly);
  obj->set("retentionDays", plan.retentionDays);
  obj->set("seatLimit", plan.seatLimit);
  setTimestamp(obj, "createdAt", org.createdAt);
  setTimestamp(obj, "updatedAt", org.updatedAt);
  return obj;
}

JsonObject organizationSummary(const store::OrganizationRecord& org) {
  auto obj = newObject();
  obj->set("id", org.id);
  obj->set("name", org.name);
  obj->set("slug", org.slug);
  return obj;
}

JsonObject membershipFirstShape(const store::MembershipRecord& m, const store::OrganizationRecord& org) {
  auto obj = newObject();
  obj->set("id", m.id);
  obj->set("userId", m.userId);
  obj->set("organizationId", m.orgId);
  obj->set("role", m.role);
  setTimestamp(obj, "joinedAt", m.joinedAt);
  obj->set("organization", organizationSummary(org));
  return obj;
}

JsonObject pageMeta(std::int64_t total, std::int64_t page, std::int64_t limit) {
  auto meta = newObject();
  meta->set("total", total);
  meta->set("page", page);
  meta->set("limit", limit);
  meta->set("totalPages", limit > 0 ? (total + limit - 1) / limit : 0);
  return meta;
}

std::string eventsJsonArray(const std::vector<store::StoredEvent>& list) {
  std::string out = "[";
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) out += ',';
    out += events::toJson(list[i]);
  }
  return out + "]";
}

void addTokens(JsonObject obj, const auth::TokenPair& pair) {
  obj->set("access_token", pair.accessToken);
  obj->set("refresh_token", pair.refreshToken);
  obj->set("token_type", "Bearer");
  obj->set("expires_in", pair.expiresIn);
}

void setAttemptFields(JsonObject obj, const store::DeliveryAttemptRecord& a) {
  obj->set("attempt", a.attempt);
  obj->set("statusCode", a.statusCode);
  obj->set("responseBody", a.responseBody);
  obj->set("outcome", a.outcome);
  obj->set("durationMs", a.durationMs);
  setTimestamp(obj, "nextAttemptAt", a.nextAttemptAt);
  setTimestamp(obj, "createdAt", a.createdAt);
}

void setHealth24h(JsonObject obj, const std::map<std::int64_t, store::DeliveryHealth24h>& all, std::int64_t id) {
  store::DeliveryHealth24h h;
  if (auto it = all.find(id); it != all.end()) h = it->second;
  auto health = newObject();
  health->set("deliveries", h.deliveries);
  health->set("succeeded", h.succeeded);
  health->set("successRate", h.deliveries ? Poco::Dynamic::Var(static_cast<double>(h.succeeded) / h.deliveries)
                                          : Poco::Dynamic::Var());
  setTimestamp(health, "lastFailureAt", h.lastFailureAt);
  health->set("lastFailureStatus",
              h.lastFailureStatus ? Poco::Dynamic::Var(*h.lastFailureStatus) : Poco::Dynamic::Var());
  health->set("lastFailureReason",
              h.lastFailureReason ? Poco::Dynamic::Var(*h.lastFailureReason) : Poco::Dynamic::Var());
  obj->set("health24h", health);
}

}  // namespace aev::http

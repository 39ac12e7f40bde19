#pragma once
// JSON views of identity records in both shapes (docs/api.md#the-two-shapes): first shape with
// integer ids, second shape with decimal-string ids and `$schema`.
#include <Poco/JSON/Object.h>

#include <optional>
#include <string>

#include "auth/session_service.h"
#include "identity/plans.h"
#include "identity/user_service.h"
#include "store/delivery_health_repository.h"
#include "store/event_records.h"
#include "store/outbox_repository.h"
#include "store/records.h"

namespace aev::http {

using JsonObject = Poco::JSON::Object::Ptr;

JsonObject newObject();
std::string idString(std::int64_t id);
void setTimestamp(JsonObject obj, const std::string& field, std::optional<std::int64_t> micros);

// `$schema` = {base_url}/schemas/<Name>.json, placed first.
JsonObject withSchema(const std::string& baseUrl, const std::string& schemaName);

JsonObject userFirstShape(const identity::UserInOrg& user);
JsonObject userAdminShape(const store::UserRecord& user);
// The superset record: first-shape `id` plus the second-shape fields.
JsonObject organizationRecord(const std::string& baseUrl, const store::OrganizationRecord& org,
                              const identity::Plan& plan);
JsonObject organizationSummary(const store::OrganizationRecord& org);
JsonObject membershipFirstShape(const store::MembershipRecord& m, const store::OrganizationRecord& org);
void addTokens(JsonObject obj, const auth::TokenPair& pair);
// `meta` of paginated lists (docs/api.md#pagination-and-limits): total, page, limit, totalPages.
JsonObject pageMeta(std::int64_t total, std::int64_t page, std::int64_t limit);
// A JSON array of stored events, each rendered by events::toJson.
std::string eventsJsonArray(const std::vector<store::StoredEvent>& list);
// The fields every delivery attempt shows (webhooks, export destinations): attempt,
// statusCode, responseBody, outcome, durationMs, nextAttemptAt, createdAt.
void setAttemptFields(JsonObject obj, const store::DeliveryAttemptRecord& a);
// `health24h` of target `id` (webhook endpoint, export destination) from the map the
// service read for the whole list: deliveries, succeeded, successRate (null when none),
// lastFailureAt, lastFailureStatus, lastFailureReason.
void setHealth24h(JsonObject obj, const std::map<std::int64_t, store::DeliveryHealth24h>& all, std::int64_t id);

}  // namespace aev::http

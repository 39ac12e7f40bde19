#include "ops/schemas.h"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>

#include <map>
#include <sstream>

namespace aev::ops {

namespace {

// Property lists are kept terse: `type` per field, `required` where the body always
// carries the field. The `$id` is filled in with the server's base URL when served.
const std::map<std::string, std::string>& catalog() {
  static const std::map<std::string, std::string> schemas = {
      {"Organization", R"({
  "title": "Organization", "type": "object",
  "required": ["orgId", "name", "slug", "plan", "eventsQuotaMonthly", "retentionDays", "seatLimit", "createdAt", "updatedAt"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "id": {"type": "integer"}, "orgId": {"type": "string", "pattern": "^[0-9]+$"},
    "name": {"type": "string", "maxLength": 120}, "slug": {"type": "string"},
    "description": {"type": "string", "maxLength": 500}, "plan": {"type": "string", "enum": ["free", "team", "enterprise"]},
    "subscriptionStatus": {"type": "string"}, "eventsQuotaMonthly": {"type": "integer"},
    "retentionDays": {"type": "integer"}, "seatLimit": {"type": "integer"},
    "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"},
    "usage": {"type": "object", "description": "GET /organizations/{id} only: this calendar month (UTC) against the plan",
      "required": ["period", "events", "members", "pendingInvitations"],
      "properties": {"period": {"type": "string", "description": "YYYY-MM"},
        "events": {"type": "integer", "description": "events published this month, as the quota counts them"},
        "members": {"type": "integer"}, "pendingInvitations": {"type": "integer", "description": "each holds a seat"}}},
    "access_token": {"type": "string"}, "refresh_token": {"type": "string"}
  }})"},
      {"OrganizationMemberships", R"({
  "title": "OrganizationMemberships", "type": "object", "required": ["organizations"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "organizations": {"type": "array", "items": {"type": "object", "required": ["organization", "role"],
      "properties": {"organization": {"type": "object"}, "role": {"type": "string", "enum": ["admin", "user"]}}}}
  }})"},
      {"ActiveOrgResult", R"({
  "title": "ActiveOrgResult", "type": "object", "required": ["ok", "access_token", "refresh_token"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"}, "ok": {"type": "boolean"},
    "access_token": {"type": "string"}, "refresh_token": {"type": "string"},
    "token_type": {"type": "string"}, "expires_in": {"type": "integer"}
  }})"},
      {"OkResult", R"({
  "title": "OkResult", "type": "object", "required": ["ok"],
  "properties": {"$schema": {"type": "string", "format": "uri"}, "ok": {"type": "boolean"}}})"},
      {"AdminUserList", R"({
  "title": "AdminUserList", "type": "object", "required": ["users"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "users": {"type": "array", "items": {"type": "object", "required": ["id", "email", "username"],
      "properties": {"id": {"type": "string"}, "email": {"type": "string"}, "username": {"type": "string"},
        "firstName": {"type": "string"}, "lastName": {"type": "string"}, "organizationId": {"type": "string"},
        "disabledAt": {"type": ["string", "null"], "format": "date-time"}}}}
  }})"},
      {"AccessRequestList", R"({
  "title": "AccessRequestList", "type": "object", "required": ["data"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"type": "object", "required": ["requestId", "userId", "status"],
      "properties": {"requestId": {"type": "string"}, "userId": {"type": "string"}, "email": {"type": "string"},
        "username": {"type": "string"}, "status": {"type": "string", "enum": ["pending", "approved", "rejected"]},
        "createdAt": {"type": "string", "format": "date-time"}, "decidedAt": {"type": ["string", "null"]}}}}
  }})"},
      {"App", R"({
  "title": "App", "type": "object", "required": ["appId", "name", "orgId", "createdAt", "updatedAt"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"}, "id": {"type": "integer"},
    "appId": {"type": "string"}, "name": {"type": "string", "minLength": 1, "maxLength": 120},
    "orgId": {"type": "string"}, "creatorUserId": {"type": "string"},
    "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"},
    "channels": {"type": "array", "items": {"$ref": "Channel.json"}}
  }})"},
      {"Channel", R"({
  "title": "Channel", "type": "object", "required": ["channelId", "appId", "name", "orgId", "createdAt", "updatedAt"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"}, "id": {"type": "integer"},
    "channelId": {"type": "string"}, "appId": {"type": "string"},
    "name": {"type": "string", "minLength": 1, "maxLength": 120}, "orgId": {"type": "string"},
    "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"}
  }})"},
      {"Environment", R"({
  "title": "Environment", "type": "object",
  "required": ["id", "environmentId", "orgId", "name", "slug", "createdAt", "updatedAt"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "id": {"type": "string", "pattern": "^[0-9]+$"}, "environmentId": {"type": "string", "pattern": "^[0-9]+$"},
    "orgId": {"type": "string", "pattern": "^[0-9]+$"}, "name": {"type": "string", "minLength": 1, "maxLength": 120},
    "slug": {"type": "string", "pattern": "^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$"},
    "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"}
  }})"},
      {"EnvironmentList", R"({
  "title": "EnvironmentList", "type": "object", "required": ["data"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"$ref": "Environment.json"}}
  }})"},
      {"Problem", R"({
  "title": "Problem", "type": "object", "required": ["type", "title", "status"],
  "properties": {
    "type": {"type": "string", "format": "uri"}, "title": {"type": "string"}, "status": {"type": "integer"},
    "detail": {"type": "string"}, "instance": {"type": "string"},
    "errors": {"type": "array", "items": {"type": "object",
      "properties": {"location": {"type": "string"}, "message": {"type": "string"}, "value": {}}}}
  }})"},
  };
  return schemas;
}

Poco::JSON::Object::Ptr parseSchemaObject(const std::string& text) {
  Poco::JSON::Parser parser;
  return parser.parse(text).extract<Poco::JSON::Object::Ptr>();
}

std::string condense(const Poco::Dynamic::Var& v) {
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(v, out);
  return out.str();
}

}  // namespace

// The catalog above plus the schemas kept in their own files.
const std::map<std::string, std::string>& allSchemas() {
  static const std::map<std::string, std::string> all = [] {
    auto merged = catalog();
    for (const auto& [name, text] : analyticsSchemas()) merged.emplace(name, text);
    for (const auto& [name, text] : moderationSchemas()) merged.emplace(name, text);
    for (const auto& [name, text] : auditSchemas()) merged.emplace(name, text);
    for (const auto& [name, text] : sessionSchemas()) merged.emplace(name, text);
    for (const auto& [name, text] : alertSchemas()) merged.emplace(name, text);
    for (const auto& [name, text] : spendSchemas()) merged.emplace(name, text);
    for (const auto& [name, text] : deliverySchemas()) merged.emplace(name, text);
    for (const auto& [name, text] : eventSchemas()) merged.emplace(name, text);
    for (const auto& [name, text] : accountSchemas()) merged.emplace(name, text);
    for (const auto& [name, text] : inputSchemas()) merged.emplace(name, text);
    return merged;
  }();
  return all;
}

std::optional<std::string> schemaText(const std::string& name, const std::string& baseUrl) {
  auto it = allSchemas().find(name);
  if (it == allSchemas().end()) return std::nullopt;
  auto obj = parseSchemaObject(it->second);
  obj->set("$schema", "https://json-schema.org/draft/2020-12/schema");
  obj->set("$id", baseUrl + "/schemas/" + name + ".json");
  return condense(obj);
}

std::vector<std::string> schemaNames() {
  std::vector<std::string> names;
  for (const auto& [name, _] : allSchemas()) names.push_back(name);
  return names;
}

}  // namespace aev::ops

// JSON Schemas of the first-shape answers that had none in the OpenAPI document: users,
// memberships, invitations, API keys, the app list, plugins, health, a trace's events,
// webhook endpoint lists and delivery attempts, and the answers of the protocol endpoints
// (OTLP, MCP). First-shape answers carry no `$schema` field.
#include "ops/schemas.h"

namespace aev::ops {

const std::map<std::string, std::string>& accountSchemas() {
  static const std::map<std::string, std::string> schemas = {
      {"Health", R"({
  "title": "Health", "type": "object", "required": ["status"],
  "properties": {"status": {"type": "string", "const": "ok"}}})"},
      {"Readiness", R"({
  "title": "Readiness", "type": "object", "required": ["status", "checks"],
  "properties": {"status": {"type": "string", "enum": ["ok", "unavailable"]},
    "checks": {"type": "object", "required": ["database"],
      "properties": {"database": {"type": "string", "enum": ["ok", "failed"]}}}}})"},
      {"User", R"({
  "title": "User", "type": "object",
  "required": ["id", "email", "username", "first_name", "last_name", "organizationId", "roles", "createdAt"],
  "properties": {
    "id": {"type": "integer"}, "email": {"type": "string", "format": "email"}, "username": {"type": "string"},
    "first_name": {"type": "string"}, "last_name": {"type": "string"},
    "organizationId": {"type": ["integer", "null"], "description": "the active organization"},
    "roles": {"type": "array", "items": {"type": "string", "enum": ["admin", "user"]},
              "description": "in the active organization"},
    "instanceAdmin": {"type": "boolean"},
    "disabledAt": {"type": ["string", "null"], "format": "date-time"},
    "createdAt": {"type": "string", "format": "date-time"}
  }})"},
      {"UserList", R"({
  "title": "UserList", "type": "array", "items": {"$ref": "User.json"}})"},
      {"Membership", R"({
  "title": "Membership", "type": "object", "required": ["id", "userId", "organizationId", "role", "joinedAt", "organization"],
  "properties": {"id": {"type": "integer"}, "userId": {"type": "integer"}, "organizationId": {"type": "integer"},
    "role": {"type": "string", "enum": ["admin", "user"]}, "joinedAt": {"type": "string", "format": "date-time"},
    "organization": {"type": "object", "required": ["id", "name", "slug"],
      "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "slug": {"type": "string"}}}}})"},
      {"MembershipList", R"({
  "title": "MembershipList", "type": "array", "description": "The organizations the caller belongs to.",
  "items": {"$ref": "Membership.json"}})"},
      {"OrganizationContents", R"({
  "title": "OrganizationContents", "type": "object",
  "description": "What an organization holds, counted: what deleting it takes with it.",
  "required": ["organizationId", "apps", "channels", "events", "apiKeys", "members", "pendingInvitations",
               "environments", "webhookEndpoints", "exportDestinations", "moderationRules", "spendPolicies",
               "alertRules"],
  "properties": {
    "organizationId": {"type": "integer"}, "apps": {"type": "integer"}, "channels": {"type": "integer"},
    "events": {"type": "integer", "description": "stored events"},
    "apiKeys": {"type": "integer", "description": "not revoked"}, "members": {"type": "integer"},
    "pendingInvitations": {"type": "integer"}, "environments": {"type": "integer"},
    "webhookEndpoints": {"type": "integer"}, "exportDestinations": {"type": "integer"},
    "moderationRules": {"type": "integer"}, "spendPolicies": {"type": "integer"}, "alertRules": {"type": "integer"}
  }})"},
      {"MemberList", R"({
  "title": "MemberList", "type": "array", "description": "Members of an organization.",
  "items": {"type": "object", "required": ["id", "userId", "organizationId", "role", "joinedAt", "email", "username"],
    "properties": {"id": {"type": "integer"}, "userId": {"type": "integer"}, "organizationId": {"type": "integer"},
      "role": {"type": "string", "enum": ["admin", "user"]}, "joinedAt": {"type": "string", "format": "date-time"},
      "email": {"type": "string"}, "username": {"type": "string"}, "first_name": {"type": "string"},
      "last_name": {"type": "string"}}}})"},
      {"Invitation", R"({
  "title": "Invitation", "type": "object",
  "required": ["id", "code", "organizationId", "invitedEmail", "invite_role", "status", "createdAt", "expiresAt"],
  "properties": {
    "id": {"type": "integer"},
    "code": {"type": "string", "description": "whole only in the creation answer; lists show its first characters"},
    "organizationId": {"type": "integer"}, "invitedEmail": {"type": "string"},
    "invite_role": {"type": "string", "enum": ["admin", "user"]},
    "status": {"type": "string", "enum": ["pending", "accepted"], "description": "a pending one past expiresAt can no longer be accepted"},
    "createdAt": {"type": "string", "format": "date-time"}, "expiresAt": {"type": "string", "format": "date-time"}
  }})"},
      {"InvitationList", R"({
  "title": "InvitationList", "type": "array", "items": {"$ref": "Invitation.json"}})"},
      {"ApiKey", R"({
  "title": "ApiKey", "type": "object", "required": ["id", "name", "key", "scopes", "organizationId", "defaultChannelId", "createdAt"],
  "properties": {
    "id": {"type": "integer"}, "name": {"type": "string", "maxLength": 120},
    "key": {"type": "string", "description": "whole only in the creation answer; lists show its prefix and an ellipsis"},
    "scopes": {"type": "array", "items": {"type": "string"}}, "organizationId": {"type": "integer"},
    "defaultChannelId": {"type": ["integer", "null"], "description": "where OTLP exports that name no channel go; cleared when the channel is deleted"},
    "createdAt": {"type": "string", "format": "date-time"}
  }})"},
      {"ApiKeyList", R"({
  "title": "ApiKeyList", "type": "array", "items": {"$ref": "ApiKey.json"}})"},
      {"AppList", R"({
  "title": "AppList", "type": "array", "items": {"type": "object",
    "required": ["id", "appId", "name", "orgId", "createdAt", "updatedAt"],
    "properties": {"id": {"type": "integer"}, "appId": {"type": "string"}, "name": {"type": "string"},
      "orgId": {"type": "string"}, "creatorUserId": {"type": "string"},
      "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"}}}})"},
      {"PluginReport", R"({
  "title": "PluginReport", "type": "object", "required": ["abi", "directories", "plugins"],
  "properties": {
    "abi": {"type": "object", "required": ["major", "minor"],
            "properties": {"major": {"type": "integer"}, "minor": {"type": "integer"}}},
    "directories": {"type": "array", "items": {"type": "string"}},
    "plugins": {"type": "array", "items": {"type": "object", "required": ["name", "version", "path", "abi", "components"],
      "properties": {"name": {"type": "string"}, "version": {"type": "string"}, "vendor": {"type": "string"},
        "supportUrl": {"type": "string"}, "path": {"type": "string"}, "abi": {"type": "string"},
        "components": {"type": "array", "items": {"type": "object", "required": ["kind", "name"],
          "properties": {"kind": {"type": "string"}, "name": {"type": "string"}, "description": {"type": "string"},
            "hasConfigSchema": {"type": "boolean"}, "calls": {"type": "integer"}, "failures": {"type": "integer"},
            "exceptions": {"type": "integer"}, "invalidOutputs": {"type": "integer"},
            "avgLatencyMs": {"type": "number"}, "maxLatencyMs": {"type": "number"}}}}}}},
    "refused": {"type": "array", "items": {"type": "object", "required": ["path", "reason"],
      "properties": {"plugin": {"type": "string"}, "path": {"type": "string"}, "reason": {"type": "string"}}}}
  }})"},
      {"WebhookEndpointList", R"({
  "title": "WebhookEndpointList", "type": "array", "items": {"$ref": "WebhookEndpoint.json"}})"},
      {"WebhookDeliveryList", R"({
  "title": "WebhookDeliveryList", "type": "array", "description": "Delivery attempts, newest first.",
  "items": {"type": "object",
    "required": ["id", "deliveryId", "endpointId", "webhookId", "eventId", "attempt", "statusCode", "responseBody",
                 "outcome", "durationMs", "nextAttemptAt", "createdAt"],
    "properties": {
      "id": {"type": "integer"}, "deliveryId": {"type": "string"}, "endpointId": {"type": "string"},
      "webhookId": {"type": "string", "description": "the webhook-id header: the same for every attempt of a message"},
      "eventId": {"type": ["integer", "null"]}, "attempt": {"type": "integer"},
      "statusCode": {"type": "integer", "description": "0: no HTTP answer"},
      "responseBody": {"type": "string", "maxLength": 4096},
      "outcome": {"type": "string", "enum": ["delivered", "retrying", "failed"]},
      "durationMs": {"type": "integer"}, "nextAttemptAt": {"type": ["string", "null"], "format": "date-time"},
      "createdAt": {"type": "string", "format": "date-time"}}}})"},
      {"QueuedResult", R"({
  "title": "QueuedResult", "type": "object", "required": ["queued"],
  "properties": {"queued": {"type": "boolean", "const": true}}})"},
      {"PendingResult", R"({
  "title": "PendingResult", "type": "object", "required": ["pending"],
  "properties": {"pending": {"type": "integer", "description": "messages of the endpoint made due now"}}})"},
      {"OtlpExportResult", R"({
  "title": "OtlpExportResult", "type": "object",
  "description": "ExportTraceServiceResponse (OTLP/HTTP) as JSON, or as protobuf when the request was protobuf.",
  "properties": {"partialSuccess": {"type": "object",
    "properties": {"rejectedSpans": {"type": ["integer", "string"]}, "errorMessage": {"type": "string"}}}}})"},
      {"OpenApiDocument", R"({
  "title": "OpenApiDocument", "type": "object", "required": ["openapi", "info", "paths"],
  "description": "An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0).",
  "properties": {"openapi": {"type": "string"}, "info": {"type": "object"}, "paths": {"type": "object"},
    "components": {"type": "object"}}})"},
      {"JsonRpcMessage", R"({
  "title": "JsonRpcMessage", "type": "object", "required": ["jsonrpc"],
  "description": "A JSON-RPC 2.0 response of the Model Context Protocol (docs/mcp.md).",
  "properties": {"jsonrpc": {"type": "string", "const": "2.0"}, "id": {"type": ["integer", "string", "null"]},
    "result": {"type": "object"}, "error": {"type": "object", "required": ["code", "message"],
      "properties": {"code": {"type": "integer"}, "message": {"type": "string"}, "data": {}}}}})"},
  };
  return schemas;
}

}  // namespace aev::ops

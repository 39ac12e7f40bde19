// JSON Schemas of the request bodies the routes read (http/routes/*: their BodyReader
// calls and the services' checks), so the OpenAPI document says what the daemon refuses:
// required fields, lengths, patterns and enums; "additionalProperties": false where the
// route refuses a field it does not know (its kFields-style list: keep both in step).
// A PATCH body lists no required field but is still required (an empty object changes
// nothing; no body is a 400). Ids are sent as a JSON integer or a decimal string
// (docs/api.md#the-two-shapes).
#include "ops/schemas.h"

namespace aev::ops {

const std::map<std::string, std::string>& inputSchemas() {
  static const std::map<std::string, std::string> schemas = {
      {"OrganizationInput", R"({
  "title": "OrganizationInput", "type": "object", "required": ["name", "slug"],
  "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 120},
    "slug": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{0,62}$"},
    "description": {"type": "string", "maxLength": 500}}})"},
      {"OrganizationPatch", R"({
  "title": "OrganizationPatch", "type": "object",
  "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 120},
    "slug": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{0,62}$", "description": "PATCH /organization only"},
    "description": {"type": "string", "maxLength": 500}}})"},
      {"MemberRoleInput", R"({
  "title": "MemberRoleInput", "type": "object", "required": ["role"],
  "properties": {"role": {"type": "string", "enum": ["admin", "user"]}}})"},
      {"InvitationInput", R"({
  "title": "InvitationInput", "type": "object", "required": ["invitedEmail"],
  "properties": {"invitedEmail": {"type": "string", "format": "email", "minLength": 3, "maxLength": 254},
    "desired_role": {"type": "string", "enum": ["admin", "user"], "default": "user"}}})"},
      {"UserPatch", R"({
  "title": "UserPatch", "type": "object",
  "properties": {"first_name": {"type": "string", "maxLength": 120}, "last_name": {"type": "string", "maxLength": 120}}})"},
      {"UserUpdate", R"({
  "title": "UserUpdate", "type": "object",
  "properties": {"first_name": {"type": "string", "maxLength": 120}, "last_name": {"type": "string", "maxLength": 120},
    "role": {"type": "string", "enum": ["admin", "user"]}, "disabled": {"type": "boolean"}}})"},
      {"ActiveOrgInput", R"({
  "title": "ActiveOrgInput", "type": "object",
  "description": "organizationId (first shape), or orgId (second shape; the only one /v2 reads).",
  "properties": {"organizationId": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, "orgId": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}}})"},
      {"ActiveOrgInputV2", R"({
  "title": "ActiveOrgInputV2", "type": "object", "required": ["orgId"],
  "properties": {"orgId": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}}})"},
      {"ApiKeyInput", R"({
  "title": "ApiKeyInput", "type": "object", "required": ["name", "scopes"],
  "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 120},
    "scopes": {"type": "array", "minItems": 1, "items": {"type": "string", "enum": ["publish", "subscribe", "read"]}},
    "defaultChannelId": {"oneOf": [{"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, {"type": "null"}],
      "description": "The channel OTLP exports with this key go to when they name none (a channel of the key's organization)."}}})"},
      {"ApiKeyPatch", R"({
  "title": "ApiKeyPatch", "type": "object",
  "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 120},
    "defaultChannelId": {"oneOf": [{"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, {"type": "null"}],
      "description": "null clears it."}}})"},
      {"ExportRedeliverInput", R"({
  "title": "ExportRedeliverInput", "type": "object", "additionalProperties": false,
  "description": "One given-up batch (deliveryId), or every batch given up in a window (from, to).",
  "properties": {"deliveryId": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"},
    "from": {"type": "string", "format": "date-time"}, "to": {"type": "string", "format": "date-time"}}})"},
      {"NameInput", R"({
  "title": "NameInput", "type": "object", "required": ["name"],
  "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 120}}})"},
      {"ChannelInput", R"({
  "title": "ChannelInput", "type": "object", "required": ["name", "appId"],
  "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 120}, "appId": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}}})"},
      {"EnvironmentInput", R"({
  "title": "EnvironmentInput", "type": "object", "required": ["name"],
  "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 120},
    "slug": {"type": "string", "pattern": "^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$"}}})"},
      {"EnvironmentPatch", R"({
  "title": "EnvironmentPatch", "type": "object",
  "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 120},
    "slug": {"type": "string", "pattern": "^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$"}}})"},
      {"AccessRequestDecision", R"({
  "title": "AccessRequestDecision", "type": "object", "required": ["status"],
  "properties": {"status": {"type": "string", "enum": ["approved", "rejected"]}}})"},
      {"ModerationRuleInput", R"({
  "title": "ModerationRuleInput", "type": "object", "additionalProperties": false, "required": ["name", "action", "detector"],
  "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 120},
    "action": {"type": "string", "enum": ["allow", "redact", "block", "flag"]},
    "detector": {"type": "string", "description": "regex, keyword, tool_name, tool_arg, or a plugin's detector"},
    "target": {"type": "string", "enum": ["request", "response", "tool_call"]},
    "pattern": {"type": ["string", "null"]}, "enabled": {"type": "boolean"},
    "detectorConfig": {"type": ["object", "null"], "description": "A plugin detector's per-rule settings, checked by the plugin."},
    "minScore": {"type": ["number", "null"], "minimum": 0, "maximum": 1, "description": "Plugin detectors: matches scored lower are ignored."}}})"},
      {"ModerationRulePatch", R"({
  "title": "ModerationRulePatch", "type": "object", "additionalProperties": false,
  "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 120},
    "action": {"type": "string", "enum": ["allow", "redact", "block", "flag"]},
    "detector": {"type": "string"}, "target": {"type": "string", "enum": ["request", "response", "tool_call"]},
    "pattern": {"type": ["string", "null"]}, "enabled": {"type": "boolean"},
    "detectorConfig": {"type": ["object", "null"], "description": "A plugin detector's per-rule settings, checked by the plugin."},
    "minScore": {"type": ["number", "null"], "minimum": 0, "maximum": 1, "description": "Plugin detectors: matches scored lower are ignored."}}})"},
      {"SpendRungInput", R"({
  "title": "SpendRungInput", "type": "object", "additionalProperties": false, "required": ["at_percent", "action"],
  "properties": {"at_percent": {"type": "integer", "minimum": 1},
    "action": {"type": "string", "enum": ["alert", "block", "fallback"]},
    "block_mode": {"type": ["string", "null"], "enum": ["hard", "soft", null]},
    "fallback_model": {"type": ["string", "null"]}}})"},
      {"SpendPolicyInput", R"({
  "title": "SpendPolicyInput", "type": "object", "required": ["name", "limitUsd", "windowType", "rungs"],
  "properties": {"name": {"type": "string", "minLength": 1}, "limitUsd": {"type": "number", "exclusiveMinimum": 0},
    "windowType": {"type": "string", "enum": ["hour", "day", "week", "month", "rolling_24h"]},
    "cooldownMins": {"type": "integer", "minimum": 0}, "enabled": {"type": "boolean"},
    "apiKeyId": {"oneOf": [{"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, {"type": "null"}]},
    "appId": {"oneOf": [{"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, {"type": "null"}]},
    "environmentId": {"oneOf": [{"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, {"type": "null"}]},
    "userId": {"type": ["string", "null"]}, "model": {"type": ["string", "null"]}, "provider": {"type": ["string", "null"]},
    "tagKey": {"type": ["string", "null"]}, "tagValue": {"type": ["string", "null"]},
    "destination": {"type": ["string", "null"]}, "destinationType": {"type": ["string", "null"]},
    "rungs": {"type": "array", "minItems": 1, "items": {"$ref": "SpendRungInput.json"}}}})"},
      {"SpendPolicyPatch", R"({
  "title": "SpendPolicyPatch", "type": "object",
  "properties": {"name": {"type": "string", "minLength": 1}, "limitUsd": {"type": "number", "exclusiveMinimum": 0},
    "windowType": {"type": "string", "enum": ["hour", "day", "week", "month", "rolling_24h"]},
    "cooldownMins": {"type": "integer", "minimum": 0}, "enabled": {"type": "boolean"},
    "apiKeyId": {"oneOf": [{"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, {"type": "null"}]},
    "appId": {"oneOf": [{"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, {"type": "null"}]},
    "environmentId": {"oneOf": [{"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, {"type": "null"}]},
    "userId": {"type": ["string", "null"]}, "model": {"type": ["string", "null"]}, "provider": {"type": ["string", "null"]},
    "tagKey": {"type": ["string", "null"]}, "tagValue": {"type": ["string", "null"]},
    "destination": {"type": ["string", "null"]}, "destinationType": {"type": ["string", "null"]},
    "rungs": {"type": "array", "minItems": 1, "items": {"$ref": "SpendRungInput.json"}}}})"},
      {"SpendCheckInput", R"({
  "title": "SpendCheckInput", "type": "object", "additionalProperties": false, "description": "The request about to be made; every field narrows the policies that apply.",
  "properties": {"apiKeyId": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, "appId": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"},
    "environmentId": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"},
    "userId": {"type": "string", "minLength": 1, "maxLength": 256}, "model": {"type": "string", "minLength": 1, "maxLength": 256},
    "provider": {"type": "string", "minLength": 1, "maxLength": 256}, "tagKey": {"type": "string", "minLength": 1, "maxLength": 256},
    "tagValue": {"type": "string", "minLength": 1, "maxLength": 256}}})"},
      {"ExportDestinationInput", R"({
  "title": "ExportDestinationInput", "type": "object", "additionalProperties": false, "required": ["name", "envSlug", "signals"],
  "description": "endpointUrl is required where the kind's configSchema says so (GET /export-destinations/kinds): by otlp and http.",
  "properties": {"name": {"type": "string", "minLength": 1}, "kind": {"type": "string"},
    "endpointUrl": {"type": "string", "format": "uri"}, "envSlug": {"type": "string"},
    "signals": {"type": "array", "minItems": 1, "items": {"type": "string", "enum": ["traces", "logs", "metrics"]}},
    "eventTypeFilter": {"type": ["array", "null"], "items": {"type": "string"}},
    "headers": {"type": "object", "additionalProperties": {"type": "string"}},
    "serviceName": {"type": ["string", "null"]}, "encoding": {"type": "string"}, "active": {"type": "boolean"},
    "config": {"type": "object", "description": "The kind's own settings, checked by its plugin (its configSchema)."}}})"},
      {"ExportDestinationPatch", R"({
  "title": "ExportDestinationPatch", "type": "object", "additionalProperties": false,
  "properties": {"name": {"type": "string", "minLength": 1}, "kind": {"type": "string"},
    "endpointUrl": {"type": "string", "format": "uri"}, "envSlug": {"type": "string"},
    "signals": {"type": "array", "minItems": 1, "items": {"type": "string", "enum": ["traces", "logs", "metrics"]}},
    "eventTypeFilter": {"type": ["array", "null"], "items": {"type": "string"}},
    "headers": {"type": "object", "additionalProperties": {"type": "string"}},
    "serviceName": {"type": ["string", "null"]}, "encoding": {"type": "string"}, "active": {"type": "boolean"},
    "config": {"type": "object", "description": "The kind's own settings, checked by its plugin (its configSchema)."}}})"},
      {"WebhookEndpointInput", R"({
  "title": "WebhookEndpointInput", "type": "object", "required": ["url", "channelId"],
  "properties": {"url": {"type": "string", "format": "uri"}, "channelId": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"},
    "eventTypes": {"type": ["array", "null"], "items": {"type": "string"}},
    "description": {"type": "string"}, "active": {"type": "boolean"}}})"},
      {"WebhookEndpointPatch", R"({
  "title": "WebhookEndpointPatch", "type": "object", "description": "channelId cannot change.",
  "properties": {"url": {"type": "string", "format": "uri"},
    "eventTypes": {"type": ["array", "null"], "items": {"type": "string"}},
    "description": {"type": "string"}, "active": {"type": "boolean"}}})"},
      {"AlertRuleInput", R"({
  "title": "AlertRuleInput", "type": "object", "additionalProperties": false, "required": ["name", "metric", "operator", "threshold"],
  "properties": {"name": {"type": "string", "minLength": 1},
    "metric": {"type": "string", "enum": ["event_count", "error_count", "error_rate", "cost_usd", "tokens",
      "latency_p50_ms", "latency_p95_ms", "latency_p99_ms"]},
    "operator": {"type": "string", "enum": ["gt", "gte", "lt", "lte", "eq"]}, "threshold": {"type": "number"},
    "windowMins": {"type": "integer", "minimum": 1},
    "appId": {"oneOf": [{"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, {"type": "null"}]},
    "environmentId": {"oneOf": [{"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, {"type": "null"}]},
    "model": {"type": ["string", "null"]}, "service": {"type": ["string", "null"]}, "release": {"type": ["string", "null"]},
    "destination": {"type": ["string", "null"]}, "destinationType": {"type": ["string", "null"]},
    "destinationConfig": {"type": ["object", "null"], "description": "The alert sink's own settings, checked by its plugin."},
    "enabled": {"type": "boolean"}}})"},
      {"AlertRulePatch", R"({
  "title": "AlertRulePatch", "type": "object", "additionalProperties": false,
  "properties": {"name": {"type": "string", "minLength": 1},
    "metric": {"type": "string", "enum": ["event_count", "error_count", "error_rate", "cost_usd", "tokens",
      "latency_p50_ms", "latency_p95_ms", "latency_p99_ms"]},
    "operator": {"type": "string", "enum": ["gt", "gte", "lt", "lte", "eq"]}, "threshold": {"type": "number"},
    "windowMins": {"type": "integer", "minimum": 1},
    "appId": {"oneOf": [{"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, {"type": "null"}]},
    "environmentId": {"oneOf": [{"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}, {"type": "null"}]},
    "model": {"type": ["string", "null"]}, "service": {"type": ["string", "null"]}, "release": {"type": ["string", "null"]},
    "destination": {"type": ["string", "null"]}, "destinationType": {"type": ["string", "null"]},
    "destinationConfig": {"type": ["object", "null"], "description": "The alert sink's own settings, checked by its plugin."},
    "enabled": {"type": "boolean"}}})"},
      {"ModerationSampleInput", R"({
  "title": "ModerationSampleInput", "type": "object", "required": ["payload"],
  "description": "An event as it would be published: payload, eventType and metadata decide the verdict; the other event fields may be sent and are ignored.",
  "properties": {"payload": {"type": "object"},
    "eventType": {"type": "string", "enum": ["agent.start", "agent.end", "agent.message", "agent.tool_call.start",
      "agent.tool_call.end", "agent.error", "agent.handoff", "agent.llm.token", "custom", "app.span", "app.log",
      "agent.log"]},
    "metadata": {"type": "object"}, "identifier": {"type": "string"}}})"},
      {"JsonSchema", R"({
  "title": "JsonSchema", "type": "object", "description": "A JSON Schema (2020-12) with its $id.",
  "required": ["$schema", "$id"], "properties": {"$schema": {"type": "string"}, "$id": {"type": "string"}}})"},
      {"OtlpTraceExport", R"({
  "title": "OtlpTraceExport", "type": "object",
  "description": "ExportTraceServiceRequest in the OTLP/JSON encoding.",
  "properties": {"resourceSpans": {"type": "array", "items": {"type": "object"}}}})"},
      {"JsonRpcRequest", R"({
  "title": "JsonRpcRequest", "type": "object", "required": ["jsonrpc", "method"],
  "properties": {"jsonrpc": {"const": "2.0"}, "id": {"type": ["string", "integer"]}, "method": {"type": "string"},
    "params": {"type": "object"}}})"},
  };
  return schemas;
}

}  // namespace aev::ops

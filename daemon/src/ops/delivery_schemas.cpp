// JSON Schemas of the /webhooks/* and /export-destinations responses (,
// docs/features.md#webhooks).
#include "ops/schemas.h"

namespace aev::ops {

const std::map<std::string, std::string>& deliverySchemas() {
  static const std::map<std::string, std::string> schemas = {
      {"WebhookEndpoint", R"json({
  "title": "WebhookEndpoint", "type": "object",
  "required": ["id", "endpointId", "orgId", "channelId", "url", "eventTypes", "description", "active", "createdAt",
               "updatedAt"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "id": {"type": "integer"}, "endpointId": {"type": "string", "pattern": "^[0-9]+$"},
    "orgId": {"type": "string", "pattern": "^[0-9]+$"}, "channelId": {"type": "integer"},
    "url": {"type": "string", "maxLength": 2048},
    "eventTypes": {"type": ["array", "null"], "items": {"type": "string"},
                   "description": "null: every event type"},
    "description": {"type": "string", "maxLength": 500},
    "secret": {"type": "string", "pattern": "^whsec_", "description": "only in the creation response"},
    "active": {"type": "boolean"},
    "failingSince": {"type": ["string", "null"], "format": "date-time"},
    "disabledAt": {"type": ["string", "null"], "format": "date-time"},
    "disabledReason": {"type": ["string", "null"]},
    "health24h": {"$ref": "DeliveryHealth24h.json", "description": "GET only (list and single): the last 24 hours"},
    "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"}
  }})json"},
      {"DeliveryHealth24h", R"json({
  "title": "DeliveryHealth24h", "type": "object",
  "description": "A delivery target's attempts of the last 24 hours (webhook endpoints, export destinations)",
  "required": ["deliveries", "succeeded", "successRate", "lastFailureAt", "lastFailureStatus", "lastFailureReason"],
  "properties": {
    "deliveries": {"type": "integer", "minimum": 0, "description": "attempts in the last 24 h"},
    "succeeded": {"type": "integer", "minimum": 0, "description": "of them, delivered"},
    "successRate": {"type": ["number", "null"], "minimum": 0, "maximum": 1, "description": "null when no attempt"},
    "lastFailureAt": {"type": ["string", "null"], "format": "date-time"},
    "lastFailureStatus": {"type": ["integer", "null"], "description": "the HTTP status; null when none came back"},
    "lastFailureReason": {"type": ["string", "null"], "description": "the start of the response body or the error"}
  }})json"},
      {"WebhookEndpointPage", R"json({
  "title": "WebhookEndpointPage", "type": "object", "required": ["data", "meta"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"$ref": "WebhookEndpoint.json"}},
    "meta": {"type": "object", "required": ["total", "page", "limit", "totalPages"],
      "properties": {"total": {"type": "integer"}, "page": {"type": "integer"}, "limit": {"type": "integer"},
        "totalPages": {"type": "integer"}}}
  }})json"},
      {"ExportDestination", R"json({
  "title": "ExportDestination", "type": "object",
  "required": ["id", "destinationId", "orgId", "name", "kind", "endpointUrl", "envSlug", "signals", "eventTypeFilter",
               "headerKeys", "serviceName", "encoding", "config", "secretConfigKeys", "active", "createdAt",
               "updatedAt"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "id": {"type": "string", "pattern": "^[0-9]+$"}, "destinationId": {"type": "string", "pattern": "^[0-9]+$"},
    "orgId": {"type": "string", "pattern": "^[0-9]+$"}, "name": {"type": "string", "minLength": 1, "maxLength": 120},
    "kind": {"type": "string", "description": "otlp, http, or any loaded exporter (GET /export-destinations/kinds)"},
    "endpointUrl": {"type": "string", "description": "an http(s) URL; empty when the kind does not use one"},
    "envSlug": {"type": "string", "description": "an environment slug of the organization, or *"},
    "signals": {"type": "array", "items": {"type": "string", "enum": ["traces", "logs", "metrics"]}},
    "eventTypeFilter": {"type": "array", "items": {"type": "string"}, "description": "empty: every event type"},
    "headerKeys": {"type": "array", "items": {"type": "string"}, "description": "header values are write-only"},
    "serviceName": {"type": ["string", "null"]}, "encoding": {"type": "string", "enum": ["protobuf", "json"]},
    "config": {"type": "object", "description": "the exporter's own settings (its configSchema), secret keys left out"},
    "secretConfigKeys": {"type": "array", "items": {"type": "string"}, "description": "secret config keys that are set (values are write-only, sealed at rest)"},
    "active": {"type": "boolean"},
    "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"},
    "health24h": {"$ref": "DeliveryHealth24h.json", "description": "GET only (list and single): the last 24 hours"},
    "health": {"type": "object", "description": "GET only: how its deliveries are going",
      "required": ["state", "lastSuccessAt", "lastFailureAt", "lastFailureReason", "consecutiveFailures", "givenUpBatches", "pending"],
      "properties": {
        "state": {"type": "string", "enum": ["idle", "ok", "retrying", "failing"]},
        "lastSuccessAt": {"type": ["string", "null"], "format": "date-time"},
        "lastFailureAt": {"type": ["string", "null"], "format": "date-time"},
        "lastFailureReason": {"type": ["string", "null"]},
        "consecutiveFailures": {"type": "integer"},
        "givenUpBatches": {"type": "integer", "description": "failed for good and not redelivered since"},
        "pending": {"type": "integer"}
      }}
  }})json"},
      {"ExportRedeliverResult", R"json({
  "title": "ExportRedeliverResult", "type": "object", "required": ["queued"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "queued": {"type": "integer", "description": "given-up batches queued again (0 when none was in the window)"}
  }})json"},
      {"ComponentKindList", R"json({
  "title": "ComponentKindList", "type": "object", "required": ["data"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"type": "object",
      "required": ["name", "plugin", "description", "configSchema", "requiredKeys", "secretKeys"],
      "properties": {
        "name": {"type": "string", "description": "the kind / destinationType value"},
        "plugin": {"type": "string"}, "description": {"type": "string"},
        "configSchema": {"type": ["object", "null"], "description": "JSON Schema of the config object"},
        "requiredKeys": {"type": "array", "items": {"type": "string"}},
        "secretKeys": {"type": "array", "items": {"type": "string"}, "description": "write-only keys (writeOnly in the schema)"},
        "signals": {"type": "array", "items": {"type": "string", "enum": ["traces", "logs", "metrics"]}, "description": "exporters only"}
      }}}
  }})json"},
      {"ExportDestinationList", R"json({
  "title": "ExportDestinationList", "type": "object", "required": ["data"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"$ref": "ExportDestination.json"}}
  }})json"},
      {"ExportDeliveryList", R"json({
  "title": "ExportDeliveryList", "type": "object", "required": ["data"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"type": "object",
      "required": ["id", "deliveryId", "destinationId", "eventId", "attempt", "statusCode", "responseBody", "outcome",
                   "durationMs", "nextAttemptAt", "createdAt"],
      "properties": {
        "id": {"type": "string"}, "deliveryId": {"type": "string"}, "destinationId": {"type": "string"},
        "eventId": {"type": ["string", "null"], "description": "the first event of the batch"},
        "attempt": {"type": "integer"}, "statusCode": {"type": "integer"},
        "responseBody": {"type": "string", "maxLength": 4096},
        "outcome": {"type": "string", "enum": ["delivered", "retrying", "failed"]},
        "durationMs": {"type": "integer"}, "nextAttemptAt": {"type": ["string", "null"], "format": "date-time"},
        "createdAt": {"type": "string", "format": "date-time"}
      }}}
  }})json"},
      {"ExportTestResult", R"json({
  "title": "ExportTestResult", "type": "object", "required": ["ok", "statusCode", "responseBody", "durationMs"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "ok": {"type": "boolean"}, "statusCode": {"type": "integer"}, "responseBody": {"type": "string"},
    "durationMs": {"type": "integer"}
  }})json"},
  };
  return schemas;
}

}  // namespace aev::ops

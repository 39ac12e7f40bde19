// JSON Schemas of the /webhooks/* responses (interface §2.9, §4.7, decisions §7).
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
    "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"}
  }})json"},
      {"WebhookEndpointList", R"json({
  "title": "WebhookEndpointList", "type": "array", "items": {"$ref": "WebhookEndpoint.json"}})json"},
      {"WebhookDeliveryList", R"json({
  "title": "WebhookDeliveryList", "type": "array", "items": {"type": "object",
    "required": ["id", "deliveryId", "endpointId", "webhookId", "eventId", "attempt", "statusCode", "responseBody",
                 "outcome", "durationMs", "nextAttemptAt", "createdAt"],
    "properties": {
      "id": {"type": "integer"}, "deliveryId": {"type": "string"}, "endpointId": {"type": "string"},
      "webhookId": {"type": "string", "description": "webhook-id header: the same on every attempt of a message"},
      "eventId": {"type": ["integer", "null"]}, "attempt": {"type": "integer", "minimum": 1},
      "statusCode": {"type": "integer", "description": "0 when there was no HTTP answer"},
      "responseBody": {"type": "string", "maxLength": 4096},
      "outcome": {"type": "string", "enum": ["delivered", "retrying", "failed"]},
      "durationMs": {"type": "integer"},
      "nextAttemptAt": {"type": ["string", "null"], "format": "date-time"},
      "createdAt": {"type": "string", "format": "date-time"}
    }}})json"},
  };
  return schemas;
}

}  // namespace aev::ops

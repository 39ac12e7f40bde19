// JSON Schemas of the /spend-policies responses (docs/features.md#spend-policies).
#include "ops/schemas.h"

namespace aev::ops {

const std::map<std::string, std::string>& spendSchemas() {
  static const std::map<std::string, std::string> schemas = {
      {"SpendPolicy", R"json({
  "title": "SpendPolicy", "type": "object",
  "required": ["id", "policyId", "orgId", "name", "apiKeyId", "appId", "environmentId", "userId", "model", "provider",
               "tagKey", "tagValue", "limitUsd", "currentSpendUsd", "windowType", "cooldownMins", "destination",
               "destinationType", "enabled", "rungs", "createdAt", "updatedAt"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "id": {"type": "string", "pattern": "^[0-9]+$"}, "policyId": {"type": "string", "pattern": "^[0-9]+$"},
    "orgId": {"type": "string", "pattern": "^[0-9]+$"}, "name": {"type": "string", "minLength": 1, "maxLength": 120},
    "apiKeyId": {"type": ["string", "null"]}, "appId": {"type": ["string", "null"]},
    "environmentId": {"type": ["string", "null"]},
    "userId": {"type": ["string", "null"], "description": "the end user (metadata.user)"},
    "model": {"type": ["string", "null"]}, "provider": {"type": ["string", "null"]},
    "tagKey": {"type": ["string", "null"]}, "tagValue": {"type": ["string", "null"]},
    "limitUsd": {"type": "number", "exclusiveMinimum": 0},
    "currentSpendUsd": {"type": "number", "minimum": 0, "description": "spend in the current window (output only)"},
    "windowType": {"type": "string", "enum": ["hour", "day", "week", "month", "rolling_24h"]},
    "cooldownMins": {"type": "integer", "minimum": 0},
    "destination": {"type": ["string", "null"]},
    "destinationType": {"type": ["string", "null"], "description": "a loaded alert sink, e.g. webhook or slack"},
    "enabled": {"type": "boolean"},
    "rungs": {"type": "array", "minItems": 1, "maxItems": 10, "items": {"type": "object",
      "required": ["at_percent", "action", "block_mode", "fallback_model"],
      "properties": {"at_percent": {"type": "integer", "minimum": 1, "maximum": 1000},
        "action": {"type": "string", "enum": ["alert", "block", "fallback"]},
        "block_mode": {"type": ["string", "null"], "enum": ["hard", "soft", null]},
        "fallback_model": {"type": ["string", "null"]}}}},
    "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"}
  }})json"},
      {"SpendPolicyList", R"json({
  "title": "SpendPolicyList", "type": "object", "required": ["policies"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "policies": {"type": "array", "items": {"$ref": "SpendPolicy.json"}}
  }})json"},
      {"SpendRefusalList", R"json({
  "title": "SpendRefusalList", "type": "object", "required": ["count", "data"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "count": {"type": "integer", "minimum": 0, "description": "every publish the policy refused"},
    "data": {"type": "array", "maxItems": 20, "description": "the newest refusals, newest first",
      "items": {"type": "object", "required": ["occurredAt", "apiKeyId", "channelId", "agentId", "reason", "amountUsd"],
        "properties": {
          "occurredAt": {"type": "string", "format": "date-time"},
          "apiKeyId": {"type": ["string", "null"]}, "channelId": {"type": ["string", "null"]},
          "agentId": {"type": ["string", "null"]}, "reason": {"type": "string"},
          "amountUsd": {"type": ["number", "null"], "description": "the refused event's cost"}}}}
  }})json"},
      {"SpendCheck", R"json({
  "title": "SpendCheck", "type": "object",
  "required": ["allowed", "action", "blockMode", "fallbackModel", "policyId", "percent", "retryAfterSeconds"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "allowed": {"type": "boolean", "description": "false when a hard block rung is in force"},
    "action": {"type": ["string", "null"], "enum": ["alert", "block", "fallback", null]},
    "blockMode": {"type": ["string", "null"], "enum": ["hard", "soft", null]},
    "fallbackModel": {"type": ["string", "null"]},
    "policyId": {"type": ["string", "null"], "description": "the policy deciding (most severe), null when none matches"},
    "percent": {"type": ["number", "null"]},
    "retryAfterSeconds": {"type": ["integer", "null"]}
  }})json"},
  };
  return schemas;
}

}  // namespace aev::ops

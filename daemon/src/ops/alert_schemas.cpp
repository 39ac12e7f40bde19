// JSON Schemas of the /v2/alerts responses (docs/features.md#alerts).
#include "ops/schemas.h"

namespace aev::ops {

const std::map<std::string, std::string>& alertSchemas() {
  static const std::map<std::string, std::string> schemas = {{"AlertRule", R"json({
  "title": "AlertRule", "type": "object",
  "required": ["alertRuleId", "orgId", "appId", "environmentId", "name", "metric", "operator", "threshold",
               "windowMins", "model", "service", "release", "destination", "destinationType", "enabled", "state",
               "lastValue", "createdAt", "updatedAt"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "alertRuleId": {"type": "string", "pattern": "^[0-9]+$"}, "orgId": {"type": "string", "pattern": "^[0-9]+$"},
    "appId": {"type": ["string", "null"]}, "environmentId": {"type": ["string", "null"]},
    "name": {"type": "string", "minLength": 1, "maxLength": 120},
    "metric": {"type": "string", "enum": ["event_count", "error_count", "error_rate", "cost_usd", "tokens",
                                          "latency_p50_ms", "latency_p95_ms", "latency_p99_ms"]},
    "operator": {"type": "string", "enum": ["gt", "gte", "lt", "lte", "eq"]},
    "threshold": {"type": "number"},
    "windowMins": {"type": "integer", "minimum": 1, "maximum": 1440},
    "model": {"type": ["string", "null"]}, "service": {"type": ["string", "null"]},
    "release": {"type": ["string", "null"]},
    "destination": {"type": ["string", "null"], "description": "where the alert sink sends, e.g. a URL"},
    "destinationType": {"type": ["string", "null"], "description": "a loaded alert sink: webhook, slack, ... (GET /v2/alerts/destination-kinds)"},
    "destinationConfig": {"type": "object", "description": "the alert sink's own settings for this rule (its configSchema), secret keys left out"},
    "secretConfigKeys": {"type": "array", "items": {"type": "string"}, "description": "secret destinationConfig keys that are set (write-only, sealed at rest)"},
    "enabled": {"type": "boolean"},
    "state": {"type": "string", "enum": ["ok", "firing"]},
    "lastValue": {"type": ["number", "null"], "description": "the metric at the last evaluation (null: undefined)"},
    "lastEvaluatedAt": {"type": ["string", "null"], "format": "date-time"},
    "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"}
  }})json"},
                                                             {"AlertRuleList", R"json({
  "title": "AlertRuleList", "type": "object", "required": ["data"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"$ref": "AlertRule.json"}}
  }})json"},
                                                             {"AlertEventList", R"json({
  "title": "AlertEventList", "type": "object", "required": ["data"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"type": "object",
      "required": ["id", "alertRuleId", "state", "value", "threshold", "firedAt", "resolvedAt", "createdAt",
                   "notification"],
      "properties": {
        "id": {"type": "string"}, "alertRuleId": {"type": "string"},
        "state": {"type": "string", "enum": ["firing", "resolved"]},
        "value": {"type": ["number", "null"]}, "threshold": {"type": "number"},
        "firedAt": {"type": "string", "format": "date-time"},
        "resolvedAt": {"type": ["string", "null"], "format": "date-time"},
        "createdAt": {"type": "string", "format": "date-time"},
        "deliveredAt": {"type": ["string", "null"], "format": "date-time"},
        "notification": {"type": "object", "description": "the alert JSON sent to the destination"}}}}
  }})json"}};
  return schemas;
}

}  // namespace aev::ops

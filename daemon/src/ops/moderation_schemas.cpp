// JSON Schemas of the /moderation/* responses (docs/features.md#moderation).
#include "ops/schemas.h"

namespace aev::ops {

const std::map<std::string, std::string>& moderationSchemas() {
  static const std::map<std::string, std::string> schemas = {
      {"ModerationRule", R"json({
  "title": "ModerationRule", "type": "object",
  "required": ["id", "ruleId", "orgId", "name", "action", "detector", "pattern", "target", "enabled", "createdAt",
               "updatedAt"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "id": {"type": "string", "pattern": "^[0-9]+$"}, "ruleId": {"type": "string", "pattern": "^[0-9]+$"},
    "orgId": {"type": "string", "pattern": "^[0-9]+$"}, "name": {"type": "string", "minLength": 1, "maxLength": 120},
    "action": {"type": "string", "enum": ["allow", "redact", "block", "flag"]},
    "detector": {"type": "string", "description": "regex, keyword, tool_name, tool_arg or a plugin detector name"},
    "pattern": {"type": ["string", "null"], "maxLength": 4096},
    "detectorConfig": {"type": "object", "description": "plugin detectors: the detector's settings for this rule (its configSchema), secret keys left out"},
    "secretConfigKeys": {"type": "array", "items": {"type": "string"}, "description": "secret detectorConfig keys that are set (write-only, sealed at rest)"},
    "minScore": {"type": ["number", "null"], "minimum": 0, "maximum": 1, "description": "plugin detectors: matches scored lower do not count"},
    "target": {"type": "string", "enum": ["request", "response", "tool_call"]},
    "enabled": {"type": "boolean"},
    "createdAt": {"type": "string", "format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"}
  }})json"},
      {"DetectorKindList", R"json({
  "title": "DetectorKindList", "type": "object", "required": ["data"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"type": "object",
      "required": ["name", "plugin", "builtIn", "description", "configSchema", "requiredKeys", "secretKeys", "takesPattern",
                   "targets"],
      "properties": {
        "name": {"type": "string", "description": "a moderation rule's detector value"},
        "plugin": {"type": ["string", "null"], "description": "the plugin that provides it; null for the built-in detectors"},
        "builtIn": {"type": "boolean", "description": "regex, keyword, tool_name and tool_arg: implemented by the daemon"},
        "description": {"type": "string"},
        "configSchema": {"type": ["object", "null"], "description": "JSON Schema of a rule's detectorConfig, properties in the plugin's order; null when it declares none"},
        "requiredKeys": {"type": "array", "items": {"type": "string"}},
        "secretKeys": {"type": "array", "items": {"type": "string"}, "description": "write-only detectorConfig keys (sealed at rest)"},
        "takesPattern": {"type": "boolean", "description": "a rule of this detector requires a pattern (built-in detectors only)"},
        "targets": {"type": "array", "items": {"type": "string", "enum": ["request", "response", "tool_call"]}, "description": "the targets a rule of this detector may scan"}
      }}}
  }})json"},
      {"ModerationRuleList", R"json({
  "title": "ModerationRuleList", "type": "object", "required": ["data"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"$ref": "ModerationRule.json"}}
  }})json"},
      {"ModerationViolationList", R"json({
  "title": "ModerationViolationList", "type": "object", "required": ["data", "meta"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"type": "object",
      "required": ["id", "violationId", "ruleId", "ruleName", "detector", "action", "target", "eventId", "channelId",
                   "eventType", "source", "matchCount", "fields", "latencyMs", "createdAt"],
      "properties": {
        "id": {"type": "string"}, "violationId": {"type": "string"}, "ruleId": {"type": "string"},
        "ruleName": {"type": "string"}, "detector": {"type": "string"},
        "action": {"type": "string", "enum": ["allow", "redact", "block", "flag"]},
        "target": {"type": "string", "enum": ["request", "response", "tool_call"]},
        "eventId": {"type": ["string", "null"], "description": "null when the event was not stored (blocked)"},
        "traceId": {"type": ["string", "null"], "description": "the stored event's traceId (null when none or not stored)"},
        "channelId": {"type": ["string", "null"]}, "eventType": {"type": ["string", "null"]},
        "source": {"type": "string", "enum": ["api", "batch", "otlp"]}, "matchCount": {"type": "integer"},
        "fields": {"type": "array", "items": {"type": "string"}}, "latencyMs": {"type": "number"},
        "matches": {"type": "array", "items": {"type": "object", "required": ["detector", "label", "score"], "properties": {"detector": {"type": "string"}, "label": {"type": "string", "description": "what a plugin detector found; empty for regex, keyword and tool rules"}, "score": {"type": "number", "minimum": 0, "maximum": 1}}}, "description": "each match (the first 50): detector, label, score"},
        "createdAt": {"type": "string", "format": "date-time"}}}},
    "meta": {"type": "object", "required": ["total", "page", "limit", "totalPages"],
      "properties": {"total": {"type": "integer"}, "page": {"type": "integer"}, "limit": {"type": "integer"},
        "totalPages": {"type": "integer"}}}
  }})json"},
      {"ModerationEfficacy", R"json({
  "title": "ModerationEfficacy", "type": "object", "required": ["rows", "rules"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "since": {"type": "string", "format": "date-time"}, "until": {"type": "string", "format": "date-time"},
    "rows": {"type": "array", "description": "per detector, action and target, most violations first",
      "items": {"type": "object",
      "required": ["detector", "action", "target", "violationCount", "avgLatencyMs", "maxLatencyMs"],
      "properties": {"detector": {"type": "string"}, "action": {"type": "string"}, "target": {"type": "string"},
        "violationCount": {"type": "integer"}, "avgLatencyMs": {"type": "number"},
        "maxLatencyMs": {"type": "number"}}}},
    "rules": {"type": "array", "description": "per rule that matched in the window, most violations first",
      "items": {"type": "object",
      "required": ["ruleId", "ruleName", "action", "violationCount", "lastViolationAt", "ruleDeleted"],
      "properties": {"ruleId": {"type": "string", "pattern": "^[0-9]+$"},
        "ruleName": {"type": "string", "description": "the rule's name, or the one it had when deleted"},
        "action": {"type": "string", "enum": ["allow", "redact", "block", "flag"]},
        "violationCount": {"type": "integer"}, "lastViolationAt": {"type": "string", "format": "date-time"},
        "ruleDeleted": {"type": "boolean"}}}}
  }})json"},
      {"ModerationVerdict", R"json({
  "title": "ModerationVerdict", "type": "object",
  "required": ["decision", "blocked", "redacted", "flagged", "blockedBy", "targets", "matches", "payload", "metadata"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "decision": {"type": "string", "enum": ["accept", "block"]},
    "blocked": {"type": "boolean"}, "redacted": {"type": "boolean"}, "flagged": {"type": "boolean"},
    "blockedBy": {"type": ["object", "null"],
      "properties": {"ruleId": {"type": "string"}, "ruleName": {"type": "string"}}},
    "targets": {"type": "array", "items": {"type": "string", "enum": ["request", "response", "tool_call"]}},
    "matches": {"type": "array", "items": {"type": "object",
      "required": ["ruleId", "ruleName", "detector", "action", "target", "matchCount", "latencyMs", "fields"],
      "properties": {"ruleId": {"type": "string"}, "ruleName": {"type": "string"}, "detector": {"type": "string"},
        "action": {"type": "string"}, "target": {"type": "string"}, "matchCount": {"type": "integer"},
        "latencyMs": {"type": "number"}, "fields": {"type": "array", "items": {"type": "string"}},
        "matches": {"type": "array", "items": {"type": "object", "required": ["detector", "label", "score"], "properties": {"detector": {"type": "string"}, "label": {"type": "string", "description": "what a plugin detector found; empty for regex, keyword and tool rules"}, "score": {"type": "number", "minimum": 0, "maximum": 1}}}, "description": "each match (the first 50): detector, label, score"}}}},
    "payload": {"type": "object", "description": "the payload as it would be stored (redactions applied)"},
    "metadata": {"type": ["object", "null"], "description": "the metadata as it would be stored (metadata.moderation)"}
  }})json"},
  };
  return schemas;
}

}  // namespace aev::ops

// JSON Schemas of GET /sessions, /sessions/{id} and /end-users (docs/api.md#sessions).
#include "ops/schemas.h"

namespace aev::ops {

const std::map<std::string, std::string>& sessionSchemas() {
  // One schema per entry, kept as readable JSON whatever line changes.
  // clang-format off
  static const std::map<std::string, std::string> schemas = {
      {"Session", R"json({
  "title": "Session", "type": "object",
  "required": ["sessionId", "traceCount", "firstSeen", "lastSeen", "durationMs", "costUsd", "inputTokens",
               "outputTokens", "totalTokens", "errorCount", "userIds", "userCount"],
  "properties": {
    "sessionId": {"type": "string"},
    "traceCount": {"type": "integer"},
    "firstSeen": {"type": "string", "format": "date-time", "description": "its first trace's start"},
    "lastSeen": {"type": "string", "format": "date-time", "description": "its last trace's end"},
    "durationMs": {"type": "number", "description": "lastSeen - firstSeen"},
    "costUsd": {"type": "number", "description": "sum of its traces' costUsd"},
    "inputTokens": {"type": "integer"}, "outputTokens": {"type": "integer"}, "totalTokens": {"type": "integer"},
    "errorCount": {"type": "integer", "description": "sum of its traces' errorCount"},
    "userIds": {"type": "array", "maxItems": 10, "items": {"type": "string"}, "description": "up to 10 distinct end users, sorted"},
    "userCount": {"type": "integer", "description": "distinct end users"}
  }})json"},
      {"SessionList", R"json({
  "title": "SessionList", "type": "object", "required": ["data", "meta"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"$ref": "Session.json"}},
    "meta": {"$ref": "PageMeta.json"}
  }})json"},
      {"SessionDetail", R"json({
  "title": "SessionDetail", "type": "object",
  "allOf": [{"$ref": "Session.json"}],
  "required": ["traces"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "traces": {"type": "array", "maxItems": 500, "description": "its traces, oldest first: trace items plus input and output",
      "items": {"type": "object", "required": ["traceId", "startTime", "endTime", "input", "output"],
        "properties": {
          "traceId": {"type": "string"}, "startTime": {"type": "string", "format": "date-time"},
          "endTime": {"type": "string", "format": "date-time"}, "durationMs": {"type": "number"},
          "input": {"type": ["string", "null"], "description": "the last user message of its first LLM call's input (at most 4,000 characters)"},
          "output": {"type": ["string", "null"], "description": "the text of its last LLM call's output (at most 4,000 characters)"}}}}
  }})json"},
      {"EndUser", R"json({
  "title": "EndUser", "type": "object",
  "required": ["userId", "traceCount", "sessionCount", "costUsd", "inputTokens", "outputTokens", "totalTokens",
               "errorCount", "firstSeen", "lastSeen"],
  "properties": {
    "userId": {"type": "string"}, "traceCount": {"type": "integer"},
    "sessionCount": {"type": "integer", "description": "distinct sessions among its traces"},
    "costUsd": {"type": "number"}, "inputTokens": {"type": "integer"}, "outputTokens": {"type": "integer"},
    "totalTokens": {"type": "integer"}, "errorCount": {"type": "integer"},
    "firstSeen": {"type": "string", "format": "date-time"}, "lastSeen": {"type": "string", "format": "date-time"}
  }})json"},
      {"EndUserList", R"json({
  "title": "EndUserList", "type": "object", "required": ["data", "meta"],
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"$ref": "EndUser.json"}},
    "meta": {"$ref": "PageMeta.json"}
  }})json"}};
  // clang-format on
  return schemas;
}

}  // namespace aev::ops

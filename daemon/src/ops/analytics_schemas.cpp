// JSON Schemas of the /analytics/* responses (docs/features.md#analytics).
#include "ops/schemas.h"

namespace aev::ops {

const std::map<std::string, std::string>& analyticsSchemas() {
  static const std::map<std::string, std::string> schemas = {
      {"AnalyticsBreakdown", R"({
  "title": "AnalyticsBreakdown", "type": "object", "required": ["dimension", "rows"],
  "properties": {
    "dimension": {"type": "string"},
    "rows": {"type": "array", "items": {"type": "object",
      "required": ["key", "eventCount", "errorCount", "inputTokens", "outputTokens", "totalTokens", "costUsd",
                   "avgDurationMs"],
      "properties": {"key": {"type": "string"}, "eventCount": {"type": "integer"}, "errorCount": {"type": "integer"},
        "inputTokens": {"type": "integer"}, "outputTokens": {"type": "integer"}, "totalTokens": {"type": "integer"},
        "costUsd": {"type": "number"}, "avgDurationMs": {"type": "number"}}}}
  }})"},
      {"AnalyticsDimensions", R"({
  "title": "AnalyticsDimensions", "type": "object", "required": ["dimensions"],
  "properties": {
    "dimensions": {"type": "array", "items": {"type": "object", "required": ["key", "lastSeen", "source"],
      "properties": {"key": {"type": "string"}, "lastSeen": {"type": "string", "format": "date-time"},
        "source": {"type": "string", "enum": ["api", "batch", "otlp"]}}}}
  }})"},
      {"AnalyticsTimeseries", R"({
  "title": "AnalyticsTimeseries", "type": "object", "required": ["metric", "interval", "points"],
  "properties": {
    "metric": {"type": "string",
      "enum": ["event_count", "error_count", "tokens", "cost_usd", "latency_p50_ms", "latency_p95_ms"]},
    "interval": {"type": "string", "enum": ["minute", "hour", "day"]},
    "points": {"type": "array", "items": {"type": "object", "required": ["ts", "value"],
      "properties": {"ts": {"type": "string", "format": "date-time"}, "value": {"type": "number"}}}}
  }})"},
      {"AnalyticsLatency", R"({
  "title": "AnalyticsLatency", "type": "object", "required": ["p50", "p90", "p95", "p99", "max", "count"],
  "properties": {
    "p50": {"type": ["number", "null"]}, "p90": {"type": ["number", "null"]}, "p95": {"type": ["number", "null"]},
    "p99": {"type": ["number", "null"]}, "max": {"type": ["number", "null"]}, "count": {"type": "integer"}
  }})"},
      {"AnalyticsOverview", R"({
  "title": "AnalyticsOverview", "type": "object", "required": ["series", "latency"],
  "properties": {
    "series": {"type": "object",
      "required": ["event_count", "error_count", "tokens", "cost_usd", "latency_p50_ms", "latency_p95_ms"],
      "properties": {"event_count": {"$ref": "AnalyticsTimeseries.json"}, "error_count": {"$ref": "AnalyticsTimeseries.json"},
        "tokens": {"$ref": "AnalyticsTimeseries.json"}, "cost_usd": {"$ref": "AnalyticsTimeseries.json"},
        "latency_p50_ms": {"$ref": "AnalyticsTimeseries.json"}, "latency_p95_ms": {"$ref": "AnalyticsTimeseries.json"}},
      "additionalProperties": {"$ref": "AnalyticsTimeseries.json"}},
    "latency": {"$ref": "AnalyticsLatency.json"},
    "latencyByKind": {"type": "object", "required": ["llm", "tool"],
      "description": "duration_ms percentiles (ms) of LLM calls and of tool calls apart (semantic kind); null when none",
      "properties": {"llm": {"type": ["object", "null"], "required": ["count", "p50", "p95", "p99"],
        "properties": {"count": {"type": "integer"}, "p50": {"type": "number"}, "p95": {"type": "number"},
          "p99": {"type": "number"}}},
        "tool": {"type": ["object", "null"], "required": ["count", "p50", "p95", "p99"],
        "properties": {"count": {"type": "integer"}, "p50": {"type": "number"}, "p95": {"type": "number"},
          "p99": {"type": "number"}}}}}
  }})"},
  };
  return schemas;
}

}  // namespace aev::ops

// JSON Schemas of the first-shape bodies the OpenAPI document names: events as published,
// stored, listed and batched, stream tokens, traces, and the session routes. First-shape
// answers carry no `$schema` field; these exist so /openapi.json describes them too.
#include "ops/schemas.h"

namespace aev::ops {

const std::map<std::string, std::string>& eventSchemas() {
  static const std::map<std::string, std::string> schemas = {
      {"EventInput", R"({
  "title": "EventInput", "type": "object", "required": ["identifier", "payload"],
  "description": "One event to publish, into the channel channel_id or channelId names (one of them; both only when they name the same channel).",
  "anyOf": [{"required": ["channel_id"]}, {"required": ["channelId"]}],
  "properties": {
    "identifier": {"type": "string", "minLength": 1, "maxLength": 256},
    "payload": {"type": "object"},
    "channel_id": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"},
    "channelId": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"},
    "agentId": {"type": "string", "maxLength": 256},
    "eventType": {"type": "string", "enum": ["agent.start", "agent.end", "agent.message", "agent.tool_call.start",
      "agent.tool_call.end", "agent.error", "agent.handoff", "agent.llm.token", "custom", "app.span", "app.log",
      "agent.log"]},
    "traceId": {"type": "string", "maxLength": 256}, "spanId": {"type": "string", "maxLength": 256},
    "parentSpanId": {"type": "string", "maxLength": 256},
    "metadata": {"type": "object", "description": "Free-form; the telemetry fields (model, usage, cost_usd, tags, ...) are read from it."},
    "timestamp": {"type": "string", "format": "date-time", "description": "When it happened at the publisher; stored as occurredAt."}
  }})"},
      {"Event", R"({
  "title": "Event", "type": "object",
  "required": ["id", "eventId", "identifier", "payload", "channel_id", "channelId", "appId", "orgId", "timestamp", "createdAt"],
  "properties": {
    "id": {"type": "integer"}, "eventId": {"type": "string", "description": "id as a decimal string"},
    "identifier": {"type": "string"}, "payload": {"type": "object"},
    "channel_id": {"type": "integer"}, "channelId": {"type": "string"}, "appId": {"type": "string"}, "orgId": {"type": "string"},
    "agentId": {"type": ["string", "null"]}, "eventType": {"type": ["string", "null"]},
    "traceId": {"type": ["string", "null"]}, "spanId": {"type": ["string", "null"]}, "parentSpanId": {"type": ["string", "null"]},
    "metadata": {"type": ["object", "null"]},
    "timestamp": {"type": "string", "format": "date-time", "description": "Receive time, microseconds, UTC."},
    "createdAt": {"type": "string", "format": "date-time", "description": "Equal to timestamp."},
    "occurredAt": {"type": ["string", "null"], "format": "date-time"},
    "spend": {"type": "object", "description": "Only on publish answers of events a spend policy matched.",
      "properties": {"policyId": {"type": "string"}, "percent": {"type": "number"}, "action": {"type": ["string", "null"]},
        "blockMode": {"type": ["string", "null"]}, "fallbackModel": {"type": ["string", "null"]}}}
  }})"},
      {"EventPage", R"({
  "title": "EventPage", "type": "object", "required": ["data", "meta"],
  "properties": {
    "data": {"type": "array", "items": {"$ref": "Event.json"}},
    "meta": {"allOf": [{"$ref": "PageMeta.json"}, {"type": "object", "required": ["nextCursor"],
      "properties": {"nextCursor": {"type": ["string", "null"], "description": "pass as cursor for the next (older) page; null on the last"}}}]}
  }})"},
      {"IngestProblemList", R"({
  "title": "IngestProblemList", "type": "object", "required": ["data", "meta"],
  "description": "Refused OTLP exports of the organization, newest first (the newest 100 are kept).",
  "properties": {
    "$schema": {"type": "string", "format": "uri"},
    "data": {"type": "array", "items": {"type": "object",
      "required": ["id", "orgId", "occurredAt", "route", "status", "reason", "reasonText", "detail", "apiKeyId", "rejectedSpans"],
      "properties": {
        "id": {"type": "string"}, "orgId": {"type": "string"},
        "occurredAt": {"type": "string", "format": "date-time"},
        "route": {"type": "string", "description": "the path the export was sent to"},
        "status": {"type": "integer", "description": "the HTTP status answered; 200 for a partial success"},
        "reason": {"type": "string", "enum": ["unauthenticated", "forbidden", "no_channel", "unknown_channel", "malformed",
          "too_large", "unsupported_media_type", "rate_limited", "spans_invalid", "spans_refused"]},
        "reasonText": {"type": "string", "description": "the reason for people, e.g. no channel"},
        "detail": {"type": "string", "description": "what the answer said"},
        "apiKeyId": {"type": ["string", "null"]},
        "rejectedSpans": {"type": "integer", "description": "spans refused by a partial success; 0 otherwise"}}}},
    "meta": {"$ref": "PageMeta.json"}
  }})"},
      {"PageMeta", R"({
  "title": "PageMeta", "type": "object", "required": ["total", "page", "limit", "totalPages"],
  "properties": {"total": {"type": "integer"}, "page": {"type": "integer"}, "limit": {"type": "integer"},
    "totalPages": {"type": "integer"}}})"},
      {"EventBatchInput", R"({
  "title": "EventBatchInput", "type": "object", "required": ["events"],
  "properties": {"events": {"type": "array", "maxItems": 1000, "items": {"$ref": "EventInput.json"}}}})"},
      {"EventBatchResult", R"({
  "title": "EventBatchResult", "type": "object", "required": ["results"],
  "description": "One result per event, in order: the stored event, or the problem that refused it.",
  "properties": {
    "results": {"type": "array", "items": {"oneOf": [{"$ref": "Event.json"}, {"$ref": "Problem.json"}]}},
    "stored": {"type": "integer"}, "failed": {"type": "integer"}
  }})"},
      {"StreamTokenInput", R"({
  "title": "StreamTokenInput", "type": "object", "required": ["channelId"],
  "properties": {"channelId": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"}}})"},
      {"StreamToken", R"({
  "title": "StreamToken", "type": "object", "required": ["token", "expiresAt"],
  "properties": {"token": {"type": "string"}, "expiresAt": {"type": "string", "format": "date-time"}}})"},
      {"TraceList", R"({
  "title": "TraceList", "type": "object", "required": ["data", "meta"],
  "properties": {
    "data": {"type": "array", "items": {"type": "object", "required": ["traceId", "startTime", "endTime", "eventCount", "errorCount", "agents"],
      "properties": {"traceId": {"type": "string"}, "startTime": {"type": "string", "format": "date-time"},
        "endTime": {"type": "string", "format": "date-time"}, "eventCount": {"type": "integer"},
        "errorCount": {"type": "integer"}, "toolCallCount": {"type": "integer"}, "handoffCount": {"type": "integer"},
        "agents": {"type": "array", "items": {"type": "string"}},
        "inputTokens": {"type": "integer"}, "outputTokens": {"type": "integer"},
        "totalTokens": {"type": "integer", "description": "inputTokens + outputTokens."},
        "cachedInputTokens": {"type": "integer", "description": "Of inputTokens, those read from the provider's prompt cache."},
        "reasoningTokens": {"type": "integer", "description": "Of outputTokens, those spent on reasoning."},
        "costUsd": {"type": "number", "description": "Sum of the events' cost_usd."},
        "sessionId": {"type": ["string", "null"], "description": "The session (conversation) of the trace: the first its events name."},
        "userId": {"type": ["string", "null"], "description": "The end user of the trace: the first its events name."},
        "name": {"type": ["string", "null"], "description": "The trace's name: a stated one (langfuse.trace.name, metadata.trace_name, ...), else the OTLP root span's name."},
        "tags": {"type": "object", "additionalProperties": {"type": "string"}, "description": "The trace's metadata.tags, key to value (the first value of a key; at most 20 keys)."},
        "inputPreview": {"type": ["string", "null"], "description": "One line (at most 160 characters) of the last user message of the trace's first LLM call's input."},
        "outputPreview": {"type": ["string", "null"], "description": "One line (at most 160 characters) of the trace's last LLM call's output."},
        "durationMs": {"type": "number", "description": "endTime - startTime: first start to last end of its events (an event ends at its timestamp + its duration)."}}}},
    "meta": {"$ref": "PageMeta.json"}
  }})"},
      {"TraceEventList", R"({
  "title": "TraceEventList", "type": "array", "description": "A trace's events, oldest first.",
  "items": {"allOf": [{"$ref": "Event.json"}, {"type": "object", "required": ["telemetry"],
    "properties": {"telemetry": {"type": "object",
      "description": "Extracted and priced at ingest (null where unknown), with the trace's tool-call links worked out on read.",
      "required": ["model", "provider", "inputTokens", "outputTokens", "costUsd", "durationMs", "finishReason", "status",
                   "agent", "tool", "semanticKind", "toolCallId", "requestedBy", "toolCalls"],
      "properties": {
        "model": {"type": ["string", "null"]}, "provider": {"type": ["string", "null"]},
        "inputTokens": {"type": ["integer", "null"]}, "outputTokens": {"type": ["integer", "null"]},
        "costUsd": {"type": ["number", "null"]}, "durationMs": {"type": ["number", "null"]},
        "finishReason": {"type": ["string", "null"]}, "status": {"type": ["string", "null"]},
        "agent": {"type": ["string", "null"]}, "tool": {"type": ["string", "null"]}, "semanticKind": {"type": ["string", "null"]},
        "toolCallId": {"type": ["string", "null"], "description": "A tool run's call id (metadata.tool_call_id)."},
        "requestedBy": {"type": ["object", "null"], "description": "A tool run or hand-off: the LLM call of the trace that asked for it.",
          "required": ["eventId", "spanId", "toolCallId", "tool", "matchedBy"],
          "properties": {"eventId": {"type": "string"}, "spanId": {"type": ["string", "null"]},
            "toolCallId": {"type": ["string", "null"]}, "tool": {"type": "string", "description": "The name the model asked for."},
            "matchedBy": {"type": "string", "enum": ["id", "name"], "description": "By call id, or (a run without one) by name and order."}}},
        "toolCalls": {"type": ["array", "null"], "description": "An LLM call: the tool calls its output asked for.",
          "items": {"type": "object", "required": ["toolCallId", "name", "answeredBy"],
            "properties": {"toolCallId": {"type": ["string", "null"]}, "name": {"type": "string"},
              "answeredBy": {"type": ["string", "null"], "description": "The eventId of the run that answered it (its first event)."}}}}}}}}]}})"},
      {"TraceSummary", R"({
  "title": "TraceSummary", "type": "object",
  "required": ["traceId", "eventCount", "agents", "eventTypes", "startTime", "endTime", "duration", "errorCount", "toolCallCount", "handoffCount"],
  "properties": {
    "traceId": {"type": "string"}, "eventCount": {"type": "integer"},
    "agents": {"type": "array", "items": {"type": "string"}}, "eventTypes": {"type": "array", "items": {"type": "string"}},
    "startTime": {"type": "string", "format": "date-time"}, "endTime": {"type": "string", "format": "date-time"},
    "duration": {"type": "number", "description": "Milliseconds, endTime - startTime."},
    "errorCount": {"type": "integer"},
    "toolCallCount": {"type": "integer", "description": "Tool calls, each counted once: an agent.tool_call.start event, or one OTLP tool span (agent.tool_call.end, or agent.error when it failed)."},
    "handoffCount": {"type": "integer", "description": "agent.handoff events and OTLP hand-off spans."},
    "inputTokens": {"type": "integer"}, "outputTokens": {"type": "integer"},
    "totalTokens": {"type": "integer", "description": "inputTokens + outputTokens."},
    "cachedInputTokens": {"type": "integer", "description": "Of inputTokens, those read from the provider's prompt cache."},
    "reasoningTokens": {"type": "integer", "description": "Of outputTokens, those spent on reasoning."},
    "costUsd": {"type": "number", "description": "Sum of the events' cost_usd."},
    "sessionId": {"type": ["string", "null"], "description": "The session (conversation) of the trace: the first its events name."},
    "userId": {"type": ["string", "null"], "description": "The end user of the trace: the first its events name."},
    "name": {"type": ["string", "null"], "description": "The trace's name: a stated one (langfuse.trace.name, metadata.trace_name, ...), else the OTLP root span's name."}
 ,
    "tags": {"type": "object", "additionalProperties": {"type": "string"}, "description": "The trace's metadata.tags, key to value (the first value of a key; at most 20 keys)."},
    "inputPreview": {"type": ["string", "null"], "description": "One line (at most 160 characters) of the last user message of the trace's first LLM call's input."},
    "outputPreview": {"type": ["string", "null"], "description": "One line (at most 160 characters) of the trace's last LLM call's output."},
    "durationMs": {"type": "number", "description": "endTime - startTime: first start to last end of its events (an event ends at its timestamp + its duration)."}
  }})"},
      {"RegisterInput", R"({
  "title": "RegisterInput", "type": "object", "required": ["email", "username", "password"],
  "properties": {"email": {"type": "string", "format": "email"},
    "username": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{2,63}$",
      "description": "3 to 64 of a-z, 0-9, '_', '.', '-', starting alphanumeric; compared in lower case"},
    "password": {"type": "string", "minLength": 8, "maxLength": 1024, "description": "8 to 1024 bytes"},
    "first_name": {"type": "string", "maxLength": 120}, "last_name": {"type": "string", "maxLength": 120}}})"},
      {"LoginInput", R"({
  "title": "LoginInput", "type": "object", "required": ["password"],
  "anyOf": [{"required": ["login"]}, {"required": ["email"]}],
  "properties": {"login": {"type": "string", "minLength": 1, "maxLength": 254, "description": "E-mail or username."},
    "email": {"type": "string", "minLength": 1, "maxLength": 254, "description": "Read when login is absent."},
    "password": {"type": "string", "minLength": 1, "maxLength": 1024},
    "refresh_cookie": {"type": "boolean", "description": "Also set the console's HttpOnly refresh cookie."}}})"},
      {"RefreshInput", R"({
  "title": "RefreshInput", "type": "object",
  "description": "refresh_token is required unless the refresh cookie is sent (then the body may be absent).",
  "properties": {"refresh_token": {"type": "string", "minLength": 1, "maxLength": 512}}})"},
      {"TokenPair", R"({
  "title": "TokenPair", "type": "object", "required": ["access_token", "refresh_token", "token_type", "expires_in"],
  "properties": {"access_token": {"type": "string"}, "refresh_token": {"type": "string"},
    "token_type": {"type": "string", "enum": ["Bearer"]}, "expires_in": {"type": "integer", "description": "Seconds."}}})"},
      {"WhoAmI", R"({
  "title": "WhoAmI", "type": "object", "required": ["type", "orgId"],
  "properties": {"type": {"type": "string", "enum": ["user", "apikey"]}, "userId": {"type": "integer"},
    "email": {"type": "string"}, "instanceAdmin": {"type": "boolean"}, "role": {"type": "string"},
    "apiKeyId": {"type": "integer"}, "scopes": {"type": "array", "items": {"type": "string"}},
    "orgId": {"type": ["integer", "null"]}}})"},
  };
  return schemas;
}

}  // namespace aev::ops

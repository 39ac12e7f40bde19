#pragma once
// Each OTLP span becomes one event (docs/api.md#otlp-ingest). SpanEvent is independent of the store
// types: the ingest route turns it into a NewEvent, adding the channel, app, organization,
// receive time, API key and `source` ("otlp").
//
// The span's kind and its convention keys are read through one table, telemetry/conventions.h
// (docs/integrations.md): OTel GenAI (current and deprecated names), OpenInference,
// OpenLLMetry (traceloop.*), the Vercel AI SDK (ai.*) and Langfuse (langfuse.*).
//
// identifier    the span name
// agentId       the conventions' agent name (gen_ai.agent.name | agent.name); an agent span
//               without one: its graph.node.id (OpenInference's Agents bridge)
// eventType     agent.error when the span status is ERROR; else by the span's kind
//               (conventions::kindOf): LLM call → agent.message, tool → agent.tool_call.end,
//               agent → agent.end, hand-off → agent.handoff, anything else → custom. An
//               error wins over the kind so a failed tool call or agent run is seen by anyone
//               watching agent.error; the kind stays readable in metadata.semantic_kind and
//               the status in metadata.status.
// traceId, spanId, parentSpanId
//               lowercase hex. A span is rejected when its trace id is not 16 bytes or its
//               span id not 8 (absent and all-zero ids included), when a parent id is
//               present but not 8 bytes, or when its name is empty. An all-zero parent id
//               reads as "no parent" (some SDKs send one for root spans).
// occurredAtMicros
//               span start in microseconds since the epoch; absent when the span has no
//               start time (the caller falls back to the receive time).
// metadata      the span attributes as flat keys ("gen_ai.usage.input_tokens": 12), the
//               first exception event's exception.type / exception.message, then, only where
//               the span did not set the same key itself:
//                 "resource"      the resource attributes as an object
//                 "service.name"  from the resource
//                 "environment", "release"   by the table, from the span, else the resource
//                 "operation", "provider" (normalised), "finish_reason" (normalised),
//                 "session", "user", "trace_name", "error_type", "tool" (not on a hand-off)
//                                 by the table, from the span
//                 "tool_call_id"  by the table, from the span: the model's tool call it ran
//                                 (GET /traces/{id}/events links the two)
//                 "handoff_to"    a hand-off span's target
//                 "semantic_kind" the span's kind (llm, tool, agent, handoff, chain, ...)
//                 "error_message" a failed span's status message, else its exception message
//               (the short names are the analytics dimensions of docs/api.md#otlp-ingest), and always
//               the facts of the span itself, which override attributes of the same name:
//                 "duration_ms"  (end − start) / 1e6, when both times are set and end ≥ start
//                 "status"       "error" for status ERROR, "ok" for OK (absent when unset)
//               The message attributes (prompt and completion) are moved into
//               payload.messages on the publish path (telemetry/messages.h).
// payload       {"name", "kind": "internal"|"server"|"client"|"producer"|"consumer"|"unspecified",
//                "startTimeUnixNano", "endTimeUnixNano" (decimal strings: nanoseconds exceed
//                the 2^53 that JSON numbers keep exactly),
//                "status": {"code": "unset"|"ok"|"error", "message"?},
//                "scope": {"name", "version"}?,
//                "events": [{"name", "timeUnixNano", "attributes": {flat}}],
//                "links": <count>, "droppedAttributesCount"?: <n when > 0>}
#include <Poco/JSON/Object.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "otlp/span_metadata.h"
#include "otlp/trace_model.h"

namespace aev::otlp {

// An LLM span's model and usage by the table's convention rows (conventionsOnly), the key
// by which otlp/duplicate_spans.h matches two instrumentations' spans of one call.
struct CallUsage {
  std::optional<std::string> model;
  std::optional<double> inputTokens, outputTokens;
};

struct SpanEvent {
  std::string identifier;
  std::string payloadJson;   // condensed JSON object
  std::string metadataJson;  // condensed JSON object (empty with SpanTexts::Deferred)
  // With SpanTexts::Condensed: the metadata and the payload as objects, so the publish path
  // need not parse them again.
  Poco::JSON::Object::Ptr payload, metadata;
  // With SpanTexts::Deferred: the metadata as flat members over the decoded request (which
  // the caller keeps until the event is published) and `addedValues`, the values the mapping
  // added, shared by the batch's events (otlp/span_metadata.h).
  std::optional<telemetry::FlatMetadata> flatMetadata;
  std::shared_ptr<AddedValues> addedValues;
  std::optional<std::string> agentId;
  std::string eventType;
  std::string traceId;  // 32 lowercase hex digits
  std::string spanId;   // 16 lowercase hex digits
  std::string scopeName;  // the instrumentation scope's name, "" when unnamed (otlp/duplicate_spans.h)
  std::optional<std::string> parentSpanId;
  std::optional<std::int64_t> occurredAtMicros;
  bool isError = false;  // status ERROR (NewEvent.isError)
  // Read by the mapping, from the decoded attributes, when metadata.semantic_kind is "llm";
  // absent otherwise (markDuplicateLlmSpans then reads the metadata object).
  std::optional<CallUsage> llmUsage;
};

struct RejectedSpan {
  std::size_t spanIndex = 0;  // position among all spans of the request, from 0
  std::string reason;
};

struct SpanBatch {
  std::vector<SpanEvent> events;  // accepted spans, in request order
  std::vector<RejectedSpan> rejected;
  std::shared_ptr<AddedValues> addedValues;  // what the events' metadata holds besides the request

  // For ExportTracePartialSuccess.error_message: the count and the first few reasons;
  // empty when nothing was rejected.
  std::string rejectionMessage() const;
};

// Whether spanEvents writes each event's payloadJson and metadataJson (and builds both
// objects), or writes the payload's text only, straight from the span, and leaves the
// metadata flat over the request, for the publish path to write its text once it has moved
// the messages out of it (events::Submission::textsFromObjects, payloadInTextOrder): one
// writing per event, no tree unless moderation asks for one. Deferred events read the
// request until they are published: the caller keeps it.
enum class SpanTexts { Condensed, Deferred };

SpanBatch spanEvents(const TraceRequest& request, SpanTexts texts = SpanTexts::Condensed);
// The spans of one resource appended to `batch`; `index` is the first span's position among
// all spans of the request (for RejectedSpan::spanIndex), advanced past this resource's.
void appendSpanEvents(const ResourceSpans& resource, SpanTexts texts, std::size_t& index, SpanBatch& batch);

// The event type for a span whose only convention key is gen_ai.operation.name ("" when
// absent), and its status code.
std::string eventTypeForSpan(std::string_view operationName, int statusCode);

}  // namespace aev::otlp

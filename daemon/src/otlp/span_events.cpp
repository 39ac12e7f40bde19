#include "otlp/span_events.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <algorithm>

#include "common/encoding.h"
#include "common/json_condense.h"
#include "otlp/attribute_json.h"
#include "telemetry/conventions.h"

namespace aev::otlp {

namespace {

using Poco::JSON::Object;
using Kind = telemetry::conventions::Kind;
namespace conventions = telemetry::conventions;

constexpr std::size_t kTraceIdBytes = 16;
constexpr std::size_t kSpanIdBytes = 8;
// Enough reasons for a sender to see what is wrong without echoing a whole batch back.
constexpr std::size_t kReasonsInMessage = 3;

bool allZero(std::string_view bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](char c) { return c == 0; });
}

std::optional<std::string> idProblem(std::string_view id, std::size_t bytes, const char* name) {
  const std::string hexDigits = std::to_string(bytes * 2);
  if (id.empty()) return std::string(name) + " is missing";
  if (id.size() != bytes) return std::string(name) + " must be " + hexDigits + " hex digits";
  if (allZero(id)) return std::string(name) + " is all zeros";
  return std::nullopt;
}

// Why this span cannot become an event, or nullopt when it can.
std::optional<std::string> spanProblem(const Span& span) {
  if (!span.idProblem.empty()) return span.idProblem;
  if (auto p = idProblem(span.traceId, kTraceIdBytes, "traceId")) return p;
  if (auto p = idProblem(span.spanId, kSpanIdBytes, "spanId")) return p;
  if (!span.parentSpanId.empty() && span.parentSpanId.size() != kSpanIdBytes)
    return std::string("parentSpanId must be 16 hex digits");
  if (span.name.empty()) return std::string("name is empty");
  return std::nullopt;
}

const char* spanKindName(int kind) {
  switch (kind) {  // trace.v1.Span.SpanKind
    case 1: return "internal";
    case 2: return "server";
    case 3: return "client";
    case 4: return "producer";
    case 5: return "consumer";
    default: return "unspecified";
  }
}

// The agent a span belongs to: the conventions' agent name; an agent span without one is
// named by its graph node (OpenInference's Agents bridge).
// Names are strings: other attribute kinds name nothing.
std::optional<std::string> agentOf(const conventions::Lookup& attributes, Kind kind) {
  static const auto rows = conventions::rowsOf(conventions::Field::Agent);
  for (const auto& row : rows)
    if (auto name = attributeString(attributes, row.key)) return name;
  if (kind == Kind::Agent) return attributeString(attributes, "graph.node.id");
  return std::nullopt;
}

Object::Ptr payloadObject(const Span& span, const ScopeSpans& scope) {
  Object::Ptr payload = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
  payload->set("name", span.name);
  payload->set("kind", std::string(spanKindName(span.kind)));
  payload->set("startTimeUnixNano", std::to_string(span.startTimeUnixNano));
  payload->set("endTimeUnixNano", std::to_string(span.endTimeUnixNano));

  Object::Ptr status = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
  status->set("code", std::string(statusCodeName(span.statusCode)));
  if (!span.statusMessage.empty()) status->set("message", span.statusMessage);
  payload->set("status", status);

  if (!scope.scopeName.empty() || !scope.scopeVersion.empty()) {
    Object::Ptr scopeObject = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    scopeObject->set("name", scope.scopeName);
    scopeObject->set("version", scope.scopeVersion);
    payload->set("scope", scopeObject);
  }

  Poco::JSON::Array::Ptr events = new Poco::JSON::Array;
  for (const auto& e : span.events) {
    Object::Ptr event = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    event->set("name", e.name);
    event->set("timeUnixNano", std::to_string(e.timeUnixNano));
    event->set("attributes", attributeObject(e.attributes));
    events->add(event);
  }
  payload->set("events", events);
  payload->set("links", static_cast<Poco::UInt64>(span.linkCount));
  if (span.droppedAttributesCount > 0)
    payload->set("droppedAttributesCount", static_cast<Poco::UInt32>(span.droppedAttributesCount));
  return payload;
}

// payloadObject(span, scope) as condensed text, written straight from the span: byte for
// byte condensedJsonAnyOrder of that object (the same writers for every value), without
// building it (SpanTexts::Deferred: the publish path's hot loop).
std::string payloadText(const Span& span, const ScopeSpans& scope) {
  std::string out;
  out.reserve(192 + span.name.size() + span.statusMessage.size());
  out += "{\"name\":";
  appendPocoJsonString(out, span.name);
  out += ",\"kind\":\"";
  out += spanKindName(span.kind);
  out += "\",\"startTimeUnixNano\":\"";
  out += std::to_string(span.startTimeUnixNano);
  out += "\",\"endTimeUnixNano\":\"";
  out += std::to_string(span.endTimeUnixNano);
  out += "\",\"status\":{\"code\":\"";
  out += statusCodeName(span.statusCode);
  out += '"';
  if (!span.statusMessage.empty()) {
    out += ",\"message\":";
    appendPocoJsonString(out, span.statusMessage);
  }
  out += '}';
  if (!scope.scopeName.empty() || !scope.scopeVersion.empty()) {
    out += ",\"scope\":{\"name\":";
    appendPocoJsonString(out, scope.scopeName);
    out += ",\"version\":";
    appendPocoJsonString(out, scope.scopeVersion);
    out += '}';
  }
  out += ",\"events\":[";
  for (std::size_t i = 0; i < span.events.size(); ++i) {
    const auto& e = span.events[i];
    if (i) out += ',';
    out += "{\"name\":";
    appendPocoJsonString(out, e.name);
    out += ",\"timeUnixNano\":\"";
    out += std::to_string(e.timeUnixNano);
    out += "\",\"attributes\":";
    appendCondensedJson(out, attributeObject(e.attributes));  // keys in order: the sorted writer's bytes
    out += '}';
  }
  out += "],\"links\":";
  out += std::to_string(static_cast<Poco::UInt64>(span.linkCount));
  if (span.droppedAttributesCount > 0) {
    out += ",\"droppedAttributesCount\":";
    out += std::to_string(static_cast<Poco::UInt32>(span.droppedAttributesCount));
  }
  out += '}';
  return out;
}

// What the spans of one resource share.
struct ResourceContext {
  const std::vector<KeyValue>& attributes;
  const conventions::Lookup& lookup;  // resourceView(attributes)
  const AnyValue* value;              // the attributes as one kvlist value; null when there are none
  const std::shared_ptr<AddedValues>& added;
};

SpanEvent toEvent(const Span& span, const ScopeSpans& scope, const ResourceContext& resource, SpanTexts texts) {
  SpanEvent e;
  const conventions::Lookup attributes = attributeView(span);
  const Kind kind = conventions::kindOf(attributes, span.name);
  e.identifier = span.name;
  e.agentId = agentOf(attributes, kind);
  e.eventType = conventions::eventTypeFor(kind, span.statusCode == kStatusError);
  e.traceId = hexEncode(span.traceId);
  e.spanId = hexEncode(span.spanId);
  e.scopeName = scope.scopeName;
  if (!span.parentSpanId.empty() && !allZero(span.parentSpanId)) e.parentSpanId = hexEncode(span.parentSpanId);
  // Nanoseconds to microseconds: a uint64 of nanoseconds divided by 1000 always fits an int64.
  if (span.startTimeUnixNano != 0) e.occurredAtMicros = static_cast<std::int64_t>(span.startTimeUnixNano / 1000);
  auto metadata =
      spanMetadata(span, resource.attributes, resource.value, attributes, resource.lookup, kind, resource.added);
  // The duplicate-span check's key, from the attributes: the keys the metadata adds to them
  // (the short aliases, resource, service.name, exception.*) are the prefix of no model or
  // token row, so these are the readings of the metadata.
  if (metadata.optValue<std::string>("semantic_kind", "") == "llm")
    e.llmUsage = CallUsage{attributes.text(conventions::Field::Model, true),
                           attributes.number(conventions::Field::InputTokens, true),
                           attributes.number(conventions::Field::OutputTokens, true)};
  if (texts == SpanTexts::Condensed) {
    // The request may be gone once spanEvents returns: the metadata is made an object.
    e.metadata = metadata.toObject();
    e.payload = payloadObject(span, scope);
    e.metadataJson = condensedJsonAnyOrder(e.metadata);
    e.payloadJson = condensedJsonAnyOrder(e.payload);
  } else {
    e.flatMetadata.emplace(std::move(metadata));
    e.addedValues = resource.added;
    e.payloadJson = payloadText(span, scope);
  }
  e.isError = span.statusCode == kStatusError;
  return e;
}

}  // namespace

std::string eventTypeForSpan(std::string_view operationName, int statusCode) {
  Object::Ptr attributes = new Object;
  if (!operationName.empty()) attributes->set("gen_ai.operation.name", std::string(operationName));
  return conventions::eventTypeFor(conventions::kindOf(attributes, ""), statusCode == kStatusError);
}

void appendSpanEvents(const ResourceSpans& rs, SpanTexts texts, std::size_t& index, SpanBatch& batch) {
  if (!batch.addedValues) batch.addedValues = std::make_shared<AddedValues>();
  const conventions::Lookup resourceLookup = resourceView(rs.resourceAttributes);  // one for its spans
  const AnyValue* resourceValue = nullptr;  // metadata.resource, one value for its spans
  if (!rs.resourceAttributes.empty()) {
    AnyValue& value = batch.addedValues->emplace_back();
    value.kind = AnyValue::Kind::KvList;
    value.kvlist = rs.resourceAttributes;
    resourceValue = &value;
  }
  const ResourceContext resource{rs.resourceAttributes, resourceLookup, resourceValue, batch.addedValues};
  for (const auto& ss : rs.scopeSpans) {
    for (const auto& span : ss.spans) {
      if (auto problem = spanProblem(span))
        batch.rejected.push_back({index, std::move(*problem)});
      else
        batch.events.push_back(toEvent(span, ss, resource, texts));
      ++index;
    }
  }
}

SpanBatch spanEvents(const TraceRequest& request, SpanTexts texts) {
  SpanBatch batch;
  std::size_t index = 0;
  for (const auto& rs : request.resourceSpans) appendSpanEvents(rs, texts, index, batch);
  return batch;
}

std::string SpanBatch::rejectionMessage() const {
  if (rejected.empty()) return {};
  std::string out =
      std::to_string(rejected.size()) + (rejected.size() == 1 ? " span was" : " spans were") + " rejected: ";
  for (std::size_t i = 0; i < rejected.size() && i < kReasonsInMessage; ++i) {
    if (i > 0) out += "; ";
    out += "span " + std::to_string(rejected[i].spanIndex) + ": " + rejected[i].reason;
  }
  if (rejected.size() > kReasonsInMessage) out += "; ...";
  return out;
}

}  // namespace aev::otlp

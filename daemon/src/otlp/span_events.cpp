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

const char* statusName(int code) {
  switch (code) {
    case kStatusOk: return "ok";
    case kStatusError: return "error";
    default: return "unset";
  }
}

void setIfAbsent(Object& object, const std::string& key, const Poco::Dynamic::Var& value) {
  if (!object.has(key)) object.set(key, value);
}

// The first exception event's attribute `key` (exception.type / exception.message).
const AnyValue* exceptionAttribute(const Span& span, std::string_view key) {
  for (const auto& e : span.events)
    if (e.name == "exception")
      if (const AnyValue* v = findAttribute(e.attributes, key)) return v;
  return nullptr;
}

constexpr const char* kExceptionKeys[] = {"exception.type", "exception.message"};

Poco::Dynamic::Var attributeValue(const void* value) { return jsonValue(*static_cast<const AnyValue*>(value)); }

// The convention table's view of a span's metadata before its aliases: its attributes and
// the first exception event's exception.type / exception.message where the span has none
// (the keys metadataObject adds before it reads an alias; the resource and service.name are
// the prefix of no row it reads). Read from the decoded attributes: no object is built.
conventions::Lookup attributeView(const Span& span) {
  std::vector<conventions::FlatMember> members;
  members.reserve(span.attributes.size() + 2);
  for (const auto& kv : span.attributes) members.push_back({kv.key, &kv.value});
  if (!span.events.empty())
    for (const char* key : kExceptionKeys)
      if (!findAttribute(span.attributes, key))
        if (const AnyValue* v = exceptionAttribute(span, key)) members.push_back({key, v});
  return conventions::Lookup(std::move(members), attributeValue);
}

conventions::Lookup resourceView(const std::vector<KeyValue>& resource) {
  std::vector<conventions::FlatMember> members;
  members.reserve(resource.size());
  for (const auto& kv : resource) members.push_back({kv.key, &kv.value});
  return conventions::Lookup(std::move(members), attributeValue);
}

// A string attribute of the flat view, or none.
std::optional<std::string> attributeString(const conventions::Lookup& attributes, const char* key) {
  auto v = attributes.member(key);
  if (!v || !v->isString() || v->extract<std::string>().empty()) return std::nullopt;
  return v->extract<std::string>();
}

// The span's attributes as flat metadata keys, with the aliases of the header: every
// short name is read through the convention table (telemetry/conventions.h), so an
// OpenInference, OpenLLMetry, AI SDK or Langfuse span gets the same keys as a gen_ai one.
// The aliases are read from `lookup`, attributeView(span), as from the object: the keys this
// function adds (the short names) are the prefix of no convention row these aliases read, so
// what it finds is what a lookup in the object would find.
Object::Ptr metadataObject(const Span& span, const std::vector<KeyValue>& resource, const conventions::Lookup& lookup,
                           const conventions::Lookup& resourceLookup, Kind kind) {
  using conventions::Field;
  Object::Ptr metadata = attributeObject(span.attributes);
  if (!resource.empty()) setIfAbsent(*metadata, "resource", attributeObject(resource));
  if (const AnyValue* service = findAttribute(resource, "service.name"))
    setIfAbsent(*metadata, "service.name", jsonValue(*service));
  if (!span.events.empty())
    for (const char* key : kExceptionKeys)
      if (const AnyValue* v = exceptionAttribute(span, key)) setIfAbsent(*metadata, key, jsonValue(*v));
  // Resource-level fields: the span's own attribute first, then the resource's.
  for (const auto& [key, field] :
       {std::pair{"environment", Field::Environment}, std::pair{"release", Field::Release}}) {
    if (metadata->has(key)) continue;
    auto v = lookup.text(field, true);
    if (!v) v = resourceLookup.text(field, true);
    if (v) metadata->set(key, *v);
  }
  const std::pair<const char*, Field> aliases[] = {
      {"operation", Field::Operation},  {"provider", Field::Provider}, {"finish_reason", Field::FinishReason},
      {"session", Field::Session},      {"user", Field::EndUser},      {"trace_name", Field::TraceName},
      {"error_type", Field::ErrorType},
  };
  for (const auto& [key, field] : aliases)
    if (!metadata->has(key))
      if (auto v = lookup.text(field, true)) metadata->set(key, *v);
  if (kind != Kind::Handoff && !metadata->has("tool")) {
    auto tool = lookup.text(Field::Tool, true);
    // A tool span without a tool attribute is named after its tool (Langfuse observations,
    // OpenLLMetry's decorated tools).
    if (!tool && kind == Kind::Tool) {
      if (auto entity = attributeString(lookup, "traceloop.entity.name"))
        tool = entity;
      else if (!span.name.empty())
        tool = span.name.rfind("execute_tool ", 0) == 0 ? span.name.substr(13) : span.name;
    }
    if (tool) metadata->set("tool", *tool);
  }
  // The model's tool call this run answers (a hand-off made through a tool call has one too).
  if (!metadata->has("tool_call_id"))
    if (auto id = lookup.text(Field::ToolCallId, true)) metadata->set("tool_call_id", *id);
  if (kind == Kind::Handoff && !metadata->has("handoff_to"))
    if (auto v = conventions::handoffTarget(lookup, span.name)) metadata->set("handoff_to", *v);
  if (kind != Kind::Unknown) setIfAbsent(*metadata, "semantic_kind", std::string(conventions::kindName(kind)));
  if (span.statusCode == kStatusError && !metadata->has("error_message")) {
    auto message = span.statusMessage.empty() ? lookup.text(Field::ErrorMessage, true)
                                              : std::optional<std::string>(span.statusMessage);
    if (message) metadata->set("error_message", *message);
  }

  if (span.startTimeUnixNano != 0 && span.endTimeUnixNano >= span.startTimeUnixNano)
    metadata->set("duration_ms", static_cast<double>(span.endTimeUnixNano - span.startTimeUnixNano) / 1e6);
  if (span.statusCode == kStatusError || span.statusCode == kStatusOk)
    metadata->set("status", std::string(statusName(span.statusCode)));
  return metadata;
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
  status->set("code", std::string(statusName(span.statusCode)));
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
  out += statusName(span.statusCode);
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

SpanEvent toEvent(const Span& span, const ScopeSpans& scope, const std::vector<KeyValue>& resource,
                  const conventions::Lookup& resourceLookup, SpanTexts texts) {
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
  e.metadata = metadataObject(span, resource, attributes, resourceLookup, kind);
  // The duplicate-span check's key, from the attributes: the keys the metadata adds to them
  // (the short aliases, resource, service.name, exception.*) are the prefix of no model or
  // token row, so these are the readings of the object.
  if (e.metadata->optValue<std::string>("semantic_kind", "") == "llm")
    e.llmUsage = CallUsage{attributes.text(conventions::Field::Model, true),
                           attributes.number(conventions::Field::InputTokens, true),
                           attributes.number(conventions::Field::OutputTokens, true)};
  if (texts == SpanTexts::Condensed) {
    e.payload = payloadObject(span, scope);
    e.metadataJson = condensedJsonAnyOrder(e.metadata);
    e.payloadJson = condensedJsonAnyOrder(e.payload);
  } else {
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
  const conventions::Lookup resourceLookup = resourceView(rs.resourceAttributes);  // one for its spans
  for (const auto& ss : rs.scopeSpans) {
    for (const auto& span : ss.spans) {
      if (auto problem = spanProblem(span))
        batch.rejected.push_back({index, std::move(*problem)});
      else
        batch.events.push_back(toEvent(span, ss, rs.resourceAttributes, resourceLookup, texts));
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

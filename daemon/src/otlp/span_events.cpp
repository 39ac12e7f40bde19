#include "otlp/span_events.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Stringifier.h>

#include <algorithm>
#include <sstream>

#include "common/encoding.h"
#include "otlp/attribute_json.h"

namespace aev::otlp {

namespace {

using Poco::JSON::Object;

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

std::string stringify(const Poco::Dynamic::Var& value) {
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(value, out);
  return out.str();
}

const char* kindName(int kind) {
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

// A string attribute's text; other kinds do not name things.
std::optional<std::string> stringAttribute(const std::vector<KeyValue>& attributes, std::string_view key) {
  const AnyValue* v = findAttribute(attributes, key);
  if (v == nullptr || v->kind != AnyValue::Kind::String) return std::nullopt;
  return v->text;
}

void setIfAbsent(Object& object, const std::string& key, const Poco::Dynamic::Var& value) {
  if (!object.has(key)) object.set(key, value);
}

// Copies the first of `sources` found on the span, else on the resource, to `key`.
void alias(Object& metadata, const std::string& key, std::initializer_list<std::string_view> sources, const Span& span,
           const std::vector<KeyValue>& resource) {
  if (metadata.has(key)) return;
  for (const auto* attributes : {&span.attributes, &resource}) {
    for (auto source : sources) {
      if (const AnyValue* v = findAttribute(*attributes, source)) {
        metadata.set(key, jsonValue(*v));
        return;
      }
    }
  }
}

std::string metadataJson(const Span& span, const std::vector<KeyValue>& resource) {
  Object::Ptr metadata = attributeObject(span.attributes);
  if (!resource.empty()) setIfAbsent(*metadata, "resource", attributeObject(resource));
  if (const AnyValue* service = findAttribute(resource, "service.name"))
    setIfAbsent(*metadata, "service.name", jsonValue(*service));
  alias(*metadata, "environment", {"deployment.environment.name", "deployment.environment"}, span, resource);
  alias(*metadata, "release", {"service.version"}, span, resource);
  alias(*metadata, "operation", {"gen_ai.operation.name"}, span, resource);
  alias(*metadata, "tool", {"gen_ai.tool.name"}, span, resource);

  if (span.startTimeUnixNano != 0 && span.endTimeUnixNano >= span.startTimeUnixNano)
    metadata->set("duration_ms", static_cast<double>(span.endTimeUnixNano - span.startTimeUnixNano) / 1e6);
  if (span.statusCode == kStatusError || span.statusCode == kStatusOk)
    metadata->set("status", std::string(statusName(span.statusCode)));
  return stringify(metadata);
}

std::string payloadJson(const Span& span, const ScopeSpans& scope) {
  Object::Ptr payload = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
  payload->set("name", span.name);
  payload->set("kind", std::string(kindName(span.kind)));
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
  return stringify(payload);
}

SpanEvent toEvent(const Span& span, const ScopeSpans& scope, const std::vector<KeyValue>& resource) {
  SpanEvent e;
  e.identifier = span.name;
  e.agentId = stringAttribute(span.attributes, "gen_ai.agent.name");
  e.eventType =
      eventTypeForSpan(stringAttribute(span.attributes, "gen_ai.operation.name").value_or(""), span.statusCode);
  e.traceId = hexEncode(span.traceId);
  e.spanId = hexEncode(span.spanId);
  if (!span.parentSpanId.empty() && !allZero(span.parentSpanId)) e.parentSpanId = hexEncode(span.parentSpanId);
  // Nanoseconds to microseconds: a uint64 of nanoseconds divided by 1000 always fits an int64.
  if (span.startTimeUnixNano != 0) e.occurredAtMicros = static_cast<std::int64_t>(span.startTimeUnixNano / 1000);
  e.metadataJson = metadataJson(span, resource);
  e.payloadJson = payloadJson(span, scope);
  e.isError = span.statusCode == kStatusError;
  return e;
}

}  // namespace

std::string eventTypeForSpan(std::string_view operationName, int statusCode) {
  if (statusCode == kStatusError) return "agent.error";
  if (operationName == "execute_tool") return "agent.tool_call.end";
  if (operationName == "invoke_agent") return "agent.end";
  if (operationName == "chat" || operationName == "text_completion" || operationName == "generate_content")
    return "agent.message";
  if (operationName == "handoff") return "agent.handoff";
  return "custom";
}

SpanBatch spanEvents(const TraceRequest& request) {
  SpanBatch batch;
  std::size_t index = 0;
  for (const auto& rs : request.resourceSpans) {
    for (const auto& ss : rs.scopeSpans) {
      for (const auto& span : ss.spans) {
        if (auto problem = spanProblem(span))
          batch.rejected.push_back({index, std::move(*problem)});
        else
          batch.events.push_back(toEvent(span, ss, rs.resourceAttributes));
        ++index;
      }
    }
  }
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

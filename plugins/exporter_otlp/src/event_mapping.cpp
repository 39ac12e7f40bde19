#include "event_mapping.h"

#include <functional>

#include "time_and_ids.h"

namespace otlp {

namespace {

using aev::json::Value;

const Value& emptyObject() {
  static const Value v = Value::object();
  return v;
}

const Value& member(const Value& event, std::string_view key) {
  const Value* v = event.find(key);
  return v && v->isObject() ? *v : emptyObject();
}

std::string text(const Value* v) {
  if (!v) return {};
  auto t = v->scalarText();
  return t ? *t : std::string();
}

}  // namespace

const Value& metadataOf(const Value& event) { return member(event, "metadata"); }

// The first present metadata key (flat, then nested), as text.
std::string metadataText(const Value& metadata, std::initializer_list<std::string_view> keys) {
  for (auto k : keys) {
    const Value* v = metadata.find(k);
    if (!v && k.find('.') != std::string_view::npos) v = metadata.path(k);
    if (auto t = text(v); !t.empty()) return t;
  }
  return {};
}

std::string serviceOf(const Value& event, const MappingOptions& options) {
  auto s = metadataText(member(event, "metadata"), {"service", "service.name"});
  return s.empty() ? options.serviceName : s;
}

namespace {

// metadata → attributes: nested objects flatten to dotted keys ("usage.input_tokens"),
// scalars keep their type, arrays become array values.
void flatten(const Value& v, const std::string& prefix, std::vector<KeyValue>& out) {
  for (const auto& [k, child] : v.members()) {
    std::string key = prefix.empty() ? k : prefix + "." + k;
    if (child.isObject()) flatten(child, key, out);
    else if (!child.isNull()) out.push_back({key, toAnyValue(child)});
  }
}

bool hasKey(const std::vector<KeyValue>& attrs, std::string_view key) {
  for (const auto& kv : attrs)
    if (kv.key == key) return true;
  return false;
}

// The OTel GenAI operation of an event type (inverse of the ingest mapping, docs/features.md#telemetry-fields).
const char* operationOf(std::string_view eventType) {
  if (eventType == "agent.tool_call.end" || eventType == "agent.tool_call.start") return "execute_tool";
  if (eventType == "agent.end" || eventType == "agent.start") return "invoke_agent";
  if (eventType == "agent.message") return "chat";
  if (eventType == "agent.handoff") return "handoff";
  return nullptr;
}

}  // namespace

std::uint64_t eventTime(const Value& event) {
  for (const char* k : {"occurredAt", "timestamp"}) {
    if (const Value* v = event.find(k); v && v->isString())
      if (auto t = parseRfc3339(v->text())) return *t;
  }
  return 0;
}

bool isError(const Value& event, const Value& metadata) {
  return event.stringOr("eventType", "") == "agent.error" || metadataText(metadata, {"status"}) == "error";
}

namespace {

// Attributes shared by spans and log records.
std::vector<KeyValue> commonAttributes(const Value& event, const Value& metadata) {
  std::vector<KeyValue> attrs;
  flatten(metadata, "", attrs);
  auto add = [&](const char* key, const Value* v) {
    if (!v || v->isNull() || hasKey(attrs, key)) return;
    attrs.push_back({key, toAnyValue(*v)});
  };
  add("agent_events.event.id", event.find("id"));
  add("agent_events.event.type", event.find("eventType"));
  add("agent_events.identifier", event.find("identifier"));
  add("agent_events.channel_id", event.find("channelId"));
  add("agent_events.app_id", event.find("appId"));
  add("agent_events.org_id", event.find("orgId"));
  add("gen_ai.agent.name", event.find("agentId"));
  if (const char* op = operationOf(event.stringOr("eventType", "")); op && !hasKey(attrs, "gen_ai.operation.name"))
    attrs.push_back({"gen_ai.operation.name", AnyValue::string(op)});
  return attrs;
}

}  // namespace

ResourceBatch& batchFor(std::vector<ResourceBatch>& batches, std::vector<std::string>& names,
                        const std::string& service, const MappingOptions& options) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == service) return batches[i];
  names.push_back(service);
  ResourceBatch b;
  b.resource.push_back({"service.name", AnyValue::string(service)});
  for (const auto& kv : options.resourceAttributes)
    if (kv.key != "service.name") b.resource.push_back(kv);
  batches.push_back(std::move(b));
  return batches.back();
}

namespace {

std::string idSource(const Value& event, const char* key) {
  return text(event.find(key));
}

}  // namespace

void forEachEvent(const Value& events, const std::function<void(const Value&)>& fn) {
  if (!events.isArray()) return;
  for (const auto& e : events.items())
    if (e.isObject()) fn(e);
}

AnyValue toAnyValue(const Value& v) {
  switch (v.type()) {
    case Value::Type::String: return AnyValue::string(v.text());
    case Value::Type::Bool: return AnyValue::boolean(v.asBool());
    case Value::Type::Number: return v.isInteger() ? AnyValue::integer(v.asInt()) : AnyValue::real(v.asDouble());
    case Value::Type::Array: {
      AnyValue a;
      a.kind = AnyValue::Kind::Array;
      for (const auto& item : v.items()) a.array.push_back(toAnyValue(item));
      return a;
    }
    case Value::Type::Object: {
      AnyValue a;
      a.kind = AnyValue::Kind::KvList;
      for (const auto& [k, item] : v.members()) a.kvlist.push_back({k, toAnyValue(item)});
      return a;
    }
    case Value::Type::Null: break;
  }
  return AnyValue{};
}

std::vector<ResourceBatch> toSpans(const Value& events, const MappingOptions& options) {
  std::vector<ResourceBatch> batches;
  std::vector<std::string> names;
  forEachEvent(events, [&](const Value& event) {
    const Value& metadata = member(event, "metadata");
    Span span;
    std::string eventId = "agent-events-event-" + idSource(event, "id");
    auto traceText = idSource(event, "traceId");
    auto spanText = idSource(event, "spanId");
    // Every span needs ids: an event outside any trace becomes a trace of its own.
    span.traceId = idBytes(traceText.empty() ? eventId : traceText, 16);
    span.spanId = idBytes(spanText.empty() ? eventId : spanText, 8);
    if (auto parent = idSource(event, "parentSpanId"); !parent.empty()) span.parentSpanId = idBytes(parent, 8);
    span.name = event.stringOr("identifier", event.stringOr("eventType", "event"));
    span.startTimeUnixNano = eventTime(event);
    span.endTimeUnixNano = span.startTimeUnixNano;
    if (const Value* d = metadata.find("duration_ms"); d && d->isNumber() && d->asDouble() > 0)
      span.endTimeUnixNano += static_cast<std::uint64_t>(d->asDouble() * 1e6);
    span.attributes = commonAttributes(event, metadata);
    if (const Value* payload = event.find("payload"); payload && !payload->isNull())
      span.attributes.push_back({"agent_events.payload", AnyValue::string(payload->dump())});
    if (isError(event, metadata)) {
      span.statusCode = kStatusError;
      span.statusMessage = metadataText(metadata, {"error_type", "error.type"});
      if (span.statusMessage.empty()) span.statusMessage = text(member(event, "payload").find("message"));
    } else if (metadataText(metadata, {"status"}) == "ok") {
      span.statusCode = kStatusOk;
    }
    batchFor(batches, names, serviceOf(event, options), options).spans.push_back(std::move(span));
  });
  return batches;
}

std::vector<ResourceBatch> toLogs(const Value& events, const MappingOptions& options) {
  std::vector<ResourceBatch> batches;
  std::vector<std::string> names;
  forEachEvent(events, [&](const Value& event) {
    const Value& metadata = member(event, "metadata");
    LogRecord log;
    log.timeUnixNano = eventTime(event);
    log.observedTimeUnixNano = options.nowUnixNano ? options.nowUnixNano : log.timeUnixNano;
    bool error = isError(event, metadata);
    log.severityNumber = error ? kSeverityError : kSeverityInfo;
    log.severityText = error ? "ERROR" : "INFO";
    if (const Value* payload = event.find("payload")) log.body = toAnyValue(*payload);
    log.attributes = commonAttributes(event, metadata);
    if (auto traceText = idSource(event, "traceId"); !traceText.empty()) {
      log.traceId = idBytes(traceText, 16);
      if (auto spanText = idSource(event, "spanId"); !spanText.empty()) log.spanId = idBytes(spanText, 8);
    }
    log.eventName = event.stringOr("eventType", "");
    batchFor(batches, names, serviceOf(event, options), options).logs.push_back(std::move(log));
  });
  return batches;
}

}  // namespace otlp

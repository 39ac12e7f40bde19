#include "otlp/span_metadata.h"

#include <algorithm>

#include "common/last_of_each_key.h"
#include "otlp/attribute_json.h"

namespace aev::otlp {

namespace {

namespace conventions = telemetry::conventions;
using conventions::FlatMember;
using Kind = conventions::Kind;

// The first exception event's attribute `key` (exception.type / exception.message).
const AnyValue* exceptionAttribute(const Span& span, std::string_view key) {
  for (const auto& e : span.events)
    if (e.name == "exception")
      if (const AnyValue* v = findAttribute(e.attributes, key)) return v;
  return nullptr;
}

constexpr const char* kExceptionKeys[] = {"exception.type", "exception.message"};

Poco::Dynamic::Var attributeValue(const void* value) { return jsonValue(*static_cast<const AnyValue*>(value)); }

void appendAttributeJson(std::string& out, const void* value) {
  appendJsonValue(out, *static_cast<const AnyValue*>(value));
}

const std::string* stringValue(const void* value) {
  const auto& v = *static_cast<const AnyValue*>(value);
  return v.kind == AnyValue::Kind::String ? &v.text : nullptr;  // jsonValue's std::string of the same text
}

constexpr telemetry::FlatValueReader kReader{attributeValue, appendAttributeJson, stringValue};

AnyValue textValue(std::string text) {
  AnyValue v;
  v.kind = AnyValue::Kind::String;
  v.text = std::move(text);
  return v;
}

// The metadata being made, member by member as Object::set and has() would make it: the
// attributes in key order (of equal keys the last, as set() replaces a value), then the
// added keys, merged into that order at the end.
class Members {
 public:
  Members(const std::vector<KeyValue>& attributes, AddedValues& added) : added_(added) {
    members_.reserve(attributes.size() + 16);
    for (const auto& kv : attributes) members_.push_back({kv.key, &kv.value});
    sortKeepingLastOfEachKey(members_);
    sorted_ = members_.size();
  }

  bool has(std::string_view key) { return find(key) != nullptr; }
  void set(std::string_view key, const AnyValue* value) {
    if (FlatMember* m = find(key))
      m->value = value;
    else
      members_.push_back({key, value});
  }
  void setIfAbsent(std::string_view key, const AnyValue* value) {
    if (!has(key)) set(key, value);
  }
  void setText(std::string_view key, std::string text) { set(key, &added_.emplace_back(textValue(std::move(text)))); }
  void setNumber(std::string_view key, double number) {
    AnyValue v;
    v.kind = AnyValue::Kind::Double;
    v.real = number;
    set(key, &added_.emplace_back(std::move(v)));
  }

  std::vector<FlatMember> finish() {
    const auto byKey = [](const FlatMember& a, const FlatMember& b) { return a.key < b.key; };
    const auto middle = members_.begin() + static_cast<std::ptrdiff_t>(sorted_);
    std::sort(middle, members_.end(), byKey);  // the added keys are distinct
    std::inplace_merge(members_.begin(), middle, members_.end(), byKey);
    return std::move(members_);
  }

 private:
  FlatMember* find(std::string_view key) {
    const auto end = members_.begin() + static_cast<std::ptrdiff_t>(sorted_);
    const auto it =
        std::lower_bound(members_.begin(), end, key, [](const FlatMember& m, std::string_view k) { return m.key < k; });
    if (it != end && it->key == key) return &*it;
    for (auto added = end; added != members_.end(); ++added)
      if (added->key == key) return &*added;
    return nullptr;
  }

  std::vector<FlatMember> members_;
  std::size_t sorted_ = 0;  // members_[0, sorted_) are the attributes, in key order
  AddedValues& added_;
};

}  // namespace

conventions::Lookup attributeView(const Span& span) {
  std::vector<FlatMember> members;
  members.reserve(span.attributes.size() + 2);
  for (const auto& kv : span.attributes) members.push_back({kv.key, &kv.value});
  if (!span.events.empty())
    for (const char* key : kExceptionKeys)
      if (!findAttribute(span.attributes, key))
        if (const AnyValue* v = exceptionAttribute(span, key)) members.push_back({key, v});
  return conventions::Lookup(std::move(members), attributeValue);
}

conventions::Lookup resourceView(const std::vector<KeyValue>& resource) {
  std::vector<FlatMember> members;
  members.reserve(resource.size());
  for (const auto& kv : resource) members.push_back({kv.key, &kv.value});
  return conventions::Lookup(std::move(members), attributeValue);
}

std::optional<std::string> attributeString(const conventions::Lookup& attributes, const char* key) {
  auto v = attributes.member(key);
  if (!v || !v->isString() || v->extract<std::string>().empty()) return std::nullopt;
  return v->extract<std::string>();
}

// Every short name is read through the convention table (telemetry/conventions.h), so an
// OpenInference, OpenLLMetry, AI SDK or Langfuse span gets the same keys as a gen_ai one.
// The aliases are read from `lookup`, attributeView(span), as from the metadata: the keys this
// function adds (the short names) are the prefix of no convention row these aliases read, so
// what it finds is what a lookup in the metadata would find.
telemetry::FlatMetadata spanMetadata(const Span& span, const std::vector<KeyValue>& resource,
                                     const AnyValue* resourceValue, const conventions::Lookup& lookup,
                                     const conventions::Lookup& resourceLookup, Kind kind,
                                     const std::shared_ptr<AddedValues>& added) {
  using conventions::Field;
  Members metadata(span.attributes, *added);
  if (resourceValue) metadata.setIfAbsent("resource", resourceValue);
  if (const AnyValue* service = findAttribute(resource, "service.name")) metadata.setIfAbsent("service.name", service);
  if (!span.events.empty())
    for (const char* key : kExceptionKeys)
      if (const AnyValue* v = exceptionAttribute(span, key)) metadata.setIfAbsent(key, v);
  // Resource-level fields: the span's own attribute first, then the resource's.
  for (const auto& [key, field] :
       {std::pair{"environment", Field::Environment}, std::pair{"release", Field::Release}}) {
    if (metadata.has(key)) continue;
    auto v = lookup.text(field, true);
    if (!v) v = resourceLookup.text(field, true);
    if (v) metadata.setText(key, std::move(*v));
  }
  const std::pair<const char*, Field> aliases[] = {
      {"operation", Field::Operation},  {"provider", Field::Provider}, {"finish_reason", Field::FinishReason},
      {"session", Field::Session},      {"user", Field::EndUser},      {"trace_name", Field::TraceName},
      {"error_type", Field::ErrorType},
  };
  for (const auto& [key, field] : aliases)
    if (!metadata.has(key))
      if (auto v = lookup.text(field, true)) metadata.setText(key, std::move(*v));
  if (kind != Kind::Handoff && !metadata.has("tool")) {
    auto tool = lookup.text(Field::Tool, true);
    // A tool span without a tool attribute is named after its tool (Langfuse observations,
    // OpenLLMetry's decorated tools).
    if (!tool && kind == Kind::Tool) {
      if (auto entity = attributeString(lookup, "traceloop.entity.name"))
        tool = entity;
      else if (!span.name.empty())
        tool = span.name.rfind("execute_tool ", 0) == 0 ? span.name.substr(13) : span.name;
    }
    if (tool) metadata.setText("tool", std::move(*tool));
  }
  // The model's tool call this run answers (a hand-off made through a tool call has one too).
  if (!metadata.has("tool_call_id"))
    if (auto id = lookup.text(Field::ToolCallId, true)) metadata.setText("tool_call_id", std::move(*id));
  if (kind == Kind::Handoff && !metadata.has("handoff_to"))
    if (auto v = conventions::handoffTarget(lookup, span.name)) metadata.setText("handoff_to", std::move(*v));
  if (kind != Kind::Unknown && !metadata.has("semantic_kind"))
    metadata.setText("semantic_kind", std::string(conventions::kindName(kind)));
  if (span.statusCode == kStatusError && !metadata.has("error_message")) {
    auto message = span.statusMessage.empty() ? lookup.text(Field::ErrorMessage, true)
                                              : std::optional<std::string>(span.statusMessage);
    if (message) metadata.setText("error_message", std::move(*message));
  }

  if (span.startTimeUnixNano != 0 && span.endTimeUnixNano >= span.startTimeUnixNano)
    metadata.setNumber("duration_ms", static_cast<double>(span.endTimeUnixNano - span.startTimeUnixNano) / 1e6);
  if (span.statusCode == kStatusError || span.statusCode == kStatusOk)
    metadata.setText("status", statusCodeName(span.statusCode));
  return telemetry::FlatMetadata(metadata.finish(), kReader, added);
}

void setText(telemetry::FlatMetadata& metadata, std::string_view key, std::string value, AddedValues& added) {
  metadata.set(key, &added.emplace_back(textValue(std::move(value))));
}

}  // namespace aev::otlp

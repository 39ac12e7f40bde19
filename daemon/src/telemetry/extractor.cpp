#include "telemetry/extractor.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include "common/json_condense.h"
#include "common/text.h"
#include "telemetry/conventions.h"
#include "telemetry/messages.h"

namespace aev::telemetry {

namespace {

using conventions::Field;
using Poco::Dynamic::Var;
using Poco::JSON::Object;

// A scalar as key text; objects, null and empty strings give none; an array gives its
// first element's text (gen_ai.response.finish_reasons is an array).
std::optional<std::string> keyText(const std::optional<Var>& v) {
  if (!v || v->isEmpty()) return std::nullopt;
  if (v->type() == typeid(Poco::JSON::Array::Ptr)) {
    auto array = v->extract<Poco::JSON::Array::Ptr>();
    if (!array || array->size() == 0) return std::nullopt;
    return keyText(array->get(0));
  }
  if (v->type() == typeid(Object::Ptr)) return std::nullopt;
  if (v->isBoolean()) return std::string(v->extract<bool>() ? "true" : "false");
  std::string text = v->convert<std::string>();
  if (text.empty()) return std::nullopt;
  return text;
}

std::optional<std::int64_t> tokens(const conventions::Lookup& metadata, Field field) {
  auto d = metadata.number(field);
  if (!d || *d > 9e15) return std::nullopt;
  return static_cast<std::int64_t>(std::floor(*d));
}

// metadata.tags: an object of custom attributes (scalars), checked and kept in `out`.
std::vector<FieldError> customAttributes(const conventions::Lookup& metadata, const std::string& location,
                                         std::vector<std::pair<std::string, std::string>>& out) {
  std::vector<FieldError> problems;
  const auto tags = metadata.member("tags");
  if (!tags || tags->isEmpty()) return problems;
  const std::string where = location + ".metadata.tags";
  if (tags->type() != typeid(Object::Ptr)) {
    problems.push_back({where, "must be an object of custom attributes", ""});
    return problems;
  }
  const auto object = tags->extract<Object::Ptr>();
  if (object->size() > kMaxAttributes) {
    problems.push_back({where, "has more than " + std::to_string(kMaxAttributes) + " attributes", ""});
    return problems;
  }
  for (const auto& [key, value] : *object) {
    if (key.empty() || utf8Length(key) > kMaxAttributeKey) {
      problems.push_back({where, "attribute keys are 1.." + std::to_string(kMaxAttributeKey) + " characters", key});
      continue;
    }
    // Scalars are attributes; null means "not set"; nested values are not groupable.
    if (value.isEmpty()) continue;
    if (value.type() == typeid(Object::Ptr) || value.type() == typeid(Poco::JSON::Array::Ptr)) {
      problems.push_back({where + "." + key, "must be a string, number or boolean", ""});
      continue;
    }
    auto text = keyText(std::optional<Var>(std::in_place, value)).value_or("");
    if (utf8Length(text) > kMaxAttributeValue) {
      problems.push_back(
          {where + "." + key, "is longer than " + std::to_string(kMaxAttributeValue) + " characters", ""});
      continue;
    }
    out.emplace_back(key, std::move(text));
  }
  return problems;
}

std::string condensedObject(const Object::Ptr& object) { return condensedJsonAnyOrder(object); }

// The span payload's members never include "messages": appended last, where set() puts a new key.
void appendMessagesMember(std::string& payloadJson, const MessageLists& messages) {
  payloadJson.pop_back();
  if (payloadJson.size() > 1) payloadJson += ',';
  payloadJson += "\"messages\":";
  messages.appendJson(payloadJson);
  payloadJson += '}';
}

bool appendsToText(const store::NewEvent& e) { return e.payloadJson.size() >= 2 && e.payloadJson.back() == '}'; }

}  // namespace

bool Extractor::carriesMessages(const store::NewEvent& e, const Poco::JSON::Object::Ptr& metadata) {
  return telemetry::carriesMessages(metadata, e.eventType.value_or(""), e.identifier);
}

bool Extractor::carriesMessages(const store::NewEvent& e, const FlatMetadata& metadata) {
  return telemetry::carriesMessages(metadata, e.eventType.value_or(""), e.identifier);
}

bool Extractor::normalizeMessages(store::NewEvent& e, const Poco::JSON::Object::Ptr& payload,
                                  const Poco::JSON::Object::Ptr& metadata) const {
  if (!payload || !metadata) return false;
  // A const Ptr& gives only a const object; the objects themselves are the caller's to change.
  Poco::JSON::Object::Ptr writableMetadata = metadata, writablePayload = payload;
  auto messages = takeMessages(*writableMetadata, maxMessageChars_);
  if (!messages) return false;
  writablePayload->set("messages", messages->toObject());
  e.payloadJson = condensedObject(payload);
  e.metadataJson = condensedObject(metadata);
  return true;
}

std::optional<MessageLists> Extractor::normalizeMessagesIntoText(store::NewEvent& e,
                                                                 const Poco::JSON::Object::Ptr& metadata) const {
  if (!metadata || !appendsToText(e)) return std::nullopt;
  Poco::JSON::Object::Ptr writableMetadata = metadata;
  auto messages = takeMessages(*writableMetadata, maxMessageChars_);
  if (!messages) return std::nullopt;
  appendMessagesMember(e.payloadJson, *messages);
  // A span's metadata is attribute objects only (otlp/attribute_json.h: keys in order, no
  // insertion-ordered object): the sorted writer gives condensedJsonAnyOrder's bytes
  // without learning each object's order (a copy of every key).
  e.metadataJson = condensedJson(metadata);
  return messages;
}

std::optional<MessageLists> Extractor::normalizeMessagesIntoText(store::NewEvent& e, FlatMetadata& metadata) const {
  if (!appendsToText(e)) return std::nullopt;
  auto messages = takeMessages(metadata, maxMessageChars_);
  if (!messages) return std::nullopt;
  appendMessagesMember(e.payloadJson, *messages);
  e.metadataJson = metadata.text();
  return messages;
}

bool Extractor::readsPayload(const store::NewEvent& e) {
  return e.eventType && e.eventType->rfind("agent.tool_call.", 0) == 0;
}

std::vector<FieldError> Extractor::apply(store::NewEvent& e, const Poco::JSON::Object::Ptr& payload,
                                         const Poco::JSON::Object::Ptr& metadata, const std::string& location) const {
  return applyWith(e, payload, nullptr, conventions::Lookup(metadata), location);
}

std::vector<FieldError> Extractor::apply(store::NewEvent& e, const MessageLists& messages,
                                         const Poco::JSON::Object::Ptr& metadata, const std::string& location) const {
  return applyWith(e, nullptr, &messages, conventions::Lookup(metadata), location);
}

std::vector<FieldError> Extractor::apply(store::NewEvent& e, const Poco::JSON::Object::Ptr& payload,
                                         const FlatMetadata& metadata, const std::string& location) const {
  return applyWith(e, payload, nullptr, metadata.lookup(), location);
}

std::vector<FieldError> Extractor::apply(store::NewEvent& e, const MessageLists& messages, const FlatMetadata& metadata,
                                         const std::string& location) const {
  return applyWith(e, nullptr, &messages, metadata.lookup(), location);
}

std::vector<FieldError> Extractor::applyWith(store::NewEvent& e, const Poco::JSON::Object::Ptr& payload,
                                             const MessageLists* messages, const conventions::Lookup& lookup,
                                             const std::string& location) const {
  const auto text = [&lookup](Field f) { return lookup.text(f); };
  auto& t = e.telemetry;
  const std::string eventType = e.eventType.value_or("");
  t.model = text(Field::Model);
  t.provider = text(Field::Provider);
  t.endUser = text(Field::EndUser);
  t.session = text(Field::Session);
  t.traceName = text(Field::TraceName);
  t.agent = e.agentId && !e.agentId->empty() ? e.agentId : text(Field::Agent);
  t.semanticKind = text(Field::SemanticKind);
  t.tool = text(Field::Tool);
  if (t.tool && t.semanticKind == "handoff") t.tool.reset();  // a hand-off is not a tool
  if (!t.tool && readsPayload(e) && payload) {
    for (const char* k : {"tool", "name"})
      if (payload->has(k) && (t.tool = keyText(payload->get(k)))) break;
  }
  // A tool the model asked for (its output's tool calls) is the LLM call's tool when the
  // event names none; a hand-off names no tool.
  if (!t.tool && (messages || (payload && payload->has("messages"))) && t.semanticKind != "handoff")
    t.tool = messages ? messages->requestedTool() : requestedTool(payload->getObject("messages"));
  t.finishReason = text(Field::FinishReason);
  t.service = text(Field::Service);
  t.operation = text(Field::Operation);
  if (!t.operation && e.source == "otlp" && !e.identifier.empty()) t.operation = e.identifier;
  t.errorType = text(Field::ErrorType);
  t.environment = text(Field::Environment);
  t.release = text(Field::Release);
  t.status = eventType == "agent.error" ? std::optional<std::string>("error") : text(Field::Status);
  if (!t.status && keyText(lookup.at("langfuse.observation.level")) == "ERROR") t.status = "error";
  if (!t.status) t.status = "ok";
  e.isError = *t.status == "error";

  t.inputTokens = tokens(lookup, Field::InputTokens);
  t.outputTokens = tokens(lookup, Field::OutputTokens);
  t.cachedInputTokens = tokens(lookup, Field::CachedTokens);
  t.reasoningTokens = tokens(lookup, Field::ReasoningTokens);
  if (t.inputTokens || t.outputTokens) {
    // A total without one side gives that side; a total is never added on top.
    if (auto total = tokens(lookup, Field::TotalTokens)) {
      if (!t.outputTokens && *total >= *t.inputTokens) t.outputTokens = *total - *t.inputTokens;
      if (!t.inputTokens && *total >= *t.outputTokens) t.inputTokens = *total - *t.outputTokens;
    }
    // Agent and chain spans of some conventions repeat their children's usage: counted
    // once, on the LLM calls. An agent-events `usage` object always counts.
    if (!lookup.at("usage") && !conventions::ownsUsage(conventions::kindOf(lookup, e.identifier))) {
      t.inputTokens.reset();
      t.outputTokens.reset();
      t.cachedInputTokens.reset();
      t.reasoningTokens.reset();
    }
  }
  // A second instrumentation's span of the same LLM call (otlp/duplicate_spans.h) keeps its
  // event but counts no usage: the first span counted it.
  const bool duplicate = lookup.member("duplicate_of").has_value();
  if (duplicate) {
    t.inputTokens.reset();
    t.outputTokens.reset();
    t.cachedInputTokens.reset();
    t.reasoningTokens.reset();
  }
  t.durationMs = lookup.number(Field::DurationMs);
  t.costUsd = duplicate ? std::nullopt : lookup.number(Field::CostUsd);
  if (!t.costUsd && !duplicate && t.model && (t.inputTokens || t.outputTokens))
    t.costUsd =
        prices_.cost(*t.model, t.inputTokens.value_or(0), t.outputTokens.value_or(0), t.cachedInputTokens.value_or(0));

  t.attributes.clear();
  auto problems = customAttributes(lookup, location, t.attributes);
  // Tag lists of the conventions (Langfuse, OpenInference, AI SDK) are labels: each is an
  // attribute "<tag>" = "true", so the tag filter finds them; what does not fit is dropped
  // (a span's sender cannot correct it).
  for (auto& tag : lookup.textList(Field::Tags)) {
    if (t.attributes.size() >= kMaxAttributes || utf8Length(tag) > kMaxAttributeKey) continue;
    const bool known =
        std::any_of(t.attributes.begin(), t.attributes.end(), [&](const auto& a) { return a.first == tag; });
    if (!known) t.attributes.emplace_back(std::move(tag), "true");
  }
  return problems;
}

}  // namespace aev::telemetry

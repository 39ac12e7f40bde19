#include "telemetry/extractor.h"

#include <cmath>
#include <initializer_list>

#include "common/text.h"

namespace aev::telemetry {

namespace {

using Poco::Dynamic::Var;
using Poco::JSON::Object;

// A metadata key: the flat key first, then the dotted path through nested objects.
std::optional<Var> lookup(const Object::Ptr& metadata, const std::string& key) {
  if (!metadata) return std::nullopt;
  if (metadata->has(key)) return metadata->get(key);
  Object::Ptr node = metadata;
  std::size_t start = 0;
  for (;;) {
    const auto dot = key.find('.', start);
    if (dot == std::string::npos) {
      const std::string last = key.substr(start);
      if (start == 0 || !node->has(last)) return std::nullopt;
      return node->get(last);
    }
    node = node->getObject(key.substr(start, dot - start));
    if (!node) return std::nullopt;
    start = dot + 1;
  }
}

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

std::optional<std::string> firstText(const Object::Ptr& metadata, std::initializer_list<const char*> keys) {
  if (!metadata) return std::nullopt;  // most events: no key strings built at all
  for (const char* k : keys)
    if (auto t = keyText(lookup(metadata, k))) return t;
  return std::nullopt;
}

std::optional<double> number(const std::optional<Var>& v) {
  if (!v || v->isEmpty() || v->isBoolean()) return std::nullopt;
  try {
    if (v->isNumeric()) return v->convert<double>();
    if (v->isString()) {
      const auto s = v->extract<std::string>();
      std::size_t used = 0;
      const double d = std::stod(s, &used);
      if (used == s.size()) return d;
    }
  } catch (...) {
  }
  return std::nullopt;
}

std::optional<double> firstNumber(const Object::Ptr& metadata, std::initializer_list<const char*> keys) {
  if (!metadata) return std::nullopt;
  for (const char* k : keys)
    if (auto d = number(lookup(metadata, k)); d && std::isfinite(*d) && *d >= 0) return d;
  return std::nullopt;
}

std::optional<std::int64_t> tokens(const Object::Ptr& metadata, std::initializer_list<const char*> keys) {
  auto d = firstNumber(metadata, keys);
  if (!d || *d > 9e15) return std::nullopt;
  return static_cast<std::int64_t>(std::floor(*d));
}

}  // namespace

bool Extractor::readsPayload(const store::NewEvent& e) {
  return e.eventType && e.eventType->rfind("agent.tool_call.", 0) == 0;
}

std::vector<FieldError> Extractor::apply(store::NewEvent& e, const Poco::JSON::Object::Ptr& payload,
                                         const Poco::JSON::Object::Ptr& metadata, const std::string& location) const {
  auto& t = e.telemetry;
  const std::string eventType = e.eventType.value_or("");
  t.model = firstText(metadata, {"model", "gen_ai.request.model", "gen_ai.response.model"});
  t.provider = firstText(metadata, {"provider", "gen_ai.system", "gen_ai.provider.name"});
  t.endUser = firstText(metadata, {"user", "enduser.id", "user.id"});
  t.agent = e.agentId && !e.agentId->empty() ? e.agentId : firstText(metadata, {"gen_ai.agent.name"});
  t.tool = firstText(metadata, {"tool", "gen_ai.tool.name"});
  if (!t.tool && readsPayload(e) && payload) {
    for (const char* k : {"tool", "name"})
      if (payload->has(k) && (t.tool = keyText(payload->get(k)))) break;
  }
  t.finishReason = firstText(metadata, {"finish_reason", "gen_ai.response.finish_reasons"});
  t.semanticKind = firstText(metadata, {"semantic_kind"});
  t.service = firstText(metadata, {"service", "service.name"});
  t.operation = firstText(metadata, {"operation", "gen_ai.operation.name"});
  if (!t.operation && e.source == "otlp" && !e.identifier.empty()) t.operation = e.identifier;
  t.errorType = firstText(metadata, {"error_type", "error.type"});
  t.environment = firstText(metadata, {"environment", "deployment.environment.name", "deployment.environment"});
  t.release = firstText(metadata, {"release", "service.version"});
  t.status = eventType == "agent.error" ? std::optional<std::string>("error") : firstText(metadata, {"status"});
  if (!t.status) t.status = "ok";
  e.isError = *t.status == "error";

  t.inputTokens = tokens(metadata, {"usage.input_tokens", "gen_ai.usage.input_tokens"});
  t.outputTokens = tokens(metadata, {"usage.output_tokens", "gen_ai.usage.output_tokens"});
  t.durationMs = firstNumber(metadata, {"duration_ms"});
  t.costUsd = firstNumber(metadata, {"cost_usd"});
  if (!t.costUsd && t.model && (t.inputTokens || t.outputTokens))
    t.costUsd = prices_.cost(*t.model, t.inputTokens.value_or(0), t.outputTokens.value_or(0));

  std::vector<FieldError> problems;
  t.attributes.clear();
  const auto tags = metadata && metadata->has("tags") ? std::optional<Var>(metadata->get("tags")) : std::nullopt;
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
    t.attributes.emplace_back(key, std::move(text));
  }
  return problems;
}

}  // namespace aev::telemetry

#include "telemetry/conventions.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <agentevents/genai_values.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "common/last_of_each_key.h"

namespace aev::telemetry::conventions {

namespace {

using Poco::Dynamic::Var;
using Poco::JSON::Array;
using Poco::JSON::Object;
using C = Convention;
using F = Field;
using R = Read;

// The table. Sources: the conventions' own registries (OTel GenAI semantic conventions,
// OpenInference semantic_conventions.md, OpenLLMetry SemanticAttributes, the AI SDK telemetry
// docs, the Langfuse SDK attribute constants); docs/integrations.md lists them.
const std::vector<Row> kConventionTable = {
    // model: the requested model first, the response model when no request model is sent.
    {F::Model, C::AgentEvents, "model"},
    {F::Model, C::Langfuse, "langfuse.observation.model.name"},
    {F::Model, C::GenAi, "gen_ai.request.model"},
    {F::Model, C::OpenInference, "llm.request.model_name"},
    {F::Model, C::OpenInference, "llm.model_name"},
    {F::Model, C::OpenInference, "embedding.model_name"},
    {F::Model, C::AiSdk, "ai.model.id"},
    {F::Model, C::GenAi, "gen_ai.response.model"},
    {F::Model, C::OpenInference, "llm.response.model_name"},
    {F::Model, C::AiSdk, "ai.response.model"},

    {F::Provider, C::AgentEvents, "provider"},
    {F::Provider, C::GenAi, "gen_ai.provider.name"},
    {F::Provider, C::OpenInference, "llm.provider"},
    {F::Provider, C::OpenInference, "llm.system"},
    {F::Provider, C::AiSdk, "ai.model.provider", R::ProviderId},
    {F::Provider, C::GenAiDeprecated, "gen_ai.system", R::ProviderId},

    {F::InputTokens, C::AgentEvents, "usage.input_tokens", R::Number},
    {F::InputTokens, C::Langfuse, "langfuse.observation.usage_details", R::JsonSum, "input"},
    {F::InputTokens, C::Langfuse, "langfuse.observation.usage_details", R::JsonMember, "promptTokens"},
    {F::InputTokens, C::GenAi, "gen_ai.usage.input_tokens", R::Number},
    {F::InputTokens, C::OpenInference, "llm.token_count.prompt", R::Number},
    {F::InputTokens, C::AiSdk, "ai.usage.inputTokens", R::Number},
    {F::InputTokens, C::AiSdk, "ai.usage.promptTokens", R::Number},
    {F::InputTokens, C::GenAiDeprecated, "gen_ai.usage.prompt_tokens", R::Number},

    {F::OutputTokens, C::AgentEvents, "usage.output_tokens", R::Number},
    {F::OutputTokens, C::Langfuse, "langfuse.observation.usage_details", R::JsonSum, "output"},
    {F::OutputTokens, C::Langfuse, "langfuse.observation.usage_details", R::JsonMember, "completionTokens"},
    {F::OutputTokens, C::GenAi, "gen_ai.usage.output_tokens", R::Number},
    {F::OutputTokens, C::OpenInference, "llm.token_count.completion", R::Number},
    {F::OutputTokens, C::AiSdk, "ai.usage.outputTokens", R::Number},
    {F::OutputTokens, C::AiSdk, "ai.usage.completionTokens", R::Number},
    {F::OutputTokens, C::GenAiDeprecated, "gen_ai.usage.completion_tokens", R::Number},

    {F::TotalTokens, C::AgentEvents, "usage.total_tokens", R::Number},
    {F::TotalTokens, C::Langfuse, "langfuse.observation.usage_details", R::JsonMember, "total"},
    {F::TotalTokens, C::Langfuse, "langfuse.observation.usage_details", R::JsonMember, "totalTokens"},
    {F::TotalTokens, C::OpenInference, "llm.token_count.total", R::Number},
    {F::TotalTokens, C::Traceloop, "gen_ai.usage.total_tokens", R::Number},
    {F::TotalTokens, C::Traceloop, "llm.usage.total_tokens", R::Number},
    {F::TotalTokens, C::AiSdk, "ai.usage.totalTokens", R::Number},
    {F::TotalTokens, C::AiSdk, "ai.usage.tokens", R::Number},

    {F::CachedTokens, C::AgentEvents, "usage.cached_input_tokens", R::Number},
    {F::CachedTokens, C::Langfuse, "langfuse.observation.usage_details", R::JsonMember, "input_cached_tokens"},
    {F::CachedTokens, C::Langfuse, "langfuse.observation.usage_details", R::JsonMember, "input_cache_read"},
    {F::CachedTokens, C::GenAi, "gen_ai.usage.cache_read.input_tokens", R::Number},
    {F::CachedTokens, C::OpenInference, "llm.token_count.prompt_details.cache_read", R::Number},
    {F::CachedTokens, C::Traceloop, "gen_ai.usage.cache_read_input_tokens", R::Number},
    {F::CachedTokens, C::AiSdk, "ai.usage.cachedInputTokens", R::Number},
    {F::CachedTokens, C::AiSdk, "ai.usage.inputTokenDetails.cacheReadTokens", R::Number},

    {F::ReasoningTokens, C::AgentEvents, "usage.reasoning_tokens", R::Number},
    {F::ReasoningTokens, C::Langfuse, "langfuse.observation.usage_details", R::JsonMember, "output_reasoning_tokens"},
    {F::ReasoningTokens, C::Langfuse, "langfuse.observation.usage_details", R::JsonMember, "output_reasoning"},
    {F::ReasoningTokens, C::GenAi, "gen_ai.usage.reasoning.output_tokens", R::Number},
    {F::ReasoningTokens, C::OpenInference, "llm.token_count.completion_details.reasoning", R::Number},
    {F::ReasoningTokens, C::Traceloop, "gen_ai.usage.reasoning_tokens", R::Number},
    {F::ReasoningTokens, C::Traceloop, "llm.usage.reasoning_tokens", R::Number},
    {F::ReasoningTokens, C::AiSdk, "ai.usage.reasoningTokens", R::Number},

    {F::CostUsd, C::AgentEvents, "cost_usd", R::Number},
    {F::CostUsd, C::Langfuse, "langfuse.observation.cost_details", R::JsonTotal},
    {F::CostUsd, C::GenAi, "gen_ai.usage.cost", R::Number},
    {F::CostUsd, C::OpenInference, "llm.cost.total", R::Number},

    {F::Tool, C::AgentEvents, "tool"},
    {F::Tool, C::GenAi, "gen_ai.tool.name"},
    {F::Tool, C::OpenInference, "tool.name"},
    {F::Tool, C::AiSdk, "ai.toolCall.name"},

    // The call id of a tool run (OpenInference's Agents bridge sends none: traces match those by name).
    {F::ToolCallId, C::AgentEvents, "tool_call_id"},
    {F::ToolCallId, C::GenAi, "gen_ai.tool.call.id"},
    {F::ToolCallId, C::OpenInference, "tool_call.id"},
    {F::ToolCallId, C::OpenInference, "tool.id"},
    {F::ToolCallId, C::AiSdk, "ai.toolCall.id"},

    {F::Agent, C::GenAi, "gen_ai.agent.name"},
    {F::Agent, C::OpenInference, "agent.name"},

    {F::HandoffTarget, C::AgentEvents, "handoff_to"},
    {F::HandoffTarget, C::GenAi, "gen_ai.transfer.target.name"},
    {F::HandoffTarget, C::Traceloop, "gen_ai.handoff.to_agent"},

    {F::ErrorType, C::AgentEvents, "error_type"},
    {F::ErrorType, C::GenAi, "error.type"},
    {F::ErrorType, C::General, "exception.type"},

    {F::ErrorMessage, C::AgentEvents, "error_message"},
    {F::ErrorMessage, C::Langfuse, "langfuse.observation.status_message"},
    {F::ErrorMessage, C::General, "exception.message"},

    {F::FinishReason, C::AgentEvents, "finish_reason"},
    {F::FinishReason, C::GenAi, "gen_ai.response.finish_reasons"},
    {F::FinishReason, C::OpenInference, "llm.finish_reason"},
    {F::FinishReason, C::Traceloop, "gen_ai.completion.0.finish_reason"},
    {F::FinishReason, C::AiSdk, "ai.response.finishReason"},

    {F::Session, C::AgentEvents, "session"},
    {F::Session, C::Langfuse, "langfuse.session.id"},
    {F::Session, C::Langfuse, "session.id"},  // also OpenInference's key
    {F::Session, C::GenAi, "gen_ai.conversation.id"},
    {F::Session, C::Traceloop, "traceloop.association.properties.session_id"},
    {F::Session, C::AiSdk, "ai.telemetry.metadata.sessionId"},

    {F::EndUser, C::AgentEvents, "user"},
    {F::EndUser, C::Langfuse, "langfuse.user.id"},
    {F::EndUser, C::General, "enduser.id"},
    {F::EndUser, C::Langfuse, "user.id"},  // also OpenInference's key
    {F::EndUser, C::Traceloop, "traceloop.association.properties.user_id"},
    {F::EndUser, C::AiSdk, "ai.telemetry.metadata.userId"},

    {F::Environment, C::AgentEvents, "environment"},
    {F::Environment, C::Langfuse, "langfuse.environment"},
    {F::Environment, C::General, "deployment.environment.name"},
    {F::Environment, C::General, "deployment.environment"},

    {F::Release, C::AgentEvents, "release"},
    {F::Release, C::Langfuse, "langfuse.release"},
    {F::Release, C::General, "service.version"},

    {F::Tags, C::Langfuse, "langfuse.trace.tags", R::TextList},
    {F::Tags, C::OpenInference, "tag.tags", R::TextList},
    {F::Tags, C::AiSdk, "ai.telemetry.metadata.tags", R::TextList},

    {F::TraceName, C::AgentEvents, "trace_name"},
    {F::TraceName, C::Langfuse, "langfuse.trace.name"},
    {F::TraceName, C::GenAi, "gen_ai.workflow.name"},
    {F::TraceName, C::Traceloop, "traceloop.workflow.name"},
    {F::TraceName, C::AiSdk, "ai.telemetry.functionId"},

    {F::SemanticKind, C::AgentEvents, "semantic_kind"},

    {F::Service, C::AgentEvents, "service"},
    {F::Service, C::General, "service.name"},

    {F::Operation, C::AgentEvents, "operation"},
    {F::Operation, C::GenAi, "gen_ai.operation.name"},

    {F::Status, C::AgentEvents, "status"},

    {F::DurationMs, C::AgentEvents, "duration_ms", R::Number},
};

// ------------------------------------------------------------------ values

std::optional<std::string> scalarText(const Var& v) {
  if (v.isEmpty()) return std::nullopt;
  if (v.type() == typeid(Array::Ptr)) {
    auto array = v.extract<Array::Ptr>();
    if (!array || array->size() == 0) return std::nullopt;
    return scalarText(array->get(0));
  }
  if (v.type() == typeid(Object::Ptr)) return std::nullopt;
  if (v.isBoolean()) return std::string(v.extract<bool>() ? "true" : "false");
  std::string text = v.convert<std::string>();
  if (text.empty()) return std::nullopt;
  return text;
}

std::optional<double> scalarNumber(const Var& v) {
  if (v.isEmpty() || v.isBoolean()) return std::nullopt;
  try {
    std::optional<double> d;
    if (v.isNumeric()) {
      d = v.convert<double>();
    } else if (v.isString()) {
      const auto s = v.extract<std::string>();
      std::size_t used = 0;
      const double parsed = std::stod(s, &used);
      if (used == s.size()) d = parsed;
    }
    if (d && std::isfinite(*d) && *d >= 0) return d;
  } catch (...) {
  }
  return std::nullopt;
}

// An object, or JSON text holding one (Langfuse writes its details as JSON strings).
Object::Ptr jsonObject(const Var& v) {
  if (v.type() == typeid(Object::Ptr)) return v.extract<Object::Ptr>();
  if (!v.isString()) return nullptr;
  const auto& s = v.extract<std::string>();
  if (s.empty() || s.front() != '{') return nullptr;
  try {
    Poco::JSON::Parser parser;
    parser.setDepth(16);
    auto parsed = parser.parse(s);
    if (parsed.type() == typeid(Object::Ptr)) return parsed.extract<Object::Ptr>();
  } catch (...) {
  }
  return nullptr;
}

Array::Ptr jsonArray(const Var& v) {
  if (v.type() == typeid(Array::Ptr)) return v.extract<Array::Ptr>();
  if (!v.isString()) return nullptr;
  const auto& s = v.extract<std::string>();
  if (s.empty() || s.front() != '[') return nullptr;
  try {
    Poco::JSON::Parser parser;
    parser.setDepth(16);
    auto parsed = parser.parse(s);
    if (parsed.type() == typeid(Array::Ptr)) return parsed.extract<Array::Ptr>();
  } catch (...) {
  }
  return nullptr;
}

// The value a row reads from its key's value `raw`, handed to `use` (a plain read hands `raw`
// itself on, uncopied); `use`'s empty answer when the row reads nothing.
template <typename Use>
auto readRow(const Var& raw, const Row& row, Use use) -> decltype(use(raw)) {
  if (raw.isEmpty()) return {};
  switch (row.read) {
    case R::Text:
    case R::Number:
    case R::ProviderId:
    case R::TextList:
      return use(raw);
    case R::JsonMember: {
      auto object = jsonObject(raw);
      if (!object || !object->has(row.member)) return {};
      return use(object->get(row.member));
    }
    case R::JsonSum: {
      auto object = jsonObject(raw);
      if (!object || !object->has(row.member)) return {};
      auto base = scalarNumber(object->get(row.member));
      if (!base) return {};
      // Langfuse's usage_details subtract the details from input/output: add them back.
      const std::string prefix = std::string(row.member) + "_";
      double sum = *base;
      for (const auto& [name, value] : *object)
        if (name.rfind(prefix, 0) == 0)
          if (auto d = scalarNumber(value)) sum += *d;
      return use(Var(sum));
    }
    case R::JsonTotal: {
      auto object = jsonObject(raw);
      if (!object) return {};
      if (object->has("total")) return use(object->get("total"));
      double sum = 0;
      bool any = false;
      for (const auto& [name, value] : *object)
        if (auto d = scalarNumber(value)) sum += *d, any = true;
      if (!any) return {};
      return use(Var(sum));
    }
  }
  return {};
}

std::optional<std::string> rowText(const Var& raw, const Row& row) {
  return readRow(raw, row, [&row](const Var& v) -> std::optional<std::string> {
    auto t = scalarText(v);
    if (!t) return std::nullopt;
    // Providers and finish reasons of every convention, agent-events' own keys included, are
    // spelled one way (the SDK's agentevents/genai_values.hpp, which dimension_standard applies
    // too); the value as sent stays in the event's metadata.
    if (row.field == F::Provider) return aev::genai::providerId(*t);
    if (row.field == F::FinishReason) return aev::genai::finishReason(*t);
    return t;
  });
}

// ------------------------------------------------------------------ kinds

struct KindRule {
  const char* key;
  const char* value;  // exact value, or a suffix when `suffix`
  Kind kind;
  bool suffix = false;
};

// First match wins, in precedence order.
const std::vector<KindRule> kKindRules = {
    {"langfuse.observation.type", "generation", Kind::Llm},
    {"langfuse.observation.type", "embedding", Kind::Embedding},
    {"langfuse.observation.type", "agent", Kind::Agent},
    {"langfuse.observation.type", "tool", Kind::Tool},
    {"langfuse.observation.type", "chain", Kind::Chain},
    {"langfuse.observation.type", "retriever", Kind::Retriever},
    {"langfuse.observation.type", "guardrail", Kind::Guardrail},
    {"langfuse.observation.type", "evaluator", Kind::Evaluator},
    {"gen_ai.operation.name", "chat", Kind::Llm},
    {"gen_ai.operation.name", "text_completion", Kind::Llm},
    {"gen_ai.operation.name", "generate_content", Kind::Llm},
    {"gen_ai.operation.name", "embeddings", Kind::Embedding},
    {"gen_ai.operation.name", "retrieval", Kind::Retriever},
    {"gen_ai.operation.name", "search_memory", Kind::Retriever},
    {"gen_ai.operation.name", "rerank", Kind::Retriever},
    {"gen_ai.operation.name", "execute_tool", Kind::Tool},
    {"gen_ai.operation.name", "invoke_agent", Kind::Agent},
    {"gen_ai.operation.name", "create_agent", Kind::Agent},
    {"gen_ai.operation.name", "handoff", Kind::Handoff},
    {"gen_ai.operation.name", "invoke_workflow", Kind::Chain},
    {"gen_ai.operation.name", "plan", Kind::Chain},
    {"gen_ai.operation.name", "agent_step", Kind::Chain},
    {"gen_ai.operation.name", "apply_guardrail", Kind::Guardrail},
    {"openinference.span.kind", "LLM", Kind::Llm},
    {"openinference.span.kind", "EMBEDDING", Kind::Embedding},
    {"openinference.span.kind", "TOOL", Kind::Tool},
    {"openinference.span.kind", "AGENT", Kind::Agent},
    {"openinference.span.kind", "CHAIN", Kind::Chain},
    {"openinference.span.kind", "RETRIEVER", Kind::Retriever},
    {"openinference.span.kind", "RERANKER", Kind::Retriever},
    {"openinference.span.kind", "GUARDRAIL", Kind::Guardrail},
    {"openinference.span.kind", "EVALUATOR", Kind::Evaluator},
    {"traceloop.span.kind", "handoff", Kind::Handoff},
    {"traceloop.span.kind", "tool", Kind::Tool},
    {"traceloop.span.kind", "agent", Kind::Agent},
    {"traceloop.span.kind", "workflow", Kind::Chain},
    {"traceloop.span.kind", "task", Kind::Chain},
    {"llm.request.type", "chat", Kind::Llm},
    {"llm.request.type", "completion", Kind::Llm},
    {"llm.request.type", "embedding", Kind::Embedding},
    {"ai.operationId", ".doGenerate", Kind::Llm, true},
    {"ai.operationId", ".doStream", Kind::Llm, true},
    {"ai.operationId", ".doEmbed", Kind::Embedding, true},
    {"ai.operationId", "ai.toolCall", Kind::Tool},
    // The outer generateText / streamText / embed span: the AI SDK has no agent notion.
    {"ai.operationId", "ai.generateText", Kind::Chain},
    {"ai.operationId", "ai.streamText", Kind::Chain},
    {"ai.operationId", "ai.generateObject", Kind::Chain},
    {"ai.operationId", "ai.streamObject", Kind::Chain},
    {"ai.operationId", "ai.embed", Kind::Chain},
    {"ai.operationId", "ai.embedMany", Kind::Chain},
};

std::optional<std::string> flatString(const Object::Ptr& attributes, const char* key) {
  if (!attributes || !attributes->has(key)) return std::nullopt;
  auto v = attributes->get(key);
  if (!v.isString()) return std::nullopt;
  return v.extract<std::string>();
}

std::optional<std::string> flatString(const Lookup& attributes, const char* key) {
  auto v = attributes.member(key);
  if (!v || !v->isString()) return std::nullopt;
  return v->extract<std::string>();
}

bool endsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

constexpr std::string_view kHandoffSpanPrefix = "handoff to ";
constexpr std::string_view kHandoffToolPrefix = "handoff_to_";

template <typename Attributes>
bool isHandoffTool(const Attributes& attributes, std::string_view spanName) {
  if (flatString(attributes, "gen_ai.transfer.mode").value_or("") == "pass_control") return true;
  if (flatString(attributes, "openinference.span.kind").value_or("") != "TOOL") return false;
  return spanName.rfind(kHandoffSpanPrefix, 0) == 0 ||
         flatString(attributes, "tool.name").value_or("").rfind(kHandoffToolPrefix, 0) == 0;
}

}  // namespace

const std::vector<Row>& table() { return kConventionTable; }

std::vector<Row> rowsOf(Field field) {
  std::vector<Row> out;
  for (const auto& r : kConventionTable)
    if (r.field == field) out.push_back(r);
  return out;
}

namespace {

// The rest of a dotted key ("input_tokens" of "usage.input_tokens") as a path from `node`,
// the object its first segment named.
std::optional<Var> pathFrom(Object::Ptr node, std::string_view key, std::size_t start) {
  if (!node) return std::nullopt;
  for (;;) {
    const auto dot = key.find('.', start);
    if (dot == std::string_view::npos) {
      const std::string last(key.substr(start));
      if (!node->has(last)) return std::nullopt;
      return node->get(last);
    }
    node = node->getObject(std::string(key.substr(start, dot - start)));
    if (!node) return std::nullopt;
    start = dot + 1;
  }
}

// A dotted key ("usage.input_tokens") as a path through nested objects.
std::optional<Var> nestedLookup(const Object::Ptr& metadata, std::string_view key) {
  const auto dot = key.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  return pathFrom(metadata->getObject(std::string(key.substr(0, dot))), key, dot + 1);
}

}  // namespace

std::optional<Var> lookup(const Object::Ptr& metadata, std::string_view key) {
  if (!metadata) return std::nullopt;
  const std::string flat(key);
  if (metadata->has(flat)) return metadata->get(flat);
  return nestedLookup(metadata, key);
}

// The table compiled once: per field, its rows with the key as a string and the key's first
// segment ("langfuse" of "langfuse.trace.name"), which any metadata holding the key (flat or
// nested) has as the first segment of one of its own keys. Each distinct head has a number,
// its position in heads(): a Lookup marks the heads its members have once, and a row's head
// is then one look at a flag, not a string compare.
struct CompiledRow {
  const Row* row;
  std::string key;
  std::size_t head;
};

namespace {

// The table's distinct heads, in order (for a binary search by a member's head).
const std::vector<std::string>& heads() {
  static const auto sorted = [] {
    std::vector<std::string> out;
    for (const auto& r : kConventionTable) {
      const std::string_view key = r.key;
      out.emplace_back(key.substr(0, key.find('.')));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }();
  return sorted;
}

std::size_t headNumber(std::string_view head) {
  const auto& all = heads();
  const auto it = std::lower_bound(all.begin(), all.end(), head,
                                   [](const std::string& h, std::string_view k) { return std::string_view(h) < k; });
  return it != all.end() && *it == head ? static_cast<std::size_t>(it - all.begin()) : all.size();
}

const std::vector<std::vector<CompiledRow>>& compiled() {
  static const auto rows = [] {
    std::vector<std::vector<CompiledRow>> out(static_cast<std::size_t>(Field::DurationMs) + 1);
    for (const auto& r : kConventionTable) {
      const std::string key = r.key;
      out[static_cast<std::size_t>(r.field)].push_back({&r, key, headNumber(key.substr(0, key.find('.')))});
    }
    return out;
  }();
  return rows;
}

}  // namespace

Lookup::Lookup(const Object::Ptr& metadata) : metadata_(metadata) {
  if (!metadata_) return;
  flat_.reserve(metadata_->size());
  // The object's members in key order (its map's order: bytewise, as string_view compares).
  for (const auto& member : *metadata_) flat_.push_back({member.first, &member.second, nullptr});
  addHeads();
}

Lookup::Lookup(std::vector<FlatMember> members, Materialize materialize) : materialize_(materialize) {
  flat_.reserve(members.size());
  for (const auto& m : members) flat_.push_back({m.key, nullptr, m.value});
  sortKeepingLastOfEachKey(flat_);  // as Object::set would keep them
  addHeads();
}

void Lookup::addHeads() {
  const std::size_t count = heads().size();
  // flat_ is in key order, so the keys of one head are (nearly always) neighbours: a search
  // for each run of one head, not for each member.
  std::string_view previous;
  bool first = true;
  for (const auto& entry : flat_) {
    const std::string_view name = entry.key.substr(0, entry.key.find('.'));
    if (!first && name == previous) continue;
    first = false;
    previous = name;
    const std::size_t head = headNumber(name);
    if (head == count) continue;  // the head of no row
    if (heads_.empty()) heads_.assign(count, false);
    heads_[head] = true;
  }
}

const Lookup::Entry* Lookup::find(std::string_view key) const {
  auto it =
      std::lower_bound(flat_.begin(), flat_.end(), key, [](const Entry& m, std::string_view k) { return m.key < k; });
  return it != flat_.end() && it->key == key ? &*it : nullptr;
}

std::optional<Var> Lookup::member(std::string_view key) const {
  const Entry* entry = find(key);
  if (!entry) return std::nullopt;
  return std::optional<Var>(std::in_place, entry->var ? *entry->var : materialize_(entry->other));
}

bool Lookup::hasHead(const CompiledRow& c) const { return !heads_.empty() && heads_[c.head]; }

// The row's key: a flat member of the object as it was when the Lookup was made, else a path
// through nested objects (then copied into `nested`).
const Var* Lookup::raw(const CompiledRow& c, std::optional<Var>& nested) const { return keyed(c.key, nested); }

std::optional<Var> Lookup::at(std::string_view key) const {
  std::optional<Var> nested;
  const Var* v = keyed(key, nested);
  if (!v) return std::nullopt;
  if (!nested) nested.emplace(*v);
  return nested;
}

const Var* Lookup::keyed(std::string_view key, std::optional<Var>& nested) const {
  if (const Entry* entry = find(key)) {
    if (entry->var) return entry->var;
    nested = materialize_(entry->other);
    return &*nested;
  }
  const auto dot = key.find('.');
  if (dot == std::string_view::npos) return nullptr;
  if (metadata_) {
    nested = nestedLookup(metadata_, key);
  } else if (const Entry* first = find(key.substr(0, dot))) {
    // A view: the member its first segment names, when that is an object (an OTLP kvlist).
    const Var head = first->var ? *first->var : materialize_(first->other);
    if (head.type() == typeid(Object::Ptr)) nested = pathFrom(head.extract<Object::Ptr>(), key, dot + 1);
  }
  return nested ? &*nested : nullptr;
}

std::optional<Var> Lookup::value(const CompiledRow& c) const {
  if (!hasHead(c)) return std::nullopt;
  std::optional<Var> nested;
  const Var* v = raw(c, nested);
  if (!v) return std::nullopt;
  return readRow(*v, *c.row, [](const Var& read) { return std::optional<Var>(read); });
}

std::optional<std::string> Lookup::text(Field field, bool conventionsOnly) const {
  if (heads_.empty()) return std::nullopt;  // most events: no member a row could read
  for (const auto& c : compiled()[static_cast<std::size_t>(field)]) {
    if (conventionsOnly && c.row->convention == C::AgentEvents) continue;
    if (!hasHead(c)) continue;
    std::optional<Var> nested;
    if (const Var* v = raw(c, nested))
      if (auto t = rowText(*v, *c.row)) return t;
  }
  return std::nullopt;
}

std::optional<double> Lookup::number(Field field, bool conventionsOnly) const {
  if (heads_.empty()) return std::nullopt;
  for (const auto& c : compiled()[static_cast<std::size_t>(field)]) {
    if (conventionsOnly && c.row->convention == C::AgentEvents) continue;
    if (!hasHead(c)) continue;
    std::optional<Var> nested;
    if (const Var* v = raw(c, nested))
      if (auto d = readRow(*v, *c.row, [](const Var& read) { return scalarNumber(read); })) return d;
  }
  return std::nullopt;
}

std::vector<std::string> Lookup::textList(Field field) const {
  std::vector<std::string> out;
  for (const auto& c : compiled()[static_cast<std::size_t>(field)]) {
    auto v = value(c);
    if (!v) continue;
    if (auto array = jsonArray(*v)) {
      for (std::size_t i = 0; i < array->size(); ++i)
        if (auto t = scalarText(array->get(i))) out.push_back(*t);
    } else if (auto t = scalarText(*v)) {
      out.push_back(*t);
    }
    if (!out.empty()) return out;
  }
  return out;
}

std::optional<std::string> text(const Object::Ptr& metadata, Field field, bool conventionsOnly) {
  if (!metadata) return std::nullopt;
  return Lookup(metadata).text(field, conventionsOnly);
}

std::optional<double> number(const Object::Ptr& metadata, Field field, bool conventionsOnly) {
  if (!metadata) return std::nullopt;
  return Lookup(metadata).number(field, conventionsOnly);
}

std::vector<std::string> textList(const Object::Ptr& metadata, Field field) { return Lookup(metadata).textList(field); }

std::string_view kindName(Kind kind) {
  switch (kind) {
    case Kind::Llm:
      return "llm";
    case Kind::Embedding:
      return "embedding";
    case Kind::Tool:
      return "tool";
    case Kind::Agent:
      return "agent";
    case Kind::Handoff:
      return "handoff";
    case Kind::Chain:
      return "chain";
    case Kind::Retriever:
      return "retriever";
    case Kind::Guardrail:
      return "guardrail";
    case Kind::Evaluator:
      return "evaluator";
    case Kind::Unknown:
      break;
  }
  return "";
}

namespace {

// kindOf over an object's members or a flat view (`Attributes`: what flatString reads).
template <typename Attributes>
Kind kindIn(const Attributes& attributes, std::string_view spanName) {
  Kind kind = Kind::Unknown;
  // The rules of one key are consecutive: each key is read once, not once per rule (a span's
  // kind is asked for on every publish, up to three times).
  const char* key = nullptr;
  std::optional<std::string> value;
  for (const auto& rule : kKindRules) {
    if (!key || std::strcmp(key, rule.key) != 0) {
      key = rule.key;
      value = flatString(attributes, key);
    }
    if (!value) continue;
    if (rule.suffix ? endsWith(*value, rule.value) : *value == rule.value) {
      kind = rule.kind;
      break;
    }
  }
  if (kind == Kind::Tool && isHandoffTool(attributes, spanName)) return Kind::Handoff;
  return kind;
}

// handoffTarget over an object or a flat view; `target` is the table's HandoffTarget rows' value.
template <typename Attributes>
std::optional<std::string> handoffIn(const Attributes& attributes, std::optional<std::string> target,
                                     std::string_view spanName) {
  if (target) return target;
  if (auto out = flatString(attributes, "output.value"); out && !out->empty()) {
    if (auto object = jsonObject(Var(*out))) {
      if (object->has("to_agent"))
        if (auto t = scalarText(object->get("to_agent"))) return t;
    } else if (out->front() != '{' && out->front() != '[') {
      return out;
    }
  }
  if (spanName.rfind(kHandoffSpanPrefix, 0) == 0 && spanName.size() > kHandoffSpanPrefix.size())
    return std::string(spanName.substr(kHandoffSpanPrefix.size()));
  return std::nullopt;
}

}  // namespace

Kind kindOf(const Object::Ptr& attributes, std::string_view spanName) { return kindIn(attributes, spanName); }

Kind kindOf(const Lookup& attributes, std::string_view spanName) { return kindIn(attributes, spanName); }

std::optional<std::string> handoffTarget(const Object::Ptr& attributes, std::string_view spanName) {
  return handoffIn(attributes, text(attributes, Field::HandoffTarget), spanName);
}

std::optional<std::string> handoffTarget(const Lookup& attributes, std::string_view spanName) {
  return handoffIn(attributes, attributes.text(Field::HandoffTarget), spanName);
}

std::string eventTypeFor(Kind kind, bool failed) {
  if (failed) return "agent.error";
  switch (kind) {
    case Kind::Llm:
      return "agent.message";
    case Kind::Tool:
      return "agent.tool_call.end";
    case Kind::Agent:
      return "agent.end";
    case Kind::Handoff:
      return "agent.handoff";
    default:
      return "custom";
  }
}

bool ownsUsage(Kind kind) { return kind != Kind::Agent && kind != Kind::Chain; }

}  // namespace aev::telemetry::conventions

#pragma once
// The one table of GenAI telemetry conventions (docs/integrations.md#how-attributes-map): which
// metadata keys (OTLP span attributes arrive as flat metadata keys) give each telemetry field,
// and which give a span's kind. Every reader goes through it: the extractor for POST /event,
// POST /events/batch and OTLP alike (telemetry/extractor.cpp), and the OTLP span mapping for
// the event type, agent and the short metadata aliases (otlp/span_events.cpp).
//
// Precedence, per field, is the order of the rows (decisions: agent-events keys > langfuse.* >
// current gen_ai.* > OpenInference > traceloop.* > ai.* > deprecated gen_ai.*); the first row
// whose key holds a usable value wins. A key is looked up flat first ("gen_ai.request.model"),
// then as a dotted path through nested objects ("usage.input_tokens").
#include <Poco/Dynamic/Var.h>
#include <Poco/JSON/Object.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace aev::telemetry::conventions {

enum class Field {
  Model,         // the requested model, else the response model
  Provider,      // normalised provider id (openai, x_ai, ...: agentevents/genai_values.hpp), every row
  InputTokens,   // including cached tokens
  OutputTokens,  // including reasoning tokens
  TotalTokens,   // explicit total when sent (else input + output)
  CachedTokens,  // cache reads, a subset of InputTokens
  ReasoningTokens,
  CostUsd,
  Tool,
  Agent,
  HandoffTarget,
  ErrorType,
  ErrorMessage,
  FinishReason,  // normalised to the OTel enum where one means the same (genai_values.hpp), every row
  Session,       // session or conversation id
  EndUser,
  Environment,
  Release,
  Tags,  // convention tag lists (arrays of strings)
  TraceName,
  SemanticKind,  // agent-events key only; a span's kind comes from kindOf()
  Service,
  Operation,
  Status,      // "ok" / "error" (OTLP: the span status)
  ToolCallId,  // the id of the model's tool call a tool run answers
  DurationMs,  // last: the count of fields
};

enum class Convention { AgentEvents, Langfuse, GenAi, OpenInference, Traceloop, AiSdk, GenAiDeprecated, General };

// How a row reads its key's value.
enum class Read {
  Text,        // a scalar as text; an array's first element
  Number,      // a number, or a string holding one
  JsonMember,  // a JSON object (or JSON text of one): its member `member`
  JsonSum,     // a JSON object (or its text): `member` plus every `member`_* detail (Langfuse usage)
  JsonTotal,   // a JSON object (or its text): `total`, else the sum of its numbers (Langfuse cost)
  ProviderId,  // text without the AI SDK's API suffix ("openai.chat" → "openai")
  TextList,    // an array of strings (or JSON text of one)
};

struct Row {
  Field field;
  Convention convention;
  const char* key;
  Read read = Read::Text;
  const char* member = nullptr;
};

// The whole table, rows of a field in precedence order.
const std::vector<Row>& table();
// The rows of one field, in precedence order.
std::vector<Row> rowsOf(Field field);

// A metadata key: flat first, then as a dotted path through nested objects.
std::optional<Poco::Dynamic::Var> lookup(const Poco::JSON::Object::Ptr& metadata, std::string_view key);

struct CompiledRow;

// A member of a flat view that is not a Poco object (an OTLP span's decoded attributes): its
// key, and its value as the view's `Materialize` reads it, only when a row asks for it.
struct FlatMember {
  std::string_view key;
  const void* value;
};
using Materialize = Poco::Dynamic::Var (*)(const void* value);

// Lookups in one event's metadata: the keys' first segments are read once, so a row whose
// convention the metadata does not speak costs no map lookup (an event of agent-events'
// own keys pays for those only). Holds `metadata` by reference count; sees its members as
// they were when made (members added later, never removed: valid; nested paths are read live).
class Lookup {
 public:
  explicit Lookup(const Poco::JSON::Object::Ptr& metadata);
  // The same lookups in flat members that were never made an object: read as the object
  // set() would build from them in this order (a duplicate key: its last value), a row's
  // dotted key that is no member as a path through the member named by its first segment.
  // The keys and values must outlive the Lookup.
  Lookup(std::vector<FlatMember> members, Materialize materialize);
  // A flat member's value, as the object would hold it.
  std::optional<Poco::Dynamic::Var> member(std::string_view key) const;
  // Any key as lookup() reads it: a flat member, else a dotted path through nested objects.
  std::optional<Poco::Dynamic::Var> at(std::string_view key) const;
  std::optional<std::string> text(Field field, bool conventionsOnly = false) const;
  std::optional<double> number(Field field, bool conventionsOnly = false) const;
  std::vector<std::string> textList(Field field) const;

 private:
  bool hasHead(const CompiledRow& row) const;
  const Poco::Dynamic::Var* raw(const CompiledRow& row, std::optional<Poco::Dynamic::Var>& nested) const;
  std::optional<Poco::Dynamic::Var> value(const CompiledRow& row) const;
  struct Entry {
    std::string_view key;
    const Poco::Dynamic::Var* var;  // an object's member; else `other`, read by materialize_
    const void* other;
  };
  const Entry* find(std::string_view key) const;
  const Poco::Dynamic::Var* keyed(std::string_view key, std::optional<Poco::Dynamic::Var>& nested) const;
  void addHeads();
  Poco::JSON::Object::Ptr metadata_;
  Materialize materialize_ = nullptr;
  // The members as they were when made, in key order: a row's key is one binary search, no
  // key string built and no object member copied (views into metadata_'s map nodes).
  std::vector<Entry> flat_;
  // Which of the table's key heads the members' keys have, by head number (empty: none).
  std::vector<bool> heads_;
};

// The first usable value of a field. `conventionsOnly` skips the agent-events rows (for the
// OTLP aliases, which never override a key the span set itself).
std::optional<std::string> text(const Poco::JSON::Object::Ptr& metadata, Field field, bool conventionsOnly = false);
std::optional<double> number(const Poco::JSON::Object::Ptr& metadata, Field field, bool conventionsOnly = false);
std::vector<std::string> textList(const Poco::JSON::Object::Ptr& metadata, Field field);

// ------------------------------------------------------------------ span kind

enum class Kind { Unknown, Llm, Embedding, Tool, Agent, Handoff, Chain, Retriever, Guardrail, Evaluator };

// "llm", "tool", ...; "" for Unknown. Stored in metadata.semantic_kind of OTLP events.
std::string_view kindName(Kind kind);

// The kind of a span from its attributes (flat metadata keys) and name, by the kind table
// (langfuse.observation.type > gen_ai.operation.name > openinference.span.kind >
// traceloop.span.kind / llm.request.type > ai.operationId), with the hand-off refinement
// (a tool span that transfers control: gen_ai.transfer.mode pass_control, an OpenInference
// TOOL span named "handoff to <agent>" or with tool.name "handoff_to_<agent>").
Kind kindOf(const Poco::JSON::Object::Ptr& attributes, std::string_view spanName);
Kind kindOf(const Lookup& attributes, std::string_view spanName);

// Where the hand-off of a hand-off span goes (gen_ai.transfer.target.name, gen_ai.handoff.to_agent,
// OpenInference output.value {"to_agent"} or text, or the span name "handoff to <agent>").
std::optional<std::string> handoffTarget(const Poco::JSON::Object::Ptr& attributes, std::string_view spanName);
std::optional<std::string> handoffTarget(const Lookup& attributes, std::string_view spanName);

// The event type of a span of this kind: agent.error for a failed span; llm → agent.message,
// tool → agent.tool_call.end, agent → agent.end, handoff → agent.handoff, else custom.
std::string eventTypeFor(Kind kind, bool failed);

// Whether a span of this kind reports usage of its own (LLM calls, embeddings): agent and
// chain spans of the AI SDK and AI SDK 7 repeat the sum of their children's usage, which
// must not be counted twice.
bool ownsUsage(Kind kind);

}  // namespace aev::telemetry::conventions

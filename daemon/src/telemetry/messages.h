#pragma once
// The prompt and completion of an LLM call, from whichever convention carried them, in one
// shape (docs/integrations.md#messages), stored as the event's payload.messages:
//
//   {"input":  [{"role": "system"|"user"|"assistant"|"tool"|..., "content": "text" | null,
//                "toolCalls"?: [{"id"?, "name", "arguments"?}], "toolCallId"?}],
//    "output": [...same...]}
//
// Sources, per side, first found wins (decisions' precedence):
//   langfuse.observation.input / .output (text or JSON text)
//   gen_ai.input.messages (+ gen_ai.system_instructions) / gen_ai.output.messages (OTel parts)
//   llm.input_messages.<i>.message.* / llm.output_messages.<i>.message.* (OpenInference)
//   gen_ai.prompt.<i>.* / gen_ai.completion.<i>.* (OpenLLMetry before OTel 1.40 names)
//   ai.prompt.messages | ai.prompt / ai.response.text + ai.response.toolCalls (AI SDK)
//   input.value / output.value (OpenInference raw request and response)
//   gen_ai.prompt / gen_ai.completion (deprecated single strings)
// Once normalised, every message attribute of every convention leaves the metadata, so
// the text is stored (and screened by moderation) once. Text is bounded per event: strings
// are cut, whole UTF-8 characters kept, with a visible marker "…[+N chars]".
//
// Two readers give the same lists: messages_from_text.h reads attribute values that are
// text (JSON text included, through the flat JsonView) and is what every OTLP span takes;
// messages_from_tree.h reads Poco values of any shape (an attribute that is itself a JSON
// array or object, as POST /event's metadata may send) and is the first one's fallback.
#include <Poco/JSON/Object.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "telemetry/flat_metadata.h"

namespace aev::telemetry {

struct ToolCall {
  std::optional<std::string> id;
  std::string name;
  std::optional<std::string> arguments;
};

struct Message {
  std::string role;
  std::optional<std::string> content;  // null when the message had no text
  std::vector<ToolCall> toolCalls;
  std::optional<std::string> toolCallId;
};

struct MessageLists {
  std::vector<Message> input, output;

  bool empty() const { return input.empty() && output.empty(); }
  // Every string (content, then each tool call's arguments, in order) cut to one budget.
  void bound(std::size_t maxChars);
  // The condensed JSON text of the shape above (members in that order, strings escaped as
  // Poco writes them): what condensing toObject() gives, without building it.
  void appendJson(std::string& out) const;
  Poco::JSON::Object::Ptr toObject() const;
  // The first tool the model asked for in the output (a hand-off request, a tool named
  // transfer_to_*, is not a tool).
  std::optional<std::string> requestedTool() const;
};

// Whether the event's metadata holds message attributes worth normalising: an LLM call by
// the convention table (or an agent.message event) with at least one message key.
bool carriesMessages(const Poco::JSON::Object::Ptr& metadata, const std::string& eventType,
                     const std::string& identifier);
bool carriesMessages(const FlatMetadata& metadata, const std::string& eventType, const std::string& identifier);

// Moves the message attributes out of `metadata` into the normalised lists (bounded to
// maxChars), or returns none (and changes nothing) when none could be read.
std::optional<MessageLists> takeMessages(Poco::JSON::Object& metadata, std::size_t maxChars);
std::optional<MessageLists> takeMessages(FlatMetadata& metadata, std::size_t maxChars);

// MessageLists::requestedTool of a messages object (payload.messages).
std::optional<std::string> requestedTool(const Poco::JSON::Object::Ptr& messages);

// `text` cut to `budget` characters with the marker "…[+N chars]"; budget is reduced.
std::string bounded(const std::string& text, std::size_t& budget);

// Whether a metadata key is one the normalisers read (and takeMessages moves out).
bool isMessageKey(std::string_view key);

}  // namespace aev::telemetry

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
#include <Poco/JSON/Object.h>

#include <cstddef>
#include <optional>
#include <string>

namespace aev::telemetry {

// Whether the event's metadata holds message attributes worth normalising: an LLM call by
// the convention table (or an agent.message event) with at least one message key.
bool carriesMessages(const Poco::JSON::Object::Ptr& metadata, const std::string& eventType,
                     const std::string& identifier);

// Moves the message attributes out of `metadata` into the normalised object, or returns
// null (and changes nothing) when none could be read.
Poco::JSON::Object::Ptr takeMessages(Poco::JSON::Object& metadata, std::size_t maxChars);

// The first tool the model asked for in `messages.output` (a hand-off request, a tool named
// transfer_to_*, is not a tool).
std::optional<std::string> requestedTool(const Poco::JSON::Object::Ptr& messages);

// `text` cut to `budget` characters with the marker "…[+N chars]"; budget is reduced.
std::string bounded(const std::string& text, std::size_t& budget);

}  // namespace aev::telemetry

#pragma once
// What a trace was asked and what it answered (docs/api.md#traces): the texts its rollup
// keeps (TraceRepository::apply) so lists show previews without reading events again.
#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace aev::store {

// The longest input or output text a rollup keeps, in characters (code points).
inline constexpr std::size_t kTraceTextChars = 4000;
// The longest preview line, in characters.
inline constexpr std::size_t kTracePreviewChars = 160;
// The most tag keys a rollup keeps.
inline constexpr std::size_t kTraceTagLimit = 20;

struct ConversationTexts {
  std::optional<std::string> input;   // the last user message of the call's input
  std::optional<std::string> output;  // the text of the call's output
};

// The texts an event's payload carries: its normalised payload.messages {input, output}
// (telemetry/messages.h), else its `input` / `prompt` and `output` / `completion`
// strings. A tool call's own input and output are not a conversation (tool = its
// semantic kind or an agent.tool_call.* type) unless it carries messages. Each text is
// at most kTraceTextChars characters. The payload is parsed only when its text names one
// of those keys, so most events cost one substring search.
ConversationTexts conversationTexts(const std::string& payloadJson, bool toolCall);

// `text` as one line of at most kTracePreviewChars characters: runs of whitespace
// (newlines included) folded to one space, trimmed, cut with "…" when longer.
std::string previewLine(const std::string& text);

// At most `chars` code points of valid UTF-8 `text`.
std::string firstChars(const std::string& text, std::size_t chars);

// A tags object as stored on the rollup ({} when empty) and back.
std::string tagsJson(const std::map<std::string, std::string>& tags);
std::map<std::string, std::string> tagsFromJson(const std::string& text);

}  // namespace aev::store

#pragma once
// How the indexed message families spell a message's members (`llm.input_messages.N.*` of
// OpenInference, `gen_ai.prompt.N.*` of OpenLLMetry): read by both message readers, the
// flat one (messages_from_text) and the Poco one (messages_from_tree).
namespace aev::telemetry {

struct MessageSpelling {
  const char* role;
  const char* content;
  const char* toolCallId;
  const char* toolCalls;  // prefix of the indexed tool calls
  const char* callId;
  const char* callName;
  const char* callArguments;
  const char* contents;  // prefix of indexed content parts, or nullptr
  const char* contentText;
};

inline constexpr MessageSpelling kOpenInference{
    "message.role",        "message.content",         "message.tool_call_id",         "message.tool_calls.",
    "tool_call.id",        "tool_call.function.name", "tool_call.function.arguments", "message.contents.",
    "message_content.text"};
inline constexpr MessageSpelling kOpenLlmetry{"role", "content",   "tool_call_id", "tool_calls.", "id",
                                              "name", "arguments", nullptr,        nullptr};

}  // namespace aev::telemetry

#pragma once
// Which parts of an event the rules of each target read (docs/features.md#moderation), as replaceable
// slots of the event's own JSON trees.
//
// Targets of an event (an event has at most one view per target):
//   request    agent.start; agent.message unless payload.role is "assistant"
//   response   agent.end; agent.message with payload.role "assistant"; and the completion
//              (payload.messages.output, gen_ai.completion, gen_ai.output.messages) of any other
//              agent.message, since an OTLP chat span carries both sides of the exchange
//   tool_call  agent.tool_call.start; an OTLP tool span (execute_tool, or semantic_kind tool: the only record OTLP
//              gives of a tool call, mapped to agent.tool_call.end / agent.error)
// So the agent.message overlap resolves by role: an assistant message is a response and
// never a request; any other message is a request.
//
// Text of a view: every string in `payload` (recursively; of payload.messages, an LLM
// call's normalised messages, a request reads the input and a response the output), plus these metadata
// attributes (OpenTelemetry GenAI names, where OTLP puts the content):
//   request    gen_ai.prompt, gen_ai.input.messages, gen_ai.system_instructions
//   response   gen_ai.completion, gen_ai.output.messages (their only text for a request-side message)
//   tool_call  metadata.tool, gen_ai.tool.name, gen_ai.tool.call.arguments
// The tool call of a tool_call view, what `tool_arg` expressions address as "$":
//   {"tool": metadata.tool | gen_ai.tool.name | payload.tool | payload.name,
//    "args": payload.arguments | payload.args | payload.input | payload.parameters
//            | gen_ai.tool.call.arguments (parsed when it is JSON text) | the payload itself}
#include <Poco/JSON/Object.h>

#include <optional>
#include <string>
#include <vector>

#include "moderation/json_slot.h"
#include "moderation/rule.h"

namespace aev::moderation {

// The event under moderation: its type and source, and its payload and metadata trees,
// which redaction changes in place (metadata may be null).
struct EventDocument {
  std::string eventType;
  std::string source;  // api | batch | otlp
  Poco::JSON::Object::Ptr payload;
  Poco::JSON::Object::Ptr metadata;
};

class TargetView {
 public:
  TargetView(Target target, EventDocument& event, bool payloadText);

  Target target() const { return target_; }
  EventDocument& event() const { return *event_; }
  // The strings to scan (string values only).
  std::vector<JsonSlot>& texts() { return texts_; }
  // The tool's name and where it is written (tool_call views only).
  const std::optional<std::string>& toolName() const { return toolName_; }
  std::vector<JsonSlot>& toolNameSlots() { return toolNameSlots_; }
  // {"tool", "args"} as a slot; replacing members writes through to the event (sync()).
  const JsonSlot& toolCall() const { return toolCall_; }
  // Writes changes made through toolCall() back into the event (the tool name to every
  // place it is written, arguments parsed from JSON text back to that text).
  void sync();
  // Re-reads the event after a redaction, so the next rule sees the masked text.
  void refresh();

 private:
  void build();

  Target target_;
  EventDocument* event_;
  bool payloadText_;
  std::vector<JsonSlot> texts_;
  std::optional<std::string> toolName_;
  std::vector<JsonSlot> toolNameSlots_;
  JsonSlot toolCall_;
  Poco::JSON::Object::Ptr toolCallObject_;
  Poco::Dynamic::Var originalArgs_;
  std::optional<JsonSlot> argsSource_;
  bool argsFromText_ = false;
};

// The views an event gets, by the mapping above (none for other event types).
std::vector<TargetView> viewsOf(EventDocument& event);

}  // namespace aev::moderation

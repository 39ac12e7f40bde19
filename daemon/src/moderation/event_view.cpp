#include "moderation/event_view.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>

#include <initializer_list>
#include <sstream>

namespace aev::moderation {

namespace {

void noReplace(const Poco::Dynamic::Var&) {}

void collectStrings(const JsonSlot& slot, std::vector<JsonSlot>& out) {
  if (slot.value.isString()) {
    out.push_back(slot);
    return;
  }
  forEachChild(slot, [&](JsonSlot child) { collectStrings(child, out); });
}

JsonSlot rootSlot(const std::string& path, const Poco::JSON::Object::Ptr& object) {
  return JsonSlot{path, Poco::Dynamic::Var(object), noReplace};
}

std::optional<std::string> stringMemberOf(const Poco::JSON::Object::Ptr& object, const std::string& key) {
  if (!object || !object->has(key)) return std::nullopt;
  auto v = object->get(key);
  if (!v.isString()) return std::nullopt;
  return v.extract<std::string>();
}

// The metadata attributes whose text belongs to a target (see the header).
std::initializer_list<const char*> contentAttributes(Target target) {
  static constexpr std::initializer_list<const char*> request = {"gen_ai.prompt", "gen_ai.input.messages",
                                                                 "gen_ai.system_instructions"};
  static constexpr std::initializer_list<const char*> response = {"gen_ai.completion", "gen_ai.output.messages"};
  static constexpr std::initializer_list<const char*> tool = {"tool", "gen_ai.tool.name", "gen_ai.tool.call.arguments"};
  switch (target) {
    case Target::Request: return request;
    case Target::Response: return response;
    case Target::ToolCall: return tool;
  }
  return request;
}

std::string condensedArguments(const Poco::Dynamic::Var& value) {
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(value, out);
  return out.str();
}

}  // namespace

TargetView::TargetView(Target target, EventDocument& event, bool payloadText)
    : target_(target), event_(&event), payloadText_(payloadText) {
  build();
}

void TargetView::refresh() { build(); }

void TargetView::build() {
  auto& e = *event_;
  texts_.clear();
  toolNameSlots_.clear();
  toolName_.reset();
  argsSource_.reset();
  argsFromText_ = false;
  // payload.messages (an LLM call's normalised prompt and completion, telemetry/messages.h):
  // its input is request text, its output response text.
  const JsonSlot payloadRootSlot = rootSlot("payload", e.payload);
  JsonSlot messages, completion;
  const bool normalised = e.payload && memberSlot(payloadRootSlot, "messages", messages) && isObject(messages.value);
  if (payloadText_ && e.payload) {
    forEachChild(payloadRootSlot, [&](JsonSlot child) {
      if (normalised && target_ == Target::Request && child.path == messages.path) {
        JsonSlot input;
        if (memberSlot(child, "input", input)) collectStrings(input, texts_);
        return;
      }
      collectStrings(child, texts_);
    });
  } else if (normalised && target_ == Target::Response && memberSlot(messages, "output", completion)) {
    collectStrings(completion, texts_);
  }
  const JsonSlot metadataRoot = rootSlot("metadata", e.metadata);
  for (const char* key : contentAttributes(target_)) {
    JsonSlot slot;
    if (e.metadata && memberSlot(metadataRoot, key, slot)) collectStrings(slot, texts_);
  }
  if (target_ != Target::ToolCall) return;

  // Where the tool's name is written, in the order docs/features.md#telemetry-fields reads it.
  const JsonSlot payloadRoot = rootSlot("payload", e.payload);
  for (const auto& [root, key] : {std::pair{&metadataRoot, "tool"}, std::pair{&metadataRoot, "gen_ai.tool.name"},
                                  std::pair{&payloadRoot, "tool"}, std::pair{&payloadRoot, "name"}}) {
    JsonSlot slot;
    if (!root->value.isEmpty() && memberSlot(*root, key, slot) && slot.value.isString()) {
      if (!toolName_ && !slot.value.extract<std::string>().empty()) toolName_ = slot.value.extract<std::string>();
      toolNameSlots_.push_back(std::move(slot));
    }
  }

  Poco::Dynamic::Var args;
  for (const char* key : {"arguments", "args", "input", "parameters"}) {
    JsonSlot slot;
    if (e.payload && memberSlot(payloadRoot, key, slot)) {
      args = slot.value;
      argsSource_ = std::move(slot);
      break;
    }
  }
  JsonSlot textArgs;
  if (!argsSource_ && e.metadata && memberSlot(metadataRoot, "gen_ai.tool.call.arguments", textArgs)) {
    args = textArgs.value;
    if (args.isString()) {
      try {
        Poco::JSON::Parser parser;
        parser.setDepth(64);
        auto parsed = parser.parse(args.extract<std::string>());
        if (isObject(parsed) || isArray(parsed)) {
          args = parsed;
          argsFromText_ = true;
        }
      } catch (...) {
        // Not JSON: the arguments are that text.
      }
    }
    argsSource_ = std::move(textArgs);
  }
  if (!argsSource_ && e.payload) args = Poco::Dynamic::Var(e.payload);  // the payload is the arguments
  originalArgs_ = args;
  toolCallObject_ = new Poco::JSON::Object;
  toolCallObject_->set("tool", toolName_ ? Poco::Dynamic::Var(*toolName_) : Poco::Dynamic::Var());
  toolCallObject_->set("args", args);
  toolCall_ = JsonSlot{"$", Poco::Dynamic::Var(toolCallObject_), noReplace};
}

void TargetView::sync() {
  if (target_ != Target::ToolCall || !toolCallObject_) return;
  auto tool = toolCallObject_->get("tool");
  std::string text;
  if (toolName_ && (!tool.isString() || tool.extract<std::string>() != *toolName_)) {
    for (auto& slot : toolNameSlots_)
      if (slot.value.isString() && slot.value.extract<std::string>() == *toolName_) slot.replace(tool);
  }
  auto args = toolCallObject_->get("args");
  if (argsFromText_) {
    argsSource_->replace(condensedArguments(args));  // nested changes went into the parsed copy
  } else if (argsSource_) {
    argsSource_->replace(args);
  } else if (!(isObject(args) && args.extract<Poco::JSON::Object::Ptr>() == event_->payload) && event_->payload) {
    // The payload itself was the arguments and was replaced whole: mask each member.
    std::vector<std::string> names;
    for (const auto& member : *event_->payload) names.push_back(member.first);
    for (const auto& name : names) event_->payload->set(name, args);
  }
}

std::vector<TargetView> viewsOf(EventDocument& event) {
  std::vector<TargetView> views;
  const auto& type = event.eventType;
  const bool otlpToolSpan = event.source == "otlp" &&
                            (stringMemberOf(event.metadata, "gen_ai.operation.name").value_or("") == "execute_tool" ||
                             stringMemberOf(event.metadata, "semantic_kind").value_or("") == "tool");
  if (type == "agent.tool_call.start" || otlpToolSpan) {
    views.emplace_back(Target::ToolCall, event, true);
  } else if (type == "agent.start") {
    views.emplace_back(Target::Request, event, true);
  } else if (type == "agent.end") {
    views.emplace_back(Target::Response, event, true);
  } else if (type == "agent.message") {
    if (stringMemberOf(event.payload, "role").value_or("") == "assistant") {
      views.emplace_back(Target::Response, event, true);
    } else {
      views.emplace_back(Target::Request, event, true);
      const auto messages = event.payload ? event.payload->getObject("messages") : nullptr;
      const auto output = messages ? messages->getArray("output") : nullptr;
      if ((output && output->size() > 0) || (event.metadata && (event.metadata->has("gen_ai.completion") ||
                                                                event.metadata->has("gen_ai.output.messages"))))
        views.emplace_back(Target::Response, event, false);
    }
  }
  return views;
}

}  // namespace aev::moderation

#include "telemetry/messages_from_text.h"

#include <deque>
#include <map>
#include <string_view>

#include "common/json_view.h"
#include "telemetry/message_spellings.h"

namespace aev::telemetry::from_text {

namespace {

using Poco::Dynamic::Var;
using Poco::JSON::Object;
using Node = std::uint32_t;

constexpr std::size_t kMaxIndex = 10000;  // indexed lists longer than this are cut (as the tree reader)
constexpr int kJsonDepth = 32;

// A value being read: a metadata value (text or a scalar; a flat member's string as the
// text itself, no Var made), a node of JSON text read into a JsonView, or nothing.
struct Value {
  const Var* var = nullptr;
  const JsonView* view = nullptr;
  Node node = 0;
  const std::string* text = nullptr;

  bool isMember() const { return var || text; }
};

// What the tree reader's type tests would say of a value. A metadata value that is an
// array or an object is the tree reader's to read.
enum class Shape { Empty, String, Scalar, Object, Array };

Shape shapeOf(const Value& v) {
  if (v.text) return Shape::String;
  if (v.var) {
    if (v.var->isEmpty()) return Shape::Empty;
    if (v.var->isString()) return Shape::String;
    const auto& type = v.var->type();
    if (type == typeid(bool) || type == typeid(Poco::Int64) || type == typeid(Poco::UInt64) || type == typeid(double))
      return Shape::Scalar;
    throw NeedsTree{};
  }
  if (!v.view) return Shape::Empty;
  switch (v.view->kind(v.node)) {
    case JsonView::Kind::Object:
      return Shape::Object;
    case JsonView::Kind::Array:
      return Shape::Array;
    case JsonView::Kind::String:
      return Shape::String;
    case JsonView::Kind::Null:
      return Shape::Empty;
    default:
      return Shape::Scalar;
  }
}

bool isEmpty(const Value& v) { return shapeOf(v) == Shape::Empty; }

// The members of one indexed message ("message.role" → its value), in key order.
using Members = std::map<std::string_view, Value>;
using Indexed = std::map<std::size_t, Members>;

// "<index>.<rest>" → index; false when the key does not start with an index.
bool splitIndex(std::string_view key, std::size_t from, std::size_t& index, std::string_view& rest) {
  std::size_t i = from;
  index = 0;
  while (i < key.size() && key[i] >= '0' && key[i] <= '9' && index < kMaxIndex) index = index * 10 + (key[i++] - '0');
  if (i == from || i >= key.size() || key[i] != '.' || index >= kMaxIndex) return false;
  rest = key.substr(i + 1);
  return true;
}

// The members under `prefix`, grouped by index (numeric order: 10 after 9; gaps allowed).
Indexed grouped(const Members& flat, std::string_view prefix) {
  Indexed out;
  for (const auto& [key, value] : flat) {
    if (key.substr(0, prefix.size()) != prefix) continue;
    std::size_t index = 0;
    std::string_view rest;
    if (splitIndex(key, prefix.size(), index, rest)) out[index][rest] = value;
  }
  return out;
}

Value at(const Members& members, const char* name) {
  auto it = members.find(name);
  return it == members.end() ? Value{} : it->second;
}

struct Content {
  std::optional<std::string> text;
  std::vector<ToolCall> toolCalls;
};

void appendText(Content& c, const std::string& text) {
  if (!c.text)
    c.text = text;
  else
    *c.text += "\n" + text;
}

// The metadata's message attributes, found in one pass over its members.
struct Sources {
  Value langfuseInput, langfuseOutput, inputMessages, outputMessages, systemInstructions, aiPromptMessages, aiPrompt,
      aiResponseText, aiResponseToolCalls, inputValue, outputValue, genAiPrompt, genAiCompletion;
  Members openInferenceInput, openInferenceOutput, openLlmetryPrompt, openLlmetryCompletion;
};

class Reader {
 public:
  // One pass over the metadata's members: each message attribute found, and every key
  // isMessageKey names, which takeMessages moves out.
  Reader(const Object& metadata, std::vector<std::string_view>& keys) {
    for (const auto& [key, value] : metadata)
      collect(
          key, [&value] { return Value{&value}; }, keys);
  }
  // The same over flat members: a string is read where it lives, any other value made a Var.
  Reader(const FlatMetadata& metadata, std::vector<std::string_view>& keys) {
    for (const auto& member : metadata.members())
      collect(
          member.key,
          [&] {
            if (const std::string* text = metadata.string(member)) return Value{nullptr, nullptr, 0, text};
            return Value{&vars_.emplace_back(metadata.value(member))};
          },
          keys);
  }

  std::vector<Message> input() {
    if (!isEmpty(s_.langfuseInput)) return messageList(s_.langfuseInput, "user");
    if (!isEmpty(s_.inputMessages)) {
      std::vector<Message> out;
      if (!isEmpty(s_.systemInstructions)) out.push_back(message("system", contentOf(s_.systemInstructions)));
      for (auto& m : messageList(s_.inputMessages, "user")) out.push_back(std::move(m));
      return out;
    }
    if (auto list = indexedList(s_.openInferenceInput, "llm.input_messages.", kOpenInference, "user"); !list.empty())
      return list;
    if (auto list = indexedList(s_.openLlmetryPrompt, "gen_ai.prompt.", kOpenLlmetry, "user"); !list.empty())
      return list;
    for (const Value* v : {&s_.aiPromptMessages, &s_.aiPrompt, &s_.inputValue, &s_.genAiPrompt})
      if (!isEmpty(*v)) return messageList(*v, "user");
    return {};
  }

  std::vector<Message> output() {
    for (const Value* v : {&s_.langfuseOutput, &s_.outputMessages})
      if (!isEmpty(*v)) return messageList(*v, "assistant");
    if (auto list = indexedList(s_.openInferenceOutput, "llm.output_messages.", kOpenInference, "assistant");
        !list.empty())
      return list;
    if (auto list = indexedList(s_.openLlmetryCompletion, "gen_ai.completion.", kOpenLlmetry, "assistant");
        !list.empty())
      return list;
    const Value text = s_.aiResponseText, calls = s_.aiResponseToolCalls;
    if (!isEmpty(text) || !isEmpty(calls)) {
      Content c = contentOf(text);
      if (const Value parsedCalls = parsed(calls); shapeOf(parsedCalls) == Shape::Array)
        forEachElement(parsedCalls, [&](const Value& call) {
          if (shapeOf(call) == Shape::Object)
            if (auto tc = toolCallOf(call)) c.toolCalls.push_back(std::move(*tc));
        });
      std::vector<Message> out;
      out.push_back(message("assistant", std::move(c)));
      return out;
    }
    for (const Value* v : {&s_.outputValue, &s_.genAiCompletion})
      if (!isEmpty(*v)) return messageList(*v, "assistant");
    return {};
  }

 private:
  // One member: where it goes if it is a message attribute (`valueOf` makes its value).
  template <typename ValueOf>
  void collect(std::string_view key, ValueOf valueOf, std::vector<std::string_view>& keys) {
    static constexpr std::string_view kOiInput = "llm.input_messages.", kOiOutput = "llm.output_messages.",
                                      kPrompt = "gen_ai.prompt.", kCompletion = "gen_ai.completion.";
    const std::pair<std::string_view, Value*> exact[] = {{"langfuse.observation.input", &s_.langfuseInput},
                                                         {"langfuse.observation.output", &s_.langfuseOutput},
                                                         {"gen_ai.input.messages", &s_.inputMessages},
                                                         {"gen_ai.output.messages", &s_.outputMessages},
                                                         {"gen_ai.system_instructions", &s_.systemInstructions},
                                                         {"ai.prompt.messages", &s_.aiPromptMessages},
                                                         {"ai.prompt", &s_.aiPrompt},
                                                         {"ai.response.text", &s_.aiResponseText},
                                                         {"ai.response.toolCalls", &s_.aiResponseToolCalls},
                                                         {"input.value", &s_.inputValue},
                                                         {"output.value", &s_.outputValue},
                                                         {"gen_ai.prompt", &s_.genAiPrompt},
                                                         {"gen_ai.completion", &s_.genAiCompletion},
                                                         {"input.mime_type", nullptr},
                                                         {"output.mime_type", nullptr}};
    static constexpr std::string_view kFinishReason = ".finish_reason";
    Members* family = nullptr;
    if (key.substr(0, kOiInput.size()) == kOiInput)
      family = &s_.openInferenceInput;
    else if (key.substr(0, kOiOutput.size()) == kOiOutput)
      family = &s_.openInferenceOutput;
    else if (key.substr(0, kPrompt.size()) == kPrompt)
      family = &s_.openLlmetryPrompt;
    else if (key.substr(0, kCompletion.size()) == kCompletion)
      family = &s_.openLlmetryCompletion;
    if (family) {
      family->emplace(key, valueOf());
      // The finish reasons of the indexed completion stay: telemetry, not text.
      const bool finishReason =
          key.size() >= kFinishReason.size() && key.substr(key.size() - kFinishReason.size()) == kFinishReason;
      if (!finishReason) keys.push_back(key);
      return;
    }
    for (const auto& [name, slot] : exact)
      if (key == name) {
        if (slot) *slot = valueOf();
        keys.push_back(key);
        return;
      }
  }

  // A String's value, valid as long as this reader.
  std::string_view stringOf(const Value& v) {
    if (v.text) return *v.text;
    if (v.var) return v.var->extract<std::string>();
    if (v.view->node(v.node).verbatim) return v.view->verbatimString(v.node);
    return strings_.emplace_back(v.view->string(v.node));
  }

  // JSON text as its value; anything else (plain text included) as itself. The strict
  // reader: text it refuses stays text, and a JSON string at the top stays text too.
  Value parsed(const Value& v) {
    if (shapeOf(v) != Shape::String) return v;
    const std::string_view s = stringOf(v);
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || (s[first] != '[' && s[first] != '{' && s[first] != '"')) return v;
    try {
      const JsonView& view = views_.emplace_back(s, kJsonDepth);
      if (view.kind(JsonView::kRoot) == JsonView::Kind::String) return v;
      return Value{nullptr, &view, JsonView::kRoot};
    } catch (...) {  // not JSON (as the tree reader, whatever parseJson throws)
      return v;
    }
  }

  static Value member(const Value& o, const char* name) {
    if (!o.view || o.view->kind(o.node) != JsonView::Kind::Object) return {};
    auto m = o.view->member(o.node, name);
    return m ? Value{nullptr, o.view, *m} : Value{};
  }
  static bool has(const Value& o, const char* name) { return member(o, name).view != nullptr; }

  template <typename F>
  static void forEachElement(const Value& array, F&& f) {
    const JsonView& view = *array.view;
    for (auto e = view.firstChild(array.node); e != view.endOf(array.node); e = view.nextSibling(e))
      f(Value{nullptr, &view, e});
  }

  // A scalar's text as Var::convert writes it.
  static std::string scalarText(const Value& v) {
    if (v.var) return v.var->convert<std::string>();
    switch (v.view->kind(v.node)) {
      case JsonView::Kind::True:
        return "true";
      case JsonView::Kind::False:
        return "false";
      case JsonView::Kind::Integer:
        return std::to_string(v.view->int64(v.node));
      default:
        return v.view->toVar(v.node).convert<std::string>();
    }
  }

  std::optional<std::string> textOf(const Value& v) {
    switch (shapeOf(v)) {
      case Shape::Empty:
        return std::nullopt;
      case Shape::String:
        return std::string(stringOf(v));
      case Shape::Scalar:
        return scalarText(v);
      default: {
        std::string out;
        v.view->appendCondensed(out, v.node);
        return out;
      }
    }
  }

  // Var::convert<std::string> of a role or a part type: a null, an array or an object is
  // the tree reader's (Poco's conversions of those are its own).
  std::string converted(const Value& v) {
    switch (shapeOf(v)) {
      case Shape::String:
        return std::string(stringOf(v));
      case Shape::Scalar:
        return scalarText(v);
      default:
        throw NeedsTree{};
    }
  }

  // {"id"?, "name", "arguments"?} with arguments as text.
  std::optional<ToolCall> toolCall(const Value& id, const Value& name, const Value& arguments) {
    auto n = textOf(name);
    if (!n || n->empty()) return std::nullopt;
    ToolCall call;
    call.id = textOf(id);
    call.name = std::move(*n);
    call.arguments = textOf(arguments);
    return call;
  }

  // One tool call in any of the shapes the conventions write: OpenAI {id, function:{name,
  // arguments}}, OTel part {type:"tool_call", id, name, arguments}, AI SDK {toolCallId,
  // toolName, args|input}.
  std::optional<ToolCall> toolCallOf(const Value& o) {
    if (const Value function = member(o, "function"); shapeOf(function) == Shape::Object)
      return toolCall(member(o, "id"), member(function, "name"), member(function, "arguments"));
    if (has(o, "toolName"))
      return toolCall(member(o, "toolCallId"), member(o, "toolName"),
                      has(o, "args") ? member(o, "args") : member(o, "input"));
    return toolCall(member(o, "id"), member(o, "name"), member(o, "arguments"));
  }

  // Content as text (text parts joined by newlines) and the tool calls among its parts.
  Content contentOf(const Value& raw) {
    Content c;
    const Value v = parsed(raw);
    const Shape shape = shapeOf(v);
    if (shape == Shape::Empty) return c;
    if (shape != Shape::Array) {
      if (shape == Shape::Object) {
        if (const Value text = member(v, "text"); shapeOf(text) == Shape::String)
          c.text = std::string(stringOf(text));
        else
          c.text = textOf(v);
      } else {
        c.text = textOf(v);
      }
      return c;
    }
    forEachElement(v, [&](const Value& part) {
      if (shapeOf(part) != Shape::Object) {
        if (auto t = textOf(part)) appendText(c, *t);
        return;
      }
      const std::string type = has(part, "type") ? converted(member(part, "type")) : "";
      if (type == "tool_call" || type == "tool-call" || type == "function_call") {
        if (auto call = toolCallOf(part)) c.toolCalls.push_back(std::move(*call));
      } else if (type == "tool_call_response" || type == "tool-result") {
        for (const char* key : {"response", "result", "output"})
          if (has(part, key)) {
            if (auto t = textOf(member(part, key))) appendText(c, *t);
            break;
          }
      } else if (const Value content = member(part, "content"); shapeOf(content) == Shape::String) {
        appendText(c, std::string(stringOf(content)));
      } else if (const Value text = member(part, "text"); shapeOf(text) == Shape::String) {
        appendText(c, std::string(stringOf(text)));
      }
    });
    return c;
  }

  Message message(const std::string& role, Content content, const Value& toolCallId = {}) {
    Message m;
    m.role = role.empty() ? std::string("user") : role;
    m.content = std::move(content.text);
    m.toolCalls = std::move(content.toolCalls);
    m.toolCallId = textOf(toolCallId);
    return m;
  }

  // One message object of OpenAI / OTel / AI SDK / Langfuse shape.
  Message messageOf(const Value& o, const std::string& defaultRole) {
    const std::string role = has(o, "role") ? converted(member(o, "role")) : defaultRole;
    Content c = contentOf(has(o, "parts") ? member(o, "parts") : member(o, "content"));
    if (const Value calls = member(o, "tool_calls"); shapeOf(calls) == Shape::Array)
      forEachElement(calls, [&](const Value& call) {
        if (shapeOf(call) == Shape::Object)
          if (auto tc = toolCallOf(call)) c.toolCalls.push_back(std::move(*tc));
      });
    return message(role, std::move(c), member(o, "tool_call_id"));
  }

  // A list of messages from any JSON shape: an array of messages (or of texts), an OpenAI
  // request {messages} or response {choices[].message}, a single message, or plain text.
  std::vector<Message> messageList(const Value& raw, const std::string& defaultRole) {
    std::vector<Message> out;
    const Value v = parsed(raw);
    const Shape shape = shapeOf(v);
    if (shape == Shape::Empty) return out;
    if (shape == Shape::Object) {
      if (const Value messages = member(v, "messages"); shapeOf(messages) == Shape::Array)
        return messageList(messages, defaultRole);
      if (const Value choices = member(v, "choices"); shapeOf(choices) == Shape::Array) {
        forEachElement(choices, [&](const Value& choice) {
          if (const Value m = member(choice, "message"); shapeOf(m) == Shape::Object)
            out.push_back(messageOf(m, "assistant"));
        });
        return out;
      }
      if (has(v, "role") || has(v, "parts")) {
        out.push_back(messageOf(v, defaultRole));
        return out;
      }
      // {system?, prompt?} (ai.prompt) or any other object: its text.
      if (has(v, "system")) out.push_back(message("system", contentOf(member(v, "system"))));
      if (has(v, "prompt")) out.push_back(message(defaultRole, contentOf(member(v, "prompt"))));
      if (out.empty()) out.push_back(message(defaultRole, contentOf(v)));
      return out;
    }
    if (shape == Shape::Array) {
      forEachElement(v, [&](const Value& item) {
        if (shapeOf(item) == Shape::Object)
          out.push_back(messageOf(item, defaultRole));
        else
          out.push_back(message(defaultRole, contentOf(item)));
      });
      return out;
    }
    out.push_back(message(defaultRole, contentOf(v)));
    return out;
  }

  std::vector<Message> indexedList(const Members& flat, std::string_view family, const MessageSpelling& d,
                                   const std::string& defaultRole) {
    std::vector<Message> out;
    if (flat.empty()) return out;
    for (const auto& [index, members] : grouped(flat, family)) {
      const Value role = at(members, d.role);
      const std::string name = isEmpty(role) ? defaultRole : converted(role);
      Content c = contentOf(at(members, d.content));
      if (d.contents)
        for (const auto& [k, part] : grouped(members, d.contents)) {
          const Value text = at(part, d.contentText);
          if (text.isMember())
            if (auto t = textOf(text)) appendText(c, *t);
        }
      for (const auto& [k, call] : grouped(members, d.toolCalls))
        if (auto tc = toolCall(at(call, d.callId), at(call, d.callName), at(call, d.callArguments)))
          c.toolCalls.push_back(std::move(*tc));
      if (!c.text && c.toolCalls.empty() && isEmpty(role)) continue;  // finish_reason only
      out.push_back(message(name, std::move(c), at(members, d.toolCallId)));
    }
    return out;
  }

  Sources s_;
  std::deque<Var> vars_;             // flat members' values that are not strings
  std::deque<std::string> strings_;  // decoded strings the views read
  std::deque<JsonView> views_;       // the JSON texts read, each value's nodes
};

}  // namespace

namespace {

MessageLists listsOf(Reader& reader) {
  MessageLists lists;
  lists.input = reader.input();
  lists.output = reader.output();
  return lists;
}

}  // namespace

MessageLists readMessages(const Object& metadata, std::vector<std::string_view>& keys) {
  Reader reader(metadata, keys);
  return listsOf(reader);
}

MessageLists readMessages(const FlatMetadata& metadata, std::vector<std::string_view>& keys) {
  Reader reader(metadata, keys);
  return listsOf(reader);
}

MessageLists readMessages(const Object& metadata, std::vector<std::string>* keys) {
  std::vector<std::string_view> views;
  auto lists = readMessages(metadata, views);
  if (keys) keys->assign(views.begin(), views.end());
  return lists;
}

}  // namespace aev::telemetry::from_text

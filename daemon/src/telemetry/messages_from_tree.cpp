#include "telemetry/messages_from_tree.h"

#include <Poco/JSON/Array.h>

#include <algorithm>
#include <map>
#include <vector>

#include "common/json_condense.h"
#include "common/json_parse.h"
#include "telemetry/message_spellings.h"

namespace aev::telemetry::from_tree {

namespace {

using Poco::Dynamic::Var;
using Poco::JSON::Array;
using Poco::JSON::Object;

constexpr std::size_t kMaxIndex = 10000;  // indexed lists longer than this are cut
constexpr int kJsonDepth = 32;

bool startsWith(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

std::string condensedContent(const Var& v) { return condensedJsonAnyOrder(v); }

bool isObject(const Var& v) { return v.type() == typeid(Object::Ptr) && !v.extract<Object::Ptr>().isNull(); }
bool isArray(const Var& v) { return v.type() == typeid(Array::Ptr) && !v.extract<Array::Ptr>().isNull(); }

// JSON text as its value; anything else (plain text included) as itself.
Var parsed(const Var& v) {
  if (!v.isString()) return v;
  const auto& s = v.extract<std::string>();
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || (s[first] != '[' && s[first] != '{' && s[first] != '"')) return v;
  try {
    // The strict reader of request bodies: JSON text it refuses (ill-formed UTF-8, \u0000,
    // unpaired surrogates) stays text, as anything else that is not JSON does. A JSON
    // string at the top ("\"hi\"") stays text too, as Poco's parser left it before.
    auto value = parseJson(s, kJsonDepth);
    return value.isString() ? v : value;
  } catch (...) {
    return v;
  }
}

std::optional<std::string> textOf(const Var& v) {
  if (v.isEmpty()) return std::nullopt;
  if (v.isString()) return v.extract<std::string>();
  if (isObject(v) || isArray(v)) return condensedContent(v);
  return v.convert<std::string>();
}

Object::Ptr member(const Object::Ptr& o, const char* key) { return o && o->has(key) ? o->getObject(key) : nullptr; }

Var get(const Object::Ptr& o, const char* key) { return o && o->has(key) ? o->get(key) : Var(); }

// {"id"?, "name", "arguments"?} with arguments as text.
Object::Ptr toolCall(const Var& id, const Var& name, const Var& arguments) {
  auto n = textOf(name);
  if (!n || n->empty()) return nullptr;
  Object::Ptr call = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
  if (auto i = textOf(id)) call->set("id", *i);
  call->set("name", *n);
  if (auto a = textOf(arguments)) call->set("arguments", *a);
  return call;
}

// One tool call in any of the shapes the conventions write: OpenAI {id, function:{name,
// arguments}}, OTel part {type:"tool_call", id, name, arguments}, AI SDK {toolCallId,
// toolName, args|input}.
Object::Ptr toolCallOf(const Object::Ptr& o) {
  if (auto function = member(o, "function"))
    return toolCall(get(o, "id"), get(function, "name"), get(function, "arguments"));
  if (o->has("toolName"))
    return toolCall(get(o, "toolCallId"), get(o, "toolName"), o->has("args") ? get(o, "args") : get(o, "input"));
  return toolCall(get(o, "id"), get(o, "name"), get(o, "arguments"));
}

struct Content {
  std::optional<std::string> text;
  Array::Ptr toolCalls = new Array;
};

void appendText(Content& c, const std::string& text) {
  if (!c.text)
    c.text = text;
  else
    *c.text += "\n" + text;
}

// Content as text (text parts joined by newlines) and the tool calls among its parts.
Content contentOf(const Var& raw) {
  Content c;
  const Var v = parsed(raw);
  if (v.isEmpty()) return c;
  if (!isArray(v)) {
    if (isObject(v)) {
      const auto o = v.extract<Object::Ptr>();
      if (o->has("text") && o->get("text").isString())
        c.text = o->getValue<std::string>("text");
      else
        c.text = condensedContent(v);
    } else {
      c.text = textOf(v);
    }
    return c;
  }
  const auto parts = v.extract<Array::Ptr>();
  for (std::size_t i = 0; i < parts->size(); ++i) {
    const Var part = parts->get(i);
    if (!isObject(part)) {
      if (auto t = textOf(part)) appendText(c, *t);
      continue;
    }
    const auto p = part.extract<Object::Ptr>();
    const std::string type = p->has("type") ? p->get("type").convert<std::string>() : "";
    if (type == "tool_call" || type == "tool-call" || type == "function_call") {
      if (auto call = toolCallOf(p)) c.toolCalls->add(call);
    } else if (type == "tool_call_response" || type == "tool-result") {
      for (const char* key : {"response", "result", "output"})
        if (p->has(key)) {
          if (auto t = textOf(p->get(key))) appendText(c, *t);
          break;
        }
    } else if (p->has("content") && p->get("content").isString()) {
      appendText(c, p->getValue<std::string>("content"));
    } else if (p->has("text") && p->get("text").isString()) {
      appendText(c, p->getValue<std::string>("text"));
    }
  }
  return c;
}

Object::Ptr message(const std::string& role, const Content& content, const Var& toolCallId = Var()) {
  Object::Ptr m = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
  m->set("role", role.empty() ? std::string("user") : role);
  m->set("content", content.text ? Var(*content.text) : Var());
  if (content.toolCalls->size() > 0) m->set("toolCalls", content.toolCalls);
  if (auto id = textOf(toolCallId)) m->set("toolCallId", *id);
  return m;
}

// One message object of OpenAI / OTel / AI SDK / Langfuse shape.
Object::Ptr messageOf(const Object::Ptr& o, const std::string& defaultRole) {
  const std::string role = o->has("role") ? o->get("role").convert<std::string>() : defaultRole;
  Content c = contentOf(o->has("parts") ? o->get("parts") : get(o, "content"));
  if (o->has("tool_calls") && isArray(o->get("tool_calls"))) {
    auto calls = o->getArray("tool_calls");
    for (std::size_t i = 0; i < calls->size(); ++i)
      if (isObject(calls->get(i)))
        if (auto call = toolCallOf(calls->getObject(i))) c.toolCalls->add(call);
  }
  return message(role, c, get(o, "tool_call_id"));
}

// A list of messages from any JSON shape: an array of messages (or of texts), an OpenAI
// request {messages} or response {choices[].message}, a single message, or plain text.
Array::Ptr messageList(const Var& raw, const std::string& defaultRole) {
  Array::Ptr out = new Array;
  const Var v = parsed(raw);
  if (v.isEmpty()) return out;
  if (isObject(v)) {
    const auto o = v.extract<Object::Ptr>();
    if (o->has("messages") && isArray(o->get("messages"))) return messageList(o->get("messages"), defaultRole);
    if (o->has("choices") && isArray(o->get("choices"))) {
      auto choices = o->getArray("choices");
      for (std::size_t i = 0; i < choices->size(); ++i)
        if (auto m = member(choices->getObject(i), "message")) out->add(messageOf(m, "assistant"));
      return out;
    }
    if (o->has("role") || o->has("parts")) {
      out->add(messageOf(o, defaultRole));
      return out;
    }
    // {system?, prompt?} (ai.prompt) or any other object: its text.
    if (o->has("system")) out->add(message("system", contentOf(o->get("system"))));
    if (o->has("prompt")) out->add(message(defaultRole, contentOf(o->get("prompt"))));
    if (out->size() == 0) out->add(message(defaultRole, contentOf(v)));
    return out;
  }
  if (isArray(v)) {
    auto array = v.extract<Array::Ptr>();
    for (std::size_t i = 0; i < array->size(); ++i) {
      const Var item = array->get(i);
      if (isObject(item))
        out->add(messageOf(item.extract<Object::Ptr>(), defaultRole));
      else
        out->add(message(defaultRole, contentOf(item)));
    }
    return out;
  }
  out->add(message(defaultRole, contentOf(v)));
  return out;
}

// ------------------------------------------------------------------ indexed families

// "<index>.<rest>" → index; false when the key does not start with an index.
bool splitIndex(const std::string& key, std::size_t from, std::size_t& index, std::string& rest) {
  std::size_t i = from;
  index = 0;
  while (i < key.size() && key[i] >= '0' && key[i] <= '9' && index < kMaxIndex) index = index * 10 + (key[i++] - '0');
  if (i == from || i >= key.size() || key[i] != '.' || index >= kMaxIndex) return false;
  rest = key.substr(i + 1);
  return true;
}

using Members = std::map<std::string, Var>;

// The members under `prefix`, grouped by index (numeric order: 10 after 9; gaps allowed).
std::map<std::size_t, Members> grouped(const Members& flat, const std::string& prefix) {
  std::map<std::size_t, Members> out;
  for (const auto& [key, value] : flat) {
    if (!startsWith(key, prefix)) continue;
    std::size_t index = 0;
    std::string rest;
    if (splitIndex(key, prefix.size(), index, rest)) out[index][rest] = value;
  }
  return out;
}

Array::Ptr indexedList(const Object& metadata, const std::string& family, const MessageSpelling& d,
                       const std::string& defaultRole) {
  Members flat;
  for (const auto& [key, value] : metadata)
    if (startsWith(key, family)) flat[key] = value;
  Array::Ptr out = new Array;
  if (flat.empty()) return out;
  for (const auto& [index, members] : grouped(flat, family)) {
    const auto at = [&](const char* name) {
      auto it = members.find(name);
      return it == members.end() ? Var() : it->second;
    };
    const std::string role = at(d.role).isEmpty() ? defaultRole : at(d.role).convert<std::string>();
    Content c = contentOf(at(d.content));
    if (d.contents)
      for (const auto& [k, part] : grouped(members, d.contents)) {
        auto it = part.find(d.contentText);
        if (it != part.end())
          if (auto t = textOf(it->second)) appendText(c, *t);
      }
    for (const auto& [k, call] : grouped(members, d.toolCalls)) {
      const auto field = [&](const char* name) {
        auto it = call.find(name);
        return it == call.end() ? Var() : it->second;
      };
      if (auto tc = toolCall(field(d.callId), field(d.callName), field(d.callArguments))) c.toolCalls->add(tc);
    }
    if (!c.text && c.toolCalls->size() == 0 && at(d.role).isEmpty()) continue;  // finish_reason only
    out->add(message(role, c, at(d.toolCallId)));
  }
  return out;
}

// ------------------------------------------------------------------ sides

Var flatValue(const Object& metadata, const char* key) { return metadata.has(key) ? metadata.get(key) : Var(); }

Array::Ptr inputOf(const Object& metadata) {
  if (auto v = flatValue(metadata, "langfuse.observation.input"); !v.isEmpty()) return messageList(v, "user");
  if (auto v = flatValue(metadata, "gen_ai.input.messages"); !v.isEmpty()) {
    Array::Ptr out = new Array;
    if (auto system = flatValue(metadata, "gen_ai.system_instructions"); !system.isEmpty())
      out->add(message("system", contentOf(system)));
    auto list = messageList(v, "user");
    for (std::size_t i = 0; i < list->size(); ++i) out->add(list->get(i));
    return out;
  }
  if (auto list = indexedList(metadata, "llm.input_messages.", kOpenInference, "user"); list->size() > 0) return list;
  if (auto list = indexedList(metadata, "gen_ai.prompt.", kOpenLlmetry, "user"); list->size() > 0) return list;
  if (auto v = flatValue(metadata, "ai.prompt.messages"); !v.isEmpty()) return messageList(v, "user");
  if (auto v = flatValue(metadata, "ai.prompt"); !v.isEmpty()) return messageList(v, "user");
  if (auto v = flatValue(metadata, "input.value"); !v.isEmpty()) return messageList(v, "user");
  if (auto v = flatValue(metadata, "gen_ai.prompt"); !v.isEmpty()) return messageList(v, "user");
  return new Array;
}

Array::Ptr outputOf(const Object& metadata) {
  if (auto v = flatValue(metadata, "langfuse.observation.output"); !v.isEmpty()) return messageList(v, "assistant");
  if (auto v = flatValue(metadata, "gen_ai.output.messages"); !v.isEmpty()) return messageList(v, "assistant");
  if (auto list = indexedList(metadata, "llm.output_messages.", kOpenInference, "assistant"); list->size() > 0)
    return list;
  if (auto list = indexedList(metadata, "gen_ai.completion.", kOpenLlmetry, "assistant"); list->size() > 0) return list;
  const Var text = flatValue(metadata, "ai.response.text");
  const Var calls = flatValue(metadata, "ai.response.toolCalls");
  if (!text.isEmpty() || !calls.isEmpty()) {
    Content c = contentOf(text);
    if (const Var parsedCalls = parsed(calls); isArray(parsedCalls)) {
      auto array = parsedCalls.extract<Array::Ptr>();
      for (std::size_t i = 0; i < array->size(); ++i)
        if (isObject(array->get(i)))
          if (auto call = toolCallOf(array->getObject(i))) c.toolCalls->add(call);
    }
    Array::Ptr out = new Array;
    out->add(message("assistant", c));
    return out;
  }
  if (auto v = flatValue(metadata, "output.value"); !v.isEmpty()) return messageList(v, "assistant");
  if (auto v = flatValue(metadata, "gen_ai.completion"); !v.isEmpty()) return messageList(v, "assistant");
  return new Array;
}

// The lists' Poco messages (built by message() above, so every member has its type) as structs.
std::vector<Message> listOf(const Array::Ptr& array) {
  std::vector<Message> out;
  out.reserve(array->size());
  for (std::size_t i = 0; i < array->size(); ++i) {
    const auto m = array->getObject(i);
    Message message;
    message.role = m->getValue<std::string>("role");
    if (m->get("content").isString()) message.content = m->getValue<std::string>("content");
    if (auto calls = m->getArray("toolCalls"))
      for (std::size_t k = 0; k < calls->size(); ++k) {
        const auto call = calls->getObject(k);
        ToolCall c;
        if (call->has("id")) c.id = call->getValue<std::string>("id");
        c.name = call->getValue<std::string>("name");
        if (call->has("arguments")) c.arguments = call->getValue<std::string>("arguments");
        message.toolCalls.push_back(std::move(c));
      }
    if (m->has("toolCallId")) message.toolCallId = m->getValue<std::string>("toolCallId");
    out.push_back(std::move(message));
  }
  return out;
}

}  // namespace

MessageLists readMessages(const Object& metadata) {
  MessageLists lists;
  lists.input = listOf(inputOf(metadata));
  lists.output = listOf(outputOf(metadata));
  return lists;
}

}  // namespace aev::telemetry::from_tree

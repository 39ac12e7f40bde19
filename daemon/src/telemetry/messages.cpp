#include "telemetry/messages.h"

#include <Poco/JSON/Array.h>

#include <algorithm>
#include <string_view>

#include "common/json_condense.h"
#include "telemetry/conventions.h"
#include "telemetry/messages_from_text.h"
#include "telemetry/messages_from_tree.h"

namespace aev::telemetry {

namespace {

using Poco::JSON::Array;
using Poco::JSON::Object;

// Exact keys that carry messages (either side), and indexed families.
constexpr std::string_view kMessageKeys[] = {"langfuse.observation.input",
                                             "langfuse.observation.output",
                                             "gen_ai.input.messages",
                                             "gen_ai.output.messages",
                                             "gen_ai.system_instructions",
                                             "ai.prompt.messages",
                                             "ai.prompt",
                                             "ai.response.text",
                                             "ai.response.toolCalls",
                                             "input.value",
                                             "output.value",
                                             "input.mime_type",
                                             "output.mime_type",
                                             "gen_ai.prompt",
                                             "gen_ai.completion"};
constexpr std::string_view kIndexedFamilies[] = {"llm.input_messages.", "llm.output_messages.", "gen_ai.prompt.",
                                                 "gen_ai.completion."};

bool hasPrefix(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool hasSuffix(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

std::string_view keyOf(const Object::ValueType& member) { return member.first; }
std::string_view keyOf(const conventions::FlatMember& member) { return member.key; }
const Object& membersOf(const Object& metadata) { return metadata; }
const std::vector<conventions::FlatMember>& membersOf(const FlatMetadata& metadata) { return metadata.members(); }

// Whether any key of `members` holds message text, and then whether the event is an LLM call
// (`kind`: the convention table's reading, asked only then).
template <typename Members, typename KindOf>
bool carriesMessagesIn(const Members& members, const std::string& eventType, KindOf kind) {
  const bool any = std::any_of(members.begin(), members.end(), [](const auto& member) {
    const std::string_view key = keyOf(member);
    return isMessageKey(key) && key != "input.mime_type" && key != "output.mime_type";
  });
  return any && (eventType == "agent.message" || kind() == conventions::Kind::Llm);
}

void boundList(std::vector<Message>& messages, std::size_t& budget) {
  for (auto& m : messages) {
    if (m.content) m.content = bounded(*m.content, budget);
    for (auto& call : m.toolCalls)
      if (call.arguments) call.arguments = bounded(*call.arguments, budget);
  }
}

void appendList(std::string& out, const std::vector<Message>& messages) {
  out += '[';
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const auto& m = messages[i];
    if (i) out += ',';
    out += "{\"role\":";
    appendPocoJsonString(out, m.role);
    out += ",\"content\":";
    if (m.content)
      appendPocoJsonString(out, *m.content);
    else
      out += "null";
    if (!m.toolCalls.empty()) {
      out += ",\"toolCalls\":[";
      for (std::size_t k = 0; k < m.toolCalls.size(); ++k) {
        const auto& call = m.toolCalls[k];
        if (k) out += ',';
        out += '{';
        if (call.id) {
          out += "\"id\":";
          appendPocoJsonString(out, *call.id);
          out += ',';
        }
        out += "\"name\":";
        appendPocoJsonString(out, call.name);
        if (call.arguments) {
          out += ",\"arguments\":";
          appendPocoJsonString(out, *call.arguments);
        }
        out += '}';
      }
      out += ']';
    }
    if (m.toolCallId) {
      out += ",\"toolCallId\":";
      appendPocoJsonString(out, *m.toolCallId);
    }
    out += '}';
  }
  out += ']';
}

Array::Ptr arrayOf(const std::vector<Message>& messages) {
  Array::Ptr out = new Array;
  for (const auto& m : messages) {
    Object::Ptr o = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    o->set("role", m.role);
    o->set("content", m.content ? Poco::Dynamic::Var(*m.content) : Poco::Dynamic::Var());
    if (!m.toolCalls.empty()) {
      Array::Ptr calls = new Array;
      for (const auto& call : m.toolCalls) {
        Object::Ptr c = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
        if (call.id) c->set("id", *call.id);
        c->set("name", call.name);
        if (call.arguments) c->set("arguments", *call.arguments);
        calls->add(c);
      }
      o->set("toolCalls", calls);
    }
    if (m.toolCallId) o->set("toolCallId", *m.toolCallId);
    out->add(o);
  }
  return out;
}

bool isHandoffRequest(const std::string& tool) { return hasPrefix(tool, "transfer_to_"); }  // the Agents SDK's

}  // namespace

bool isMessageKey(std::string_view key) {
  // The finish reasons of the indexed completion stay: they are telemetry, not text.
  for (const auto k : kMessageKeys)
    if (key == k) return true;
  for (const auto family : kIndexedFamilies)
    if (hasPrefix(key, family) && !hasSuffix(key, ".finish_reason")) return true;
  return false;
}

std::string bounded(const std::string& text, std::size_t& budget) {
  std::size_t chars = 0, cut = text.size();
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // continuation byte
    if (chars == budget) {
      cut = i;
      break;
    }
    ++chars;
  }
  if (cut == text.size()) {
    budget -= chars;
    return text;
  }
  std::size_t rest = 0;
  for (std::size_t i = cut; i < text.size(); ++i) rest += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  budget = 0;
  return text.substr(0, cut) + "\xE2\x80\xA6[+" + std::to_string(rest) + " chars]";
}

void MessageLists::bound(std::size_t maxChars) {
  std::size_t budget = maxChars;
  boundList(input, budget);
  boundList(output, budget);
}

void MessageLists::appendJson(std::string& out) const {
  out += "{\"input\":";
  appendList(out, input);
  out += ",\"output\":";
  appendList(out, output);
  out += '}';
}

Poco::JSON::Object::Ptr MessageLists::toObject() const {
  Object::Ptr messages = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
  messages->set("input", arrayOf(input));
  messages->set("output", arrayOf(output));
  return messages;
}

std::optional<std::string> MessageLists::requestedTool() const {
  for (const auto& m : output)
    for (const auto& call : m.toolCalls)
      if (!isHandoffRequest(call.name)) return call.name;
  return std::nullopt;
}

bool carriesMessages(const Poco::JSON::Object::Ptr& metadata, const std::string& eventType,
                     const std::string& identifier) {
  if (!metadata) return false;
  return carriesMessagesIn(membersOf(*metadata), eventType, [&] { return conventions::kindOf(metadata, identifier); });
}

bool carriesMessages(const FlatMetadata& metadata, const std::string& eventType, const std::string& identifier) {
  return carriesMessagesIn(membersOf(metadata), eventType,
                           [&] { return conventions::kindOf(metadata.lookup(), identifier); });
}

namespace {

MessageLists treeRead(const Object& metadata) { return from_tree::readMessages(metadata); }
MessageLists treeRead(const FlatMetadata& metadata) { return from_tree::readMessages(*metadata.toObject()); }

void removeKeys(Object& metadata, const std::vector<std::string_view>& keys) {
  for (const auto key : keys) metadata.remove(std::string(key));
}
void removeKeys(FlatMetadata& metadata, const std::vector<std::string_view>& keys) { metadata.remove(keys); }

template <typename Metadata>
std::optional<MessageLists> takeFrom(Metadata& metadata, std::size_t maxChars) {
  std::optional<MessageLists> lists;
  std::vector<std::string_view> keys;  // the message keys to move out (isMessageKey's), in key order
  try {
    try {
      lists = from_text::readMessages(metadata, keys);
    } catch (const from_text::NeedsTree&) {
      lists = treeRead(metadata);
      keys.clear();
      for (const auto& member : membersOf(metadata))
        if (isMessageKey(keyOf(member))) keys.push_back(keyOf(member));
    }
  } catch (const Poco::Exception&) {
    return std::nullopt;  // not readable as messages: left as they came
  }
  if (lists->empty()) return std::nullopt;
  lists->bound(maxChars);
  removeKeys(metadata, keys);
  return lists;
}

}  // namespace

std::optional<MessageLists> takeMessages(Poco::JSON::Object& metadata, std::size_t maxChars) {
  return takeFrom(metadata, maxChars);
}

std::optional<MessageLists> takeMessages(FlatMetadata& metadata, std::size_t maxChars) {
  return takeFrom(metadata, maxChars);
}

std::optional<std::string> requestedTool(const Poco::JSON::Object::Ptr& messages) {
  if (!messages) return std::nullopt;
  auto output = messages->getArray("output");
  if (!output) return std::nullopt;
  for (std::size_t i = 0; i < output->size(); ++i) {
    auto m = output->getObject(i);
    auto calls = m ? m->getArray("toolCalls") : nullptr;
    if (!calls) continue;
    for (std::size_t k = 0; k < calls->size(); ++k) {
      auto call = calls->getObject(k);
      if (!call || !call->has("name")) continue;
      const auto name = call->getValue<std::string>("name");
      if (!isHandoffRequest(name)) return name;
    }
  }
  return std::nullopt;
}

}  // namespace aev::telemetry

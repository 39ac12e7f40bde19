#include "store/trace_texts.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <string_view>

#include "common/json_text.h"

namespace aev::store {

namespace {

using Poco::JSON::Array;
using Poco::JSON::Object;

std::optional<std::string> stringMember(const Object::Ptr& o, const char* name) {
  if (!o || !o->has(name)) return std::nullopt;
  auto v = o->get(name);
  if (!v.isString()) return std::nullopt;
  auto text = v.extract<std::string>();
  if (text.empty()) return std::nullopt;
  return text;
}

std::optional<std::string> bounded(std::optional<std::string> text) {
  if (text && text->size() > kTraceTextChars) *text = firstChars(*text, kTraceTextChars);
  return text;
}

// The content of the last message with role "user" (else of the last message with content).
std::optional<std::string> lastUserContent(const Array::Ptr& messages) {
  if (!messages) return std::nullopt;
  std::optional<std::string> anyContent;
  for (std::size_t i = messages->size(); i-- > 0;) {
    auto m = messages->getObject(static_cast<unsigned>(i));
    auto content = stringMember(m, "content");
    if (!content) continue;
    if (stringMember(m, "role") == std::optional<std::string>("user")) return content;
    if (!anyContent) anyContent = content;
  }
  return anyContent;
}

// The output messages' contents, one per line; a call that only asked for tools is named by them.
std::optional<std::string> outputContent(const Array::Ptr& messages) {
  if (!messages) return std::nullopt;
  std::string text, tools;
  for (std::size_t i = 0; i < messages->size(); ++i) {
    auto m = messages->getObject(static_cast<unsigned>(i));
    if (auto content = stringMember(m, "content")) text += (text.empty() ? "" : "\n") + *content;
    auto calls = m ? m->getArray("toolCalls") : nullptr;
    for (std::size_t k = 0; calls && k < calls->size(); ++k)
      if (auto name = stringMember(calls->getObject(static_cast<unsigned>(k)), "name"))
        tools += (tools.empty() ? "" : ", ") + *name;
  }
  if (!text.empty()) return text;
  if (!tools.empty()) return "tool calls: " + tools;
  return std::nullopt;
}

bool mentions(const std::string& json, std::string_view key) { return json.find(key) != std::string::npos; }

}  // namespace

ConversationTexts conversationTexts(const std::string& payloadJson, bool toolCall) {
  const bool messages = mentions(payloadJson, "\"messages\"");
  if (!messages && (toolCall || !(mentions(payloadJson, "\"input\"") || mentions(payloadJson, "\"output\"") ||
                                  mentions(payloadJson, "\"prompt\"") || mentions(payloadJson, "\"completion\""))))
    return {};
  Object::Ptr payload;
  try {
    payload = Poco::JSON::Parser().parse(payloadJson).extract<Object::Ptr>();
  } catch (...) {
    return {};
  }
  if (!payload) return {};
  ConversationTexts out;
  if (auto normalized = payload->getObject("messages")) {
    out.input = lastUserContent(normalized->getArray("input"));
    out.output = outputContent(normalized->getArray("output"));
  }
  if (!toolCall) {
    if (!out.input) out.input = stringMember(payload, "input");
    if (!out.input) out.input = stringMember(payload, "prompt");
    if (!out.output) out.output = stringMember(payload, "output");
    if (!out.output) out.output = stringMember(payload, "completion");
  }
  out.input = bounded(std::move(out.input));
  out.output = bounded(std::move(out.output));
  return out;
}

std::string firstChars(const std::string& text, std::size_t chars) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    // A byte that is not a continuation byte starts a character.
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && seen++ == chars) return text.substr(0, i);
  }
  return text;
}

std::string previewLine(const std::string& text) {
  std::string line;
  bool space = false;
  for (char ch : text) {
    if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t' || ch == '\f' || ch == '\v') {
      space = !line.empty();
      continue;
    }
    if (space) line += ' ', space = false;
    line += ch;
  }
  auto cut = firstChars(line, kTracePreviewChars);
  if (cut.size() < line.size()) cut = firstChars(cut, kTracePreviewChars - 1) + "\xE2\x80\xA6";  // …
  return cut;
}

std::string tagsJson(const std::map<std::string, std::string>& tags) {
  std::string out = "{";
  for (const auto& [key, value] : tags) {
    if (out.size() > 1) out += ',';
    appendJsonString(out, key);
    out += ':';
    appendJsonString(out, value);
  }
  return out + "}";
}

std::map<std::string, std::string> tagsFromJson(const std::string& text) {
  std::map<std::string, std::string> out;
  try {
    auto obj = Poco::JSON::Parser().parse(text).extract<Object::Ptr>();
    for (const auto& [key, value] : *obj) out[key] = value.isString() ? value.extract<std::string>() : value.toString();
  } catch (...) {
  }
  return out;
}

}  // namespace aev::store

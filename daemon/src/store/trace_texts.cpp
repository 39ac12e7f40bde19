#include "store/trace_texts.h"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/json_text.h"
#include "common/json_view.h"

namespace aev::store {

namespace {

// Read with the flat JsonView rather than a Poco tree: this runs for every LLM call a
// publish stores, and building and freeing the payload's tree cost ~15 % of an OTLP
// span's writer time (bench/NOTEBOOK.md, 2026-11-28). Same answers: the last of duplicate
// members wins, as in Poco; a member of another kind counts as absent.
using Node = std::uint32_t;
using Kind = JsonView::Kind;
// Stored payloads passed the publish path's own depth limit; this reader must not refuse one.
constexpr int kPayloadMaxDepth = 1024;

std::optional<Node> memberOfKind(const JsonView& v, std::optional<Node> object, std::string_view name, Kind kind) {
  if (!object || v.kind(*object) != Kind::Object) return std::nullopt;
  auto m = v.member(*object, name);
  if (!m || v.kind(*m) != kind) return std::nullopt;
  return m;
}

std::optional<std::string> stringMember(const JsonView& v, std::optional<Node> object, std::string_view name) {
  auto m = memberOfKind(v, object, name, Kind::String);
  if (!m) return std::nullopt;
  auto text = v.string(*m);
  if (text.empty()) return std::nullopt;
  return text;
}

std::vector<Node> elementsOf(const JsonView& v, std::optional<Node> array) {
  std::vector<Node> out;
  if (!array) return out;
  for (Node i = v.firstChild(*array); i != v.endOf(*array); i = v.nextSibling(i)) out.push_back(i);
  return out;
}

std::optional<std::string> bounded(std::optional<std::string> text) {
  if (text && text->size() > kTraceTextChars) *text = firstChars(*text, kTraceTextChars);
  return text;
}

// The content of the last message with role "user" (else of the last message with content).
std::optional<std::string> lastUserContent(const JsonView& v, std::optional<Node> messages) {
  std::optional<std::string> anyContent;
  const auto elements = elementsOf(v, messages);
  for (auto it = elements.rbegin(); it != elements.rend(); ++it) {
    auto content = stringMember(v, *it, "content");
    if (!content) continue;
    if (stringMember(v, *it, "role") == std::optional<std::string>("user")) return content;
    if (!anyContent) anyContent = content;
  }
  return anyContent;
}

// The output messages' contents, one per line; a call that only asked for tools is named by them.
std::optional<std::string> outputContent(const JsonView& v, std::optional<Node> messages) {
  std::string text, tools;
  for (const Node m : elementsOf(v, messages)) {
    if (auto content = stringMember(v, m, "content")) {
      if (!text.empty()) text += '\n';
      text += *content;
    }
    for (const Node call : elementsOf(v, memberOfKind(v, m, "toolCalls", Kind::Array)))
      if (auto name = stringMember(v, call, "name")) {
        if (!tools.empty()) tools += ", ";
        tools += *name;
      }
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
  std::optional<JsonView> parsed;
  try {
    parsed.emplace(payloadJson, kPayloadMaxDepth);
  } catch (...) {
    return {};
  }
  const JsonView& v = *parsed;
  if (v.kind(JsonView::kRoot) != Kind::Object) return {};
  ConversationTexts out;
  if (auto normalized = memberOfKind(v, JsonView::kRoot, "messages", Kind::Object)) {
    out.input = lastUserContent(v, memberOfKind(v, normalized, "input", Kind::Array));
    out.output = outputContent(v, memberOfKind(v, normalized, "output", Kind::Array));
  }
  if (!toolCall) {
    if (!out.input) out.input = stringMember(v, JsonView::kRoot, "input");
    if (!out.input) out.input = stringMember(v, JsonView::kRoot, "prompt");
    if (!out.output) out.output = stringMember(v, JsonView::kRoot, "output");
    if (!out.output) out.output = stringMember(v, JsonView::kRoot, "completion");
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
    auto obj = Poco::JSON::Parser().parse(text).extract<Poco::JSON::Object::Ptr>();
    for (const auto& [key, value] : *obj) out[key] = value.isString() ? value.extract<std::string>() : value.toString();
  } catch (...) {
  }
  return out;
}

}  // namespace aev::store

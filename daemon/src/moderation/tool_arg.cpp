#include "moderation/tool_arg.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>

#include <cctype>

namespace aev::moderation {

namespace {

bool isKeyChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }
bool isJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A cursor over the expression; errors name the 1-based character where they occur.
class Reader {
 public:
  explicit Reader(const std::string& text) : text_(text) {}
  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos_]; }
  char take() { return text_[pos_++]; }
  void skipSpace() {
    while (!atEnd() && isJsonSpace(text_[pos_])) ++pos_;
  }
  std::string rest() const { return text_.substr(pos_); }
  std::string error(const std::string& what) const {
    return "is not a valid tool_arg expression: " + what + " at character " + std::to_string(pos_ + 1) +
           " (expected e.g. `$.args.path ~ /^\\/etc/` or `args.cmd = \"rm\"`)";
  }

  std::string key() {
    std::string out;
    while (!atEnd() && isKeyChar(peek())) out += take();
    return out;
  }

  // A JSON string starting at the current '"'; nullopt when it is not one.
  std::optional<std::string> quoted() {
    const auto start = pos_;
    ++pos_;
    while (!atEnd() && peek() != '"') {
      if (take() == '\\' && !atEnd()) ++pos_;
    }
    if (atEnd()) return std::nullopt;
    ++pos_;
    try {
      // Wrapped in an array: a bare string is not a document every JSON parser accepts.
      auto array =
          Poco::JSON::Parser().parse("[" + text_.substr(start, pos_ - start) + "]").extract<Poco::JSON::Array::Ptr>();
      return array->get(0).extract<std::string>();
    } catch (...) {
      return std::nullopt;
    }
  }

 private:
  const std::string& text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::variant<ToolArgExpression, std::string> ToolArgExpression::parse(const std::string& text) {
  ToolArgExpression e;
  Reader in(text);
  in.skipSpace();
  if (in.peek() == '$') {
    in.take();
  } else if (in.peek() == '*') {
    in.take();
    e.steps_.push_back({Step::Any, "", 0});
  } else {
    auto key = in.key();
    if (key.empty()) return in.error("a path must start with $, * or a key");
    e.steps_.push_back({Step::Key, key, 0});
  }
  while (!in.atEnd() && (in.peek() == '.' || in.peek() == '[')) {
    if (in.take() == '.') {
      if (in.peek() == '*') {
        in.take();
        e.steps_.push_back({Step::Any, "", 0});
        continue;
      }
      auto key = in.key();
      if (key.empty()) return in.error("a key (letters, digits, _ or -) must follow '.'");
      e.steps_.push_back({Step::Key, key, 0});
      continue;
    }
    if (in.peek() == '*') {
      in.take();
      e.steps_.push_back({Step::Any, "", 0});
    } else if (in.peek() == '"') {
      auto key = in.quoted();
      if (!key) return in.error("an unterminated or invalid quoted key");
      e.steps_.push_back({Step::Key, *key, 0});
    } else {
      std::string digits;
      while (std::isdigit(static_cast<unsigned char>(in.peek()))) digits += in.take();
      if (digits.empty() || digits.size() > 6) return in.error("an index (0 to 999999), * or a quoted key in [...]");
      e.steps_.push_back({Step::Index, "", static_cast<unsigned>(std::stoul(digits))});
    }
    if (in.peek() != ']') return in.error("a missing ']'");
    in.take();
  }
  if (e.steps_.size() > kMaxToolArgSteps)
    return "is not a valid tool_arg expression: a path has at most " + std::to_string(kMaxToolArgSteps) + " steps";
  in.skipSpace();
  if (in.atEnd()) return e;  // Exists

  const char op = in.take();
  in.skipSpace();
  if (op == '=') {
    e.condition_ = Condition::Equals;
    if (in.peek() == '"') {
      auto value = in.quoted();
      if (!value) return in.error("an unterminated or invalid quoted value");
      e.operand_ = *value;
      in.skipSpace();
      if (!in.atEnd()) return in.error("text after the quoted value");
    } else {
      e.operand_ = in.rest();
      while (!e.operand_.empty() && isJsonSpace(e.operand_.back())) e.operand_.pop_back();
      if (e.operand_.empty()) return in.error("a value after '='");
    }
    return e;
  }
  if (op != '~') return in.error("'~ /regex/' or '= value' after the path");
  e.condition_ = Condition::Regex;
  if (in.atEnd() || in.take() != '/') return in.error("a regex between slashes after '~'");
  std::string regex;
  bool closed = false;
  while (!in.atEnd()) {
    char c = in.take();
    if (c == '\\' && in.peek() == '/') {
      regex += in.take();
    } else if (c == '\\' && !in.atEnd()) {
      regex += c;
      regex += in.take();
    } else if (c == '/') {
      closed = true;
      break;
    } else {
      regex += c;
    }
  }
  if (!closed) return in.error("a closing '/' of the regex");
  bool ignoreCase = false;
  if (in.peek() == 'i') {
    in.take();
    ignoreCase = true;
  }
  in.skipSpace();
  if (!in.atEnd()) return in.error("text after the regex (the only flag is i)");
  if (regex.empty()) return in.error("an empty regex");
  auto compiled = compilePattern(ignoreCase ? "(?i)" + regex : regex);
  if (auto* message = std::get_if<std::string>(&compiled)) return "has a regex that " + *message;
  e.regex_ = std::get<CompiledPattern>(compiled);
  e.operand_ = regex;
  return e;
}

std::vector<ToolArgExpression::Hit> ToolArgExpression::evaluate(const JsonSlot& toolCall) const {
  std::vector<JsonSlot> current{toolCall};
  for (const auto& step : steps_) {
    std::vector<JsonSlot> next;
    for (const auto& slot : current) {
      JsonSlot child;
      if (step.kind == Step::Any)
        forEachChild(slot, [&](JsonSlot c) { next.push_back(std::move(c)); });
      else if (step.kind == Step::Key ? memberSlot(slot, step.key, child) : elementSlot(slot, step.index, child))
        next.push_back(std::move(child));
    }
    current = std::move(next);
    if (current.empty()) return {};
  }
  std::vector<Hit> hits;
  std::string text;
  for (auto& slot : current) {
    switch (condition_) {
      case Condition::Exists:
        if (!slot.value.isEmpty()) hits.push_back({std::move(slot), {}});
        break;
      case Condition::Equals:
        if (scalarText(slot.value, text) && text == operand_) hits.push_back({std::move(slot), {}});
        break;
      case Condition::Regex:
        if (!slot.value.isEmpty() && scalarText(slot.value, text)) {
          auto ranges = findAll(*regex_, text);
          if (ranges.empty()) break;
          // Inside a string only the matches are masked; a number or boolean goes whole.
          if (!slot.value.isString()) ranges.clear();
          hits.push_back({std::move(slot), std::move(ranges)});
        }
        break;
    }
  }
  return hits;
}

}  // namespace aev::moderation

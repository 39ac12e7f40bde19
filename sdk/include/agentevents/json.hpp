// A small JSON reader and writer for plugins (header-only, C++17, standard library only).
//
// Plugins receive their configuration, events and alerts as JSON text, and must not
// depend on the daemon's JSON library. This is enough to read them: a strict RFC 8259
// parser into a tree (objects keep member order), path lookups, and string escaping for
// building output by hand. Depth is capped so hostile input cannot overflow the stack.
#pragma once

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace aev::json {

class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Value {
 public:
  enum class Type { Null, Bool, Number, String, Array, Object };
  using Member = std::pair<std::string, Value>;

  Value() = default;
  static Value boolean(bool b) { Value v; v.type_ = Type::Bool; v.bool_ = b; return v; }
  static Value number(std::string raw) {
    Value v; v.type_ = Type::Number; v.text_ = std::move(raw); return v;
  }
  static Value string(std::string s) { Value v; v.type_ = Type::String; v.text_ = std::move(s); return v; }
  static Value array() { Value v; v.type_ = Type::Array; return v; }
  static Value object() { Value v; v.type_ = Type::Object; return v; }

  Type type() const { return type_; }
  bool isNull() const { return type_ == Type::Null; }
  bool isBool() const { return type_ == Type::Bool; }
  bool isNumber() const { return type_ == Type::Number; }
  bool isString() const { return type_ == Type::String; }
  bool isArray() const { return type_ == Type::Array; }
  bool isObject() const { return type_ == Type::Object; }

  bool asBool() const { return bool_; }
  // The string value; for a number, its text as written (e.g. "12", "1.5e3").
  const std::string& text() const { return text_; }
  double asDouble() const { return isNumber() ? std::strtod(text_.c_str(), nullptr) : 0.0; }
  // True for a number written without fraction or exponent that fits in int64.
  bool isInteger() const {
    if (!isNumber() || text_.find_first_of(".eE") != std::string::npos) return false;
    errno = 0;
    (void)std::strtoll(text_.c_str(), nullptr, 10);
    return errno == 0;
  }
  std::int64_t asInt() const { return isNumber() ? std::strtoll(text_.c_str(), nullptr, 10) : 0; }

  const std::vector<Value>& items() const { return items_; }
  std::vector<Value>& items() { return items_; }
  const std::vector<Member>& members() const { return members_; }
  std::vector<Member>& members() { return members_; }

  // Member of an object by exact key (first match), or nullptr.
  const Value* find(std::string_view key) const {
    if (!isObject()) return nullptr;
    for (const auto& m : members_)
      if (m.first == key) return &m.second;
    return nullptr;
  }
  // Nested members by a dotted path: "usage.input_tokens". Keys containing dots cannot
  // be reached this way; use find() for flat keys such as "gen_ai.request.model".
  const Value* path(std::string_view dotted) const {
    const Value* v = this;
    while (v && !dotted.empty()) {
      auto dot = dotted.find('.');
      v = v->find(dotted.substr(0, dot));
      dotted = dot == std::string_view::npos ? std::string_view{} : dotted.substr(dot + 1);
    }
    return v;
  }
  // A scalar as text: strings as is, numbers as written, booleans "true"/"false".
  std::optional<std::string> scalarText() const {
    switch (type_) {
      case Type::String:
      case Type::Number: return text_;
      case Type::Bool: return std::string(bool_ ? "true" : "false");
      default: return std::nullopt;
    }
  }
  std::string stringOr(std::string_view key, std::string fallback) const {
    const Value* v = find(key);
    return v && v->isString() ? v->text() : fallback;
  }

  // Serialises back to compact JSON.
  std::string dump() const { std::string out; dumpTo(out); return out; }
  void dumpTo(std::string& out) const;

  void push(Value v) { items_.push_back(std::move(v)); }
  void set(std::string key, Value v) { members_.emplace_back(std::move(key), std::move(v)); }

 private:
  Type type_ = Type::Null;
  bool bool_ = false;
  std::string text_;
  std::vector<Value> items_;
  std::vector<Member> members_;
};

// Appends s as a JSON string literal (quotes included). Bytes >= 0x80 pass through, so
// valid UTF-8 stays valid; control characters are escaped.
inline void appendString(std::string& out, std::string_view s) {
  static const char* hex = "0123456789abcdef";
  out.push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out.push_back(hex[c >> 4]);
          out.push_back(hex[c & 15]);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out.push_back('"');
}

inline std::string quote(std::string_view s) {
  std::string out;
  appendString(out, s);
  return out;
}

inline void Value::dumpTo(std::string& out) const {
  switch (type_) {
    case Type::Null: out += "null"; break;
    case Type::Bool: out += bool_ ? "true" : "false"; break;
    case Type::Number: out += text_; break;
    case Type::String: appendString(out, text_); break;
    case Type::Array:
      out.push_back('[');
      for (std::size_t i = 0; i < items_.size(); ++i) {
        if (i) out.push_back(',');
        items_[i].dumpTo(out);
      }
      out.push_back(']');
      break;
    case Type::Object:
      out.push_back('{');
      for (std::size_t i = 0; i < members_.size(); ++i) {
        if (i) out.push_back(',');
        appendString(out, members_[i].first);
        out.push_back(':');
        members_[i].second.dumpTo(out);
      }
      out.push_back('}');
      break;
  }
}

namespace detail {

class Parser {
 public:
  Parser(std::string_view text, int maxDepth) : s_(text), maxDepth_(maxDepth) {}

  Value document() {
    Value v = value(0);
    skipSpace();
    if (pos_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw ParseError(std::string("invalid JSON at byte ") + std::to_string(pos_) + ": " + what);
  }
  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }
  bool consume(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Value value(int depth) {
    if (depth > maxDepth_) fail("nesting too deep");
    skipSpace();
    if (pos_ >= s_.size()) fail("unexpected end");
    char c = s_[pos_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') return Value::string(string());
    if (consume("true")) return Value::boolean(true);
    if (consume("false")) return Value::boolean(false);
    if (consume("null")) return Value();
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    fail("unexpected character");
  }

  Value object(int depth) {
    ++pos_;
    Value v = Value::object();
    skipSpace();
    if (pos_ < s_.size() && s_[pos_] == '}') { ++pos_; return v; }
    for (;;) {
      skipSpace();
      if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a member name");
      std::string key = string();
      skipSpace();
      if (pos_ >= s_.size() || s_[pos_] != ':') fail("expected ':'");
      ++pos_;
      v.set(std::move(key), value(depth + 1));
      skipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') { ++pos_; continue; }
      if (pos_ < s_.size() && s_[pos_] == '}') { ++pos_; return v; }
      fail("expected ',' or '}'");
    }
  }

  Value array(int depth) {
    ++pos_;
    Value v = Value::array();
    skipSpace();
    if (pos_ < s_.size() && s_[pos_] == ']') { ++pos_; return v; }
    for (;;) {
      v.push(value(depth + 1));
      skipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') { ++pos_; continue; }
      if (pos_ < s_.size() && s_[pos_] == ']') { ++pos_; return v; }
      fail("expected ',' or ']'");
    }
  }

  Value number() {
    std::size_t start = pos_;
    if (s_[pos_] == '-') ++pos_;
    auto digits = [&] {
      std::size_t d = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ - d;
    };
    if (pos_ < s_.size() && s_[pos_] == '0') {
      ++pos_;
    } else if (digits() == 0) {
      fail("bad number");
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (digits() == 0) fail("bad fraction");
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (digits() == 0) fail("bad exponent");
    }
    return Value::number(std::string(s_.substr(start, pos_ - start)));
  }

  unsigned hex4() {
    if (pos_ + 4 > s_.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<unsigned>(c - 'A' + 10);
      else fail("bad \\u escape");
    }
    return v;
  }

  static void appendUtf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  std::string string() {
    ++pos_;  // opening quote
    std::string out;
    for (;;) {
      if (pos_ >= s_.size()) fail("unterminated string");
      unsigned char c = static_cast<unsigned char>(s_[pos_++]);
      if (c == '"') return out;
      if (c < 0x20) fail("control character in string");
      if (c != '\\') { out.push_back(static_cast<char>(c)); continue; }
      if (pos_ >= s_.size()) fail("unterminated escape");
      char e = s_[pos_++];
      switch (e) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF && s_.substr(pos_, 2) == "\\u") {
            std::size_t save = pos_;
            pos_ += 2;
            unsigned lo = hex4();
            if (lo >= 0xDC00 && lo <= 0xDFFF) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            else pos_ = save;
          }
          if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;  // lone surrogate
          appendUtf8(out, cp);
          break;
        }
        default: fail("bad escape");
      }
    }
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  int maxDepth_;
};

}  // namespace detail

// Parses one JSON document; throws ParseError on invalid input or nesting deeper than
// maxDepth.
inline Value parse(std::string_view text, int maxDepth = 64) {
  return detail::Parser(text, maxDepth).document();
}

}  // namespace aev::json

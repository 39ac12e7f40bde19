#include "common/json_parse.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/json_lexer.h"

namespace aev {

namespace {

using Poco::Dynamic::Var;

// A string value, built in place: the holder's own std::string is filled, so the text is
// not copied again into the Var (Poco 1.11's Var has no move constructor).
Var stringVar(std::string&& text) {
  Var v{std::string()};
  std::swap(const_cast<std::string&>(v.extract<std::string>()), text);
  return v;
}

// An object member being parsed. Moves swap the Var instead of copying it (Poco 1.11's
// Var copies its value on every move), so gathering and sorting members copies nothing.
struct Member {
  std::string key;
  Var value;
  Member() = default;
  Member(Member&& other) noexcept : key(std::move(other.key)) { value.swap(other.value); }
  Member& operator=(Member&& other) noexcept {
    key = std::move(other.key);
    value.swap(other.value);
    return *this;
  }
};

class Parser {
 public:
  Parser(std::string_view text, int maxDepth) : lex_(text), maxDepth_(maxDepth) {}

  Var document() {
    lex_.skipSpace();
    Var v = value(0);
    lex_.skipSpace();
    if (!lex_.atEnd()) lex_.fail("unexpected text after the JSON value");
    return v;
  }

 private:
  Var value(int depth) {
    if (lex_.atEnd()) lex_.fail("unexpected end of text");
    switch (lex_.peek()) {
      case '{':
        return object(depth + 1);
      case '[':
        return array(depth + 1);
      case '"': {
        std::string s;
        lex_.string(s);
        return stringVar(std::move(s));
      }
      case 't':
        lex_.expectLiteral("true");
        return Var(true);
      case 'f':
        lex_.expectLiteral("false");
        return Var(false);
      case 'n':
        lex_.expectLiteral("null");
        return Var();
      default:
        if (lex_.peek() == '-' || (lex_.peek() >= '0' && lex_.peek() <= '9')) return number();
        lex_.fail("unexpected character");
    }
  }

  Var object(int depth) {
    if (depth > maxDepth_) lex_.fail("nesting too deep");
    lex_.advance();  // '{'
    Poco::JSON::Object::Ptr obj = new Poco::JSON::Object();
    if (lex_.closesEmpty('}')) return obj;
    // Members are gathered first, then placed into the object's (sorted) map without a
    // copy of each value: Object::set copies, so empty values go in and ours are swapped
    // into them in key order. They gather on one stack for the whole document: a nested
    // object's members go above this one's and are gone again when it is built.
    const std::size_t base = members_.size();
    do {
      lex_.skipSpace();
      if (lex_.atEnd() || lex_.peek() != '"') lex_.fail("expected a member name");
      lex_.string(members_.emplace_back().key);
      lex_.skipSpace();
      if (lex_.atEnd() || lex_.peek() != ':') lex_.fail("expected ':' after a member name");
      lex_.advance();
      lex_.skipSpace();
      Var parsed = value(depth);
      members_.back().value.swap(parsed);
    } while (lex_.anotherElement('}', "expected ',' or '}' in an object"));
    const auto first = members_.begin() + static_cast<std::ptrdiff_t>(base);
    sortMembersByKey(first, members_.end());
    // Of duplicate keys the last one written wins, as with Object::set.
    auto lastOfItsKey = [this](auto m) { return m + 1 == members_.end() || m[1].key != m->key; };
    static const Var empty;
    for (auto m = first; m != members_.end(); ++m)
      if (lastOfItsKey(m)) obj->set(m->key, empty);
    auto slot = obj->begin();
    for (auto m = first; m != members_.end(); ++m)
      if (lastOfItsKey(m)) (slot++)->second.swap(m->value);
    members_.resize(base);
    return obj;
  }

  Var array(int depth) {
    if (depth > maxDepth_) lex_.fail("nesting too deep");
    lex_.advance();  // '['
    Poco::JSON::Array::Ptr arr = new Poco::JSON::Array();
    if (lex_.closesEmpty(']')) return arr;
    do {
      lex_.skipSpace();
      arr->add(value(depth));
    } while (lex_.anotherElement(']', "expected ',' or ']' in an array"));
    return arr;
  }

  Var number() {
    const auto n = lex_.numberText();
    if (!n.fractional) {
      std::uint64_t magnitude = 0;
      if (JsonLexer::magnitude(n, magnitude)) {
        if (!n.negative && magnitude <= static_cast<std::uint64_t>(INT64_MAX))
          return Var(static_cast<Poco::Int64>(magnitude));
        if (!n.negative) return Var(static_cast<Poco::UInt64>(magnitude));
        if (magnitude <= static_cast<std::uint64_t>(INT64_MAX)) return Var(-static_cast<Poco::Int64>(magnitude));
        if (magnitude == static_cast<std::uint64_t>(INT64_MAX) + 1) return Var(static_cast<Poco::Int64>(INT64_MIN));
      }
      // Beyond 64 bits: a double, like any other JSON number.
    }
    return Var(lex_.toDouble(n));
  }

  JsonLexer lex_;
  int maxDepth_;
  std::vector<Member> members_;  // of the objects being parsed, innermost last
};

}  // namespace

Var parseJson(std::string_view text, int maxDepth) { return Parser(text, maxDepth).document(); }

}  // namespace aev

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

// Builds Poco values (JsonGrammar's handler).
class PocoBuilder {
 public:
  using Value = Var;

  explicit PocoBuilder(JsonLexer& lex) : lex_(lex) {}

  Var string() {
    std::string s;
    lex_.string(s);
    return stringVar(std::move(s));
  }

  Var literal(JsonLexer::Literal which) {
    lex_.expectLiteral(which);
    if (which == JsonLexer::Literal::Null) return Var();
    return Var(which == JsonLexer::Literal::True);
  }

  Var number() {
    const auto n = lex_.numberText();
    std::int64_t integer = 0;
    if (JsonLexer::int64Value(n, integer)) return Var(static_cast<Poco::Int64>(integer));
    std::uint64_t magnitude = 0;
    if (!n.fractional && !n.negative && JsonLexer::magnitude(n, magnitude))
      return Var(static_cast<Poco::UInt64>(magnitude));
    return Var(lex_.toDouble(n));  // beyond 64 bits, a fraction or an exponent: a double
  }

  // Members are gathered first, then placed into the object's (sorted) map without a
  // copy of each value: Object::set copies, so empty values go in and ours are swapped
  // into them in key order. They gather on one stack for the whole document: a nested
  // object's members go above this one's and are gone again when it is built.
  std::size_t openObject() { return members_.size(); }
  void key(std::size_t) { lex_.string(members_.emplace_back().key); }
  void member(std::size_t, Var&& value) { members_.back().value.swap(value); }
  Var closeObject(std::size_t base) {
    Poco::JSON::Object::Ptr obj = new Poco::JSON::Object();
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

  Poco::JSON::Array::Ptr openArray() { return new Poco::JSON::Array(); }
  void element(Poco::JSON::Array::Ptr& array, Var&& value) { array->add(value); }
  Var closeArray(const Poco::JSON::Array::Ptr& array) { return array; }

 private:
  JsonLexer& lex_;
  std::vector<Member> members_;  // of the objects being parsed, innermost last
};

}  // namespace

Var parseJson(std::string_view text, int maxDepth) {
  JsonLexer lex(text);
  PocoBuilder builder(lex);
  return JsonGrammar<PocoBuilder>(lex, builder, maxDepth).document();
}

}  // namespace aev

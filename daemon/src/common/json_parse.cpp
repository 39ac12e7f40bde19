#include "common/json_parse.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <locale.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "common/text.h"

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
  Parser(std::string_view text, int maxDepth)
      : begin_(text.data()), p_(begin_), end_(begin_ + text.size()), maxDepth_(maxDepth) {}

  Var document() {
    skipSpace();
    Var v = value(0);
    skipSpace();
    if (p_ != end_) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw JsonSyntaxError(std::string(what) + " at byte " + std::to_string(p_ - begin_),
                          static_cast<std::size_t>(p_ - begin_));
  }

  void skipSpace() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  void expectLiteral(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word)
      fail("invalid literal");
    p_ += word.size();
  }

  Var value(int depth) {
    if (p_ == end_) fail("unexpected end of text");
    switch (*p_) {
      case '{':
        return object(depth + 1);
      case '[':
        return array(depth + 1);
      case '"': {
        std::string s;
        string(s);
        return stringVar(std::move(s));
      }
      case 't':
        expectLiteral("true");
        return Var(true);
      case 'f':
        expectLiteral("false");
        return Var(false);
      case 'n':
        expectLiteral("null");
        return Var();
      default:
        if (*p_ == '-' || (*p_ >= '0' && *p_ <= '9')) return number();
        fail("unexpected character");
    }
  }

  Var object(int depth) {
    if (depth > maxDepth_) fail("nesting too deep");
    ++p_;  // '{'
    Poco::JSON::Object::Ptr obj = new Poco::JSON::Object();
    if (closesEmpty('}')) return obj;
    // Members are gathered first, then placed into the object's (sorted) map without a
    // copy of each value: Object::set copies, so empty values go in and ours are swapped
    // into them in key order. They gather on one stack for the whole document: a nested
    // object's members go above this one's and are gone again when it is built.
    const std::size_t base = members_.size();
    do {
      skipSpace();
      if (p_ == end_ || *p_ != '"') fail("expected a member name");
      string(members_.emplace_back().key);
      skipSpace();
      if (p_ == end_ || *p_ != ':') fail("expected ':' after a member name");
      ++p_;
      skipSpace();
      Var parsed = value(depth);
      members_.back().value.swap(parsed);
    } while (anotherElement('}', "expected ',' or '}' in an object"));
    const auto first = members_.begin() + static_cast<std::ptrdiff_t>(base);
    sortByKey(first, members_.end());
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
    if (depth > maxDepth_) fail("nesting too deep");
    ++p_;  // '['
    Poco::JSON::Array::Ptr arr = new Poco::JSON::Array();
    if (closesEmpty(']')) return arr;
    do {
      skipSpace();
      arr->add(value(depth));
    } while (anotherElement(']', "expected ',' or ']' in an array"));
    return arr;
  }

  // Just inside an object or array: true (and past it) when `close` follows at once.
  bool closesEmpty(char close) {
    skipSpace();
    if (p_ == end_ || *p_ != close) return false;
    ++p_;
    return true;
  }

  // After an element: true when a ',' announces another, false (and past it) at `close`.
  bool anotherElement(char close, const char* expected) {
    skipSpace();
    if (p_ != end_ && *p_ == ',') {
      ++p_;
      return true;
    }
    if (p_ == end_ || *p_ != close) fail(expected);
    ++p_;
    return false;
  }

  // Stable: equal keys keep their order, so the last of duplicates stays last. Objects
  // are small; insertion sort spares stable_sort's buffer, up to a size where its
  // quadratic worst case could be a cost a client imposes.
  static void sortByKey(std::vector<Member>::iterator first, std::vector<Member>::iterator last) {
    if (last - first > 32) {
      std::stable_sort(first, last, [](const Member& a, const Member& b) { return a.key < b.key; });
      return;
    }
    for (auto i = first + (first != last); i < last; ++i) {
      if (!(i->key < i[-1].key)) continue;
      Member moving(std::move(*i));
      auto j = i;
      do {
        *j = std::move(j[-1]);
        --j;
      } while (j > first && moving.key < j[-1].key);
      *j = std::move(moving);
    }
  }

  std::uint32_t hex4() {
    if (end_ - p_ < 4) fail("truncated \\u escape");
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      int d = hexDigitValue(p_[i]);
      if (d < 0) fail("invalid \\u escape");
      v = (v << 4) | static_cast<std::uint32_t>(d);
    }
    p_ += 4;
    return v;
  }

  static void appendUtf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  void escape(std::string& out) {
    ++p_;  // '\\'
    if (p_ == end_) fail("unterminated string");
    char c = *p_++;
    switch (c) {
      case '"':
        out += '"';
        return;
      case '\\':
        out += '\\';
        return;
      case '/':
        out += '/';
        return;
      case 'b':
        out += '\b';
        return;
      case 'f':
        out += '\f';
        return;
      case 'n':
        out += '\n';
        return;
      case 'r':
        out += '\r';
        return;
      case 't':
        out += '\t';
        return;
      case 'u':
        break;
      default:
        --p_;
        fail("invalid escape");
    }
    std::uint32_t cp = hex4();
    if (cp >= 0xDC00 && cp <= 0xDFFF) fail("unpaired low surrogate");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') fail("unpaired high surrogate");
      p_ += 2;
      std::uint32_t low = hex4();
      if (low < 0xDC00 || low > 0xDFFF) fail("unpaired high surrogate");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    appendUtf8(out, cp);
  }

  static bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

  // One multi-byte UTF-8 sequence starting at p_ (RFC 3629: shortest form, no
  // surrogates, at most U+10FFFF), copied to out.
  void utf8Sequence(std::string& out) {
    const auto* s = reinterpret_cast<const unsigned char*>(p_);
    const auto left = end_ - p_;
    unsigned char c = s[0];
    int n = 0;
    bool ok = false;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 2;
      ok = left >= 2 && continuation(s[1]);
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 3;
      ok = left >= 3 && continuation(s[1]) && continuation(s[2]) && !(c == 0xE0 && s[1] < 0xA0) &&
           !(c == 0xED && s[1] > 0x9F);
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 4;
      ok = left >= 4 && continuation(s[1]) && continuation(s[2]) && continuation(s[3]) && !(c == 0xF0 && s[1] < 0x90) &&
           !(c == 0xF4 && s[1] > 0x8F);
    }
    if (!ok) fail("invalid UTF-8");
    out.append(p_, static_cast<std::size_t>(n));
    p_ += n;
  }

  void string(std::string& out) {
    ++p_;  // opening quote
    for (;;) {
      // The plain run up to the next quote, backslash, control or non-ASCII byte.
      const char* run = p_;
      while (p_ != end_) {
        auto c = static_cast<unsigned char>(*p_);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
        ++p_;
      }
      out.append(run, static_cast<std::size_t>(p_ - run));
      if (p_ == end_) fail("unterminated string");
      auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        return;
      }
      if (c == '\\')
        escape(out);
      else if (c < 0x20)
        fail("unescaped control character in a string");
      else
        utf8Sequence(out);
    }
  }

  Var number() {
    const char* start = p_;
    bool negative = false;
    if (*p_ == '-') {
      negative = true;
      ++p_;
    }
    if (p_ == end_ || !(*p_ >= '0' && *p_ <= '9')) fail("expected a digit");
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    const char* integerEnd = p_;
    bool fractional = false;
    if (p_ != end_ && *p_ == '.') {
      fractional = true;
      ++p_;
      if (p_ == end_ || !(*p_ >= '0' && *p_ <= '9')) fail("expected a digit after '.'");
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      fractional = true;
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !(*p_ >= '0' && *p_ <= '9')) fail("expected a digit in the exponent");
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (!fractional) {
      std::uint64_t magnitude = 0;
      auto [end, ec] = std::from_chars(negative ? start + 1 : start, integerEnd, magnitude);
      (void)end;
      if (ec == std::errc()) {
        if (!negative && magnitude <= static_cast<std::uint64_t>(INT64_MAX))
          return Var(static_cast<Poco::Int64>(magnitude));
        if (!negative) return Var(static_cast<Poco::UInt64>(magnitude));
        if (magnitude <= static_cast<std::uint64_t>(INT64_MAX)) return Var(-static_cast<Poco::Int64>(magnitude));
        if (magnitude == static_cast<std::uint64_t>(INT64_MAX) + 1) return Var(static_cast<Poco::Int64>(INT64_MIN));
      }
      // Beyond 64 bits: a double, like any other JSON number.
    }
    return Var(toDouble(start, p_));
  }

  double toDouble(const char* from, const char* to) {
    double d = 0;
    auto [end, ec] = std::from_chars(from, to, d);
    if (ec == std::errc() && end == to) return d;
    // Out of range: an underflow is a (signed) zero or a subnormal; an overflow is no
    // number JSON can carry on.
    static const locale_t c = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(nullptr));
    std::string text(from, to);
    d = strtod_l(text.c_str(), nullptr, c);
    if (std::isinf(d)) {
      p_ = from;
      fail("number out of range");
    }
    return d;
  }

  const char* begin_;
  const char* p_;
  const char* end_;
  int maxDepth_;
  std::vector<Member> members_;  // of the objects being parsed, innermost last
};

}  // namespace

Var parseJson(std::string_view text, int maxDepth) { return Parser(text, maxDepth).document(); }

}  // namespace aev

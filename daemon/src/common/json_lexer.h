#pragma once
// The JSON grammar of common/json_parse.h, its tokens (JsonLexer) and its structure
// (JsonGrammar), shared by the two readers built on it: parseJson (Poco values) and
// JsonView (a flat index over the text). Both therefore accept and refuse exactly the
// same documents, with the same messages.
#include <locale.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/json_parse.h"
#include "common/text.h"

namespace aev {

class JsonLexer {
 public:
  // Where a number's text is: [start, end), its integer digits ending at integerEnd.
  struct NumberText {
    const char* start;
    const char* integerEnd;
    const char* end;
    bool negative;
    bool fractional;  // a fraction or an exponent
  };

  // Swallows what a string writes, for validating one without keeping its value.
  struct Discard {
    void append(const char*, std::size_t) {}
    void operator+=(char) {}
  };

  enum class Literal { True, False, Null };

  explicit JsonLexer(std::string_view text) : begin_(text.data()), p_(begin_), end_(begin_ + text.size()) {}

  [[noreturn]] void fail(const char* what) const {
    throw JsonSyntaxError(std::string(what) + " at byte " + std::to_string(p_ - begin_),
                          static_cast<std::size_t>(p_ - begin_));
  }

  bool atEnd() const { return p_ == end_; }
  char peek() const { return *p_; }
  const char* position() const { return p_; }
  std::size_t offset() const { return static_cast<std::size_t>(p_ - begin_); }
  void advance() { ++p_; }

  void skipSpace() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  void expectLiteral(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word)
      fail("invalid literal");
    p_ += word.size();
  }

  void expectLiteral(Literal literal) {
    expectLiteral(literal == Literal::True ? "true" : literal == Literal::False ? "false" : "null");
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

  // A string starting at its opening quote; its decoded value goes to out (std::string or
  // Discard). Returns true when the text between the quotes is the value itself: no
  // escapes (non-ASCII bytes are copied through, so they do not count).
  template <class Out>
  bool string(Out& out) {
    ++p_;  // opening quote
    bool verbatim = true;
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
        return verbatim;
      }
      if (c == '\\') {
        verbatim = false;
        escape(out);
      } else if (c < 0x20) {
        fail("unescaped control character in a string");
      } else {
        utf8Sequence(out);
      }
    }
  }

  // A number's text, checked against the grammar (not yet converted).
  NumberText numberText() {
    NumberText n{p_, p_, p_, false, false};
    if (*p_ == '-') {
      n.negative = true;
      ++p_;
    }
    if (p_ == end_ || !(*p_ >= '0' && *p_ <= '9')) fail("expected a digit");
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    n.integerEnd = p_;
    if (p_ != end_ && *p_ == '.') {
      n.fractional = true;
      ++p_;
      if (p_ == end_ || !(*p_ >= '0' && *p_ <= '9')) fail("expected a digit after '.'");
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      n.fractional = true;
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !(*p_ >= '0' && *p_ <= '9')) fail("expected a digit in the exponent");
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    n.end = p_;
    return n;
  }

  // The magnitude of an integer without fraction or exponent, when it fits 64 bits.
  static bool magnitude(const NumberText& n, std::uint64_t& out) {
    auto [end, ec] = std::from_chars(n.negative ? n.start + 1 : n.start, n.integerEnd, out);
    (void)end;
    return ec == std::errc();
  }

  // An integer without fraction or exponent that fits Int64, as that value. parseJson
  // makes exactly these an Int64 (a UInt64 above, a double beyond 64 bits).
  static bool int64Value(const NumberText& n, std::int64_t& out) {
    std::uint64_t m = 0;
    if (n.fractional || !magnitude(n, m)) return false;
    constexpr auto kMax = static_cast<std::uint64_t>(INT64_MAX);
    if (m > kMax + (n.negative ? 1 : 0)) return false;
    out = !n.negative ? static_cast<std::int64_t>(m) : m == kMax + 1 ? INT64_MIN : -static_cast<std::int64_t>(m);
    return true;
  }

  // A number's text as a double; one beyond the double range is refused (an underflow
  // is a signed zero or a subnormal).
  double toDouble(const NumberText& n) {
    double d = 0;
    auto [end, ec] = std::from_chars(n.start, n.end, d);
    if (ec == std::errc() && end == n.end) return d;
    static const locale_t c = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(nullptr));
    std::string text(n.start, n.end);
    d = strtod_l(text.c_str(), nullptr, c);
    if (std::isinf(d)) {
      p_ = n.start;
      fail("number out of range");
    }
    return d;
  }

 private:
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

  template <class Out>
  static void appendUtf8(Out& out, std::uint32_t cp) {
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

  template <class Out>
  void escape(Out& out) {
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
    // U+0000 is valid JSON, but no PostgreSQL text or jsonb value can hold it: refused
    // here so that such a body is a 400 on every store, before any store is touched.
    if (cp == 0) fail("\\u0000 (NUL) is not accepted in a string");
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
  template <class Out>
  void utf8Sequence(Out& out) {
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

  const char* begin_;
  const char* p_;
  const char* end_;
};

// The document grammar, one recursive descent for every reader of JSON here, so they
// accept, refuse and nest alike. The Handler builds what it reads, with the lexer
// positioned at each value's first character:
//   using Value;
//   Value string();  Value literal(JsonLexer::Literal);  Value number();  // each reads its value
//   O openObject();  void key(O&);  void member(O&, Value&&);  Value closeObject(O&);
//   A openArray();  void element(A&, Value&&);  Value closeArray(A&);
// where O and A are whatever the handler keeps of an open object or array; open is called
// at '{' or '[', key at the member name's quote (it reads the name), close past the end.
template <class Handler>
class JsonGrammar {
 public:
  using Value = typename Handler::Value;

  JsonGrammar(JsonLexer& lex, Handler& handler, int maxDepth) : lex_(lex), h_(handler), maxDepth_(maxDepth) {}

  // One value with optional whitespace around it, and nothing else.
  Value document() {
    lex_.skipSpace();
    Value v = value(0);
    lex_.skipSpace();
    if (!lex_.atEnd()) lex_.fail("unexpected text after the JSON value");
    return v;
  }

 private:
  Value value(int depth) {
    if (lex_.atEnd()) lex_.fail("unexpected end of text");
    switch (lex_.peek()) {
      case '{':
        return object(depth + 1);
      case '[':
        return array(depth + 1);
      case '"':
        return h_.string();
      case 't':
        return h_.literal(JsonLexer::Literal::True);
      case 'f':
        return h_.literal(JsonLexer::Literal::False);
      case 'n':
        return h_.literal(JsonLexer::Literal::Null);
      default:
        if (lex_.peek() == '-' || (lex_.peek() >= '0' && lex_.peek() <= '9')) return h_.number();
        lex_.fail("unexpected character");
    }
  }

  Value object(int depth) {
    if (depth > maxDepth_) lex_.fail("nesting too deep");
    auto object = h_.openObject();
    lex_.advance();  // '{'
    if (!lex_.closesEmpty('}')) {
      do {
        lex_.skipSpace();
        if (lex_.atEnd() || lex_.peek() != '"') lex_.fail("expected a member name");
        h_.key(object);
        lex_.skipSpace();
        if (lex_.atEnd() || lex_.peek() != ':') lex_.fail("expected ':' after a member name");
        lex_.advance();
        lex_.skipSpace();
        h_.member(object, value(depth));
      } while (lex_.anotherElement('}', "expected ',' or '}' in an object"));
    }
    return h_.closeObject(object);
  }

  Value array(int depth) {
    if (depth > maxDepth_) lex_.fail("nesting too deep");
    auto array = h_.openArray();
    lex_.advance();  // '['
    if (!lex_.closesEmpty(']')) {
      do {
        lex_.skipSpace();
        h_.element(array, value(depth));
      } while (lex_.anotherElement(']', "expected ',' or ']' in an array"));
    }
    return h_.closeArray(array);
  }

  JsonLexer& lex_;
  Handler& h_;
  int maxDepth_;
};

// Sorts an object's gathered members (anything with a std::string `key`) by key, stably:
// the last of duplicate keys stays last, and is the one kept. Objects are small;
// insertion sort spares stable_sort's buffer, up to a size where its quadratic worst case
// could be a cost a client imposes.
template <class It>
void sortMembersByKey(It first, It last) {
  if (last - first > 32) {
    std::stable_sort(first, last, [](const auto& a, const auto& b) { return a.key < b.key; });
    return;
  }
  for (auto i = first + (first != last); i < last; ++i) {
    if (!(i->key < i[-1].key)) continue;
    auto moving(std::move(*i));
    auto j = i;
    do {
      *j = std::move(j[-1]);
      --j;
    } while (j > first && moving.key < j[-1].key);
    *j = std::move(moving);
  }
}

}  // namespace aev

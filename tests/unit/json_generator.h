#pragma once
// Random JSON documents for the differential tests of common/json_parse.h and
// common/json_view.h: every kind of value, escapes, non-ASCII text, numbers at the edges
// of Int64, UInt64 and double, random whitespace, nesting up to a few levels.
#include <random>
#include <string>

namespace aev::testing_json {

class Generator {
 public:
  explicit Generator(unsigned seed) : rng_(seed) {}

  std::string document() {
    std::string out;
    value(out, 0, true);
    return out;
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  void space(std::string& out) {
    static const char* kSpaces[] = {"", "", "", " ", "\n", "\t", "\r\n  "};
    out += kSpaces[pick(7)];
  }
  // No \u0000 anywhere: our readers refuse it (a PostgreSQL store cannot hold a NUL).
  void string(std::string& out) {
    static const char* kPieces[] = {"a",   "key",  "Z9",   " ",   "é",       "中",      "😀",
                                    "\\n", "\\\"", "\\\\", "\\/", "\\u0041", "\\u00e9", "\\ud83d\\ude00",
                                    "\\t", "x_y",  "-"};
    out += '"';
    for (int i = pick(6); i > 0; --i) out += kPieces[pick(17)];
    out += '"';
  }
  void number(std::string& out) {
    static const char* kNumbers[] = {"0",
                                     "-0",
                                     "1",
                                     "-1",
                                     "42",
                                     "2147483647",
                                     "2147483648",
                                     "-2147483649",
                                     "9223372036854775807",
                                     "-9223372036854775808",
                                     "9223372036854775808",
                                     "18446744073709551615",
                                     "0.5",
                                     "-12.25",
                                     "1e3",
                                     "1E-3",
                                     "6.02e+23",
                                     "1e-320",
                                     "3.141592653589793",
                                     "1.7976931348623157e308"};
    out += kNumbers[pick(20)];
  }
  // Up to four elements, each written by `element`, with random space around them.
  template <class Element>
  void container(std::string& out, char open, char close, Element element) {
    out += open;
    for (int i = pick(5), first = 1; i > 0; --i, first = 0) {
      if (!first) out += ',';
      space(out);
      element();
      space(out);
    }
    out += close;
  }
  void value(std::string& out, int depth, bool top) {
    int kind = top ? pick(2) : pick(depth > 5 ? 5 : 7);
    switch (kind) {
      case 0:
      case 5:
        container(out, '{', '}', [&] {
          string(out);
          space(out);
          out += ':';
          space(out);
          value(out, depth + 1, false);
        });
        break;
      case 1:
      case 6:
        container(out, '[', ']', [&] { value(out, depth + 1, false); });
        break;
      case 2:
        string(out);
        break;
      case 3:
        number(out);
        break;
      default:
        out += pick(3) == 0 ? "null" : (pick(2) ? "true" : "false");
    }
  }
  std::mt19937 rng_;
};

// The document with one byte replaced, removed or inserted (bytes that matter to JSON).
inline std::string mutate(std::string doc, std::mt19937& rng) {
  const std::string kBytes = "{}[]\",:\\/0123456789.eE+-tfnu \x01\x7f\x80\xc3\xe0\xed\xf4\xff";
  const auto at = std::uniform_int_distribution<std::size_t>(0, doc.size() - 1)(rng);
  const auto byte = [&] { return kBytes[std::uniform_int_distribution<std::size_t>(0, kBytes.size() - 1)(rng)]; };
  switch (std::uniform_int_distribution<int>(0, 2)(rng)) {
    case 0:
      doc[at] = byte();
      break;
    case 1:
      doc.erase(at, 1);
      break;
    default:
      doc.insert(at, 1, byte());
  }
  return doc;
}

}  // namespace aev::testing_json

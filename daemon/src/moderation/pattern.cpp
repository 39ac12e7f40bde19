#include "moderation/pattern.h"

namespace aev::moderation {

namespace {

// Length of the UTF-8 sequence starting at text[pos] (1 for a stray byte), so skipping an
// empty match never lands inside a code point.
std::size_t codePointLength(std::string_view text, std::size_t pos) {
  const auto c = static_cast<unsigned char>(text[pos]);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
  return pos + n <= text.size() ? n : 1;
}

std::string describe(const re2::RE2& re) {
  switch (re.error_code()) {
    case re2::RE2::ErrorPatternTooLarge:
      return "is too large: its compiled form exceeds the " + std::to_string(kRegexMaxMem / 1024) +
             " KiB allowed per rule (simplify it or split it into several rules)";
    case re2::RE2::ErrorRepeatSize:
      return "repeats too much: counts above 1000, nested counts included, are refused (" + re.error() + ")";
    default: return "is not a valid RE2 regular expression: " + re.error();
  }
}

}  // namespace

std::variant<CompiledPattern, std::string> compilePattern(const std::string& pattern, bool literal) {
  re2::RE2::Options options;
  options.set_max_mem(kRegexMaxMem);
  options.set_log_errors(false);    // the message goes to the client as a 422 instead
  options.set_never_capture(true);  // only whole matches are used: smaller, faster programs
  if (literal) {
    options.set_literal(true);
    options.set_case_sensitive(false);
  }
  auto re = std::make_shared<const re2::RE2>(pattern, options);
  if (!re->ok()) return describe(*re);
  return CompiledPattern(std::move(re));
}

std::vector<Range> findAll(const re2::RE2& re, std::string_view text) {
  std::vector<Range> out;
  const re2::StringPiece whole(text.data(), text.size());
  std::size_t pos = 0;
  while (pos <= text.size() && out.size() < kMaxMatchesPerText) {
    re2::StringPiece m;
    if (!re.Match(whole, pos, text.size(), re2::RE2::UNANCHORED, &m, 1)) break;
    const auto start = static_cast<std::size_t>(m.data() - text.data());
    const auto end = start + m.size();
    if (end > start) {
      out.push_back({start, end, 1.0, {}});
      pos = end;
    } else {
      // An empty match (e.g. "a*" before a "b") redacts nothing; look past it.
      if (start >= text.size()) break;
      pos = start + codePointLength(text, start);
    }
  }
  return out;
}

}  // namespace aev::moderation

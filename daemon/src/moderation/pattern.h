#pragma once
// Regular expressions of moderation rules: RE2 only (docs/features.md#moderation: a linear-time engine,
// no catastrophic backtracking), compiled once per rule change with a memory bound, so an
// over-large pattern is refused at create time (422) instead of failing on a publish.
#include <re2/re2.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace aev::moderation {

// RE2's budget per compiled rule (program + lazily built DFA cache). A pattern whose
// program alone exceeds it does not compile; 1000 rules stay within ~1 GiB worst case.
inline constexpr std::int64_t kRegexMaxMem = 1 << 20;
// Matches reported per scanned string; more are not redacted individually (the rule
// still matched, and the excess is one more reason to block or flag).
inline constexpr std::size_t kMaxMatchesPerText = 1000;

// Bytes [start, end) of a scanned string.
struct Range {
  std::size_t start = 0;
  std::size_t end = 0;
  double score = 1.0;  // a plugin detector's confidence; 1 for regex and keyword matches
  std::string label;   // what a plugin detector found ("email"); empty otherwise
};

using CompiledPattern = std::shared_ptr<const re2::RE2>;

// A regex (RE2 syntax) or, with literal = true, a keyword matched case-insensitively.
// Returns the compiled pattern, or a message saying why it cannot be used.
std::variant<CompiledPattern, std::string> compilePattern(const std::string& pattern, bool literal = false);

// Every non-empty, non-overlapping match, left to right, at most kMaxMatchesPerText.
std::vector<Range> findAll(const re2::RE2& re, std::string_view text);

}  // namespace aev::moderation

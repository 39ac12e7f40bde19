// moderation/pattern.h and redaction.h: RE2 compile limits (an over-large or malformed
// regex is refused when the rule is saved), linear-time matching on inputs that make
// backtracking engines explode, and how matches become [REDACTED:<detector>].
#include <gtest/gtest.h>

#include <chrono>

#include "moderation/pattern.h"
#include "moderation/redaction.h"

namespace aev::moderation {
namespace {

std::vector<std::string> matches(const std::string& pattern, const std::string& text, bool literal = false) {
  auto compiled = compilePattern(pattern, literal);
  EXPECT_TRUE(std::holds_alternative<CompiledPattern>(compiled)) << pattern;
  std::vector<std::string> out;
  for (const auto& r : findAll(*std::get<CompiledPattern>(compiled), text))
    out.push_back(text.substr(r.start, r.end - r.start));
  return out;
}

std::string compileError(const std::string& pattern) {
  auto compiled = compilePattern(pattern);
  if (auto* message = std::get_if<std::string>(&compiled)) return *message;
  return "";
}

using Found = std::vector<std::string>;

TEST(ModerationPattern, FindsEveryMatchLeftToRight) {
  EXPECT_EQ(matches("sk-[a-z0-9]{4}", "a sk-ab12 b sk-cd34 c"), (Found{"sk-ab12", "sk-cd34"}));
  EXPECT_EQ(matches("^start", "start and start"), Found{"start"});  // ^ only at the text's start
  EXPECT_TRUE(matches("nothing", "something else").empty());
}

TEST(ModerationPattern, EmptyMatchesAreSkippedWithoutLooping) {
  EXPECT_EQ(matches("a*", "baab"), Found{"aa"});
  EXPECT_TRUE(matches("x?", "ünïcödé").empty());  // steps over multi-byte code points
}

TEST(ModerationPattern, KeywordsAreLiteralAndIgnoreCase) {
  EXPECT_EQ(matches("a.b", "A.B axb a.b", true), (Found{"A.B", "a.b"}));
  EXPECT_EQ(matches("(secret)", "the (SECRET) plan", true), Found{"(SECRET)"});
}

TEST(ModerationPattern, MatchesPerTextAreCapped) {
  const std::string text(5000, 'x');
  EXPECT_EQ(matches("x", text).size(), kMaxMatchesPerText);
}

TEST(ModerationPattern, InvalidPatternsAreRefusedWithAReason) {
  EXPECT_NE(compileError("(unclosed").find("not a valid RE2"), std::string::npos);
  EXPECT_NE(compileError("a{1001}").find("repeats too much"), std::string::npos);
  // RE2 multiplies nested counts: 100 × 100 × 100 is refused although each is small.
  EXPECT_NE(compileError("(((a{100}){100}){100})").find("repeats too much"), std::string::npos);
  // Backreferences and lookaround need backtracking: RE2 does not have them.
  EXPECT_NE(compileError("(a)\\1"), "");
  EXPECT_NE(compileError("a(?=b)"), "");
  EXPECT_EQ(compileError("(?i)ok[0-9]+"), "");
}

TEST(ModerationPattern, OverLargeProgramsAreRefusedAtCompileTime) {
  // Each \pL (any Unicode letter) is hundreds of instructions: 4000 of them exceed the
  // per-rule memory bound although every count is within RE2's limits.
  const auto message = compileError("\\pL{1000}\\pL{1000}\\pL{1000}\\pL{1000}");
  EXPECT_NE(message.find("too large"), std::string::npos) << message;
  EXPECT_NE(message.find("1024 KiB"), std::string::npos) << message;
  EXPECT_EQ(compileError("[a-z]{1000}[0-9]{1000}"), "");  // large but within the bound
}

// Patterns that take exponential time in backtracking engines stay linear in RE2.
TEST(ModerationPattern, CatastrophicPatternsStayFastOn100KiB) {
  const std::string as(100 * 1024, 'a');
  for (const char* pattern : {"(a+)+$", "(a|aa)+$", "(a*)*b", "(.*a){20}", "^(([a-z])+.)+[A-Z]([a-z])+$"}) {
    auto compiled = compilePattern(pattern);
    ASSERT_TRUE(std::holds_alternative<CompiledPattern>(compiled)) << pattern;
    const auto& re = *std::get<CompiledPattern>(compiled);
    const auto started = std::chrono::steady_clock::now();
    findAll(re, as + "!");
    findAll(re, as);
    const auto elapsed = std::chrono::steady_clock::now() - started;
    EXPECT_LT(elapsed, std::chrono::seconds(1)) << pattern;
  }
}

TEST(ModerationRedaction, ReplacesEachMatch) {
  EXPECT_EQ(redactionMarker("pii.email"), "[REDACTED:pii.email]");
  EXPECT_EQ(redact("mail a@b.cd or c@d.ef", {{5, 11}, {15, 21}}, "[R]"), "mail [R] or [R]");
  EXPECT_EQ(redact("abc", {}, "[R]"), "abc");
  EXPECT_EQ(redact("abc", {{0, 3}}, "[R]"), "[R]");
}

TEST(ModerationRedaction, MergesOverlapsAndClipsRanges) {
  // Unsorted, nested and overlapping findings leave no original byte between markers.
  EXPECT_EQ(redact("0123456789", {{6, 9}, {2, 5}, {3, 4}, {4, 7}}, "#"), "01#9");
  EXPECT_EQ(redact("0123", {{2, 99}}, "#"), "01#");
  EXPECT_EQ(redact("0123", {{3, 2}, {9, 12}}, "#"), "0123");
  EXPECT_EQ(redact("aabb", {{0, 2}, {2, 4}}, "#"), "##");  // adjacent: one marker each
}

}  // namespace
}  // namespace aev::moderation

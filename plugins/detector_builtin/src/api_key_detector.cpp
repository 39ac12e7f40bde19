// secrets.api_key: credentials of common providers, recognised by their documented
// prefixes and shapes (not by entropy, which flags hashes and ids):
//   AWS access key ids     AKIA/ASIA/ABIA/ACCA + 16 [A-Z0-9]
//   GitHub tokens          ghp_/gho_/ghu_/ghs_/ghr_ + 36 [A-Za-z0-9], github_pat_ + 22+ [A-Za-z0-9_]
//   OpenAI keys            sk- (sk-proj-, sk-svcacct-, ...) + 32+ [A-Za-z0-9_-] with letters and digits
//   Anthropic keys         sk-ant- + 32+ [A-Za-z0-9_-]
//   Slack tokens           xoxb-/xoxp-/xoxa-/xoxr-/xoxs-/xoxe- + 20+ [A-Za-z0-9-]; webhook URLs
//   Stripe secret keys     sk_live_/rk_live_ (and _test_, lower score) + 24+ [A-Za-z0-9]
//   Google API keys        AIza + 35 [A-Za-z0-9_-]
// Each candidate starts at a prefix that follows a non-alphanumeric byte, and its body
// is read at most kMaxBody bytes, so a scan stays linear.
#include <string>

#include "detectors.h"
#include "text_scan.h"

namespace builtin {

namespace {

constexpr std::size_t kMaxBody = 256;

enum class Charset { UpperDigit, Alnum, AlnumUnderscore, AlnumDashUnderscore, AlnumDash };

bool inCharset(char c, Charset cs) {
  switch (cs) {
    case Charset::UpperDigit: return isUpper(c) || isDigit(c);
    case Charset::Alnum: return isAlnum(c);
    case Charset::AlnumUnderscore: return isAlnum(c) || c == '_';
    case Charset::AlnumDashUnderscore: return isAlnum(c) || c == '_' || c == '-';
    case Charset::AlnumDash: return isAlnum(c) || c == '-';
  }
  return false;
}

struct Rule {
  std::string_view prefix;
  const char* label;
  Charset charset;
  std::size_t minBody, maxBody;  // body length after the prefix
  double score;
  bool needsDigitAndLetter;
};

// Longer prefixes first where one is a prefix of another (sk-ant- before sk-).
constexpr Rule kRules[] = {
    {"AKIA", "aws_access_key_id", Charset::UpperDigit, 16, 16, 0.95, false},
    {"ASIA", "aws_access_key_id", Charset::UpperDigit, 16, 16, 0.95, false},
    {"ABIA", "aws_access_key_id", Charset::UpperDigit, 16, 16, 0.9, false},
    {"ACCA", "aws_access_key_id", Charset::UpperDigit, 16, 16, 0.9, false},
    {"ghp_", "github_token", Charset::Alnum, 36, 36, 0.95, false},
    {"gho_", "github_token", Charset::Alnum, 36, 36, 0.95, false},
    {"ghu_", "github_token", Charset::Alnum, 36, 36, 0.95, false},
    {"ghs_", "github_token", Charset::Alnum, 36, 36, 0.95, false},
    {"ghr_", "github_token", Charset::Alnum, 36, 36, 0.95, false},
    {"github_pat_", "github_token", Charset::AlnumUnderscore, 22, 255, 0.95, false},
    {"sk-ant-", "anthropic_api_key", Charset::AlnumDashUnderscore, 32, 255, 0.95, true},
    {"sk-", "openai_api_key", Charset::AlnumDashUnderscore, 32, 255, 0.9, true},
    {"xoxb-", "slack_token", Charset::AlnumDash, 20, 255, 0.95, true},
    {"xoxp-", "slack_token", Charset::AlnumDash, 20, 255, 0.95, true},
    {"xoxa-", "slack_token", Charset::AlnumDash, 20, 255, 0.95, true},
    {"xoxr-", "slack_token", Charset::AlnumDash, 20, 255, 0.95, true},
    {"xoxs-", "slack_token", Charset::AlnumDash, 20, 255, 0.95, true},
    {"xoxe-", "slack_token", Charset::AlnumDash, 20, 255, 0.9, true},
    {"sk_live_", "stripe_secret_key", Charset::Alnum, 24, 255, 0.95, false},
    {"rk_live_", "stripe_secret_key", Charset::Alnum, 24, 255, 0.95, false},
    {"sk_test_", "stripe_test_key", Charset::Alnum, 24, 255, 0.6, false},
    {"rk_test_", "stripe_test_key", Charset::Alnum, 24, 255, 0.6, false},
    {"AIza", "google_api_key", Charset::AlnumDashUnderscore, 35, 35, 0.95, false},
};

constexpr std::string_view kSlackWebhook = "https://hooks.slack.com/services/";

// Length of a prefixed key at i per rule r, or 0.
std::size_t matchRule(std::string_view s, std::size_t i, const Rule& r) {
  if (s.substr(i, r.prefix.size()) != r.prefix) return 0;
  std::size_t b = i + r.prefix.size(), e = b;
  while (e < s.size() && e - b <= kMaxBody && inCharset(s[e], r.charset)) ++e;
  std::size_t len = e - b;
  if (len < r.minBody || len > r.maxBody) return 0;
  if (isAlnum(at(s, e))) return 0;  // the token goes on: not this shape
  if (r.needsDigitAndLetter) {
    bool digit = false, letter = false;
    for (std::size_t k = b; k < e; ++k) {
      digit = digit || isDigit(s[k]);
      letter = letter || isAlpha(s[k]);
    }
    if (!digit || !letter) return 0;
  }
  return e - i;
}

// https://hooks.slack.com/services/T.../B.../secret
std::size_t matchSlackWebhook(std::string_view s, std::size_t i) {
  if (s.substr(i, kSlackWebhook.size()) != kSlackWebhook) return 0;
  std::size_t p = i + kSlackWebhook.size();
  for (int part = 0; part < 3; ++part) {
    std::size_t start = p;
    while (p < s.size() && p - start < 64 && isAlnum(s[p])) ++p;
    if (p - start < 8) return 0;
    if (part < 2) {
      if (at(s, p) != '/') return 0;
      ++p;
    }
  }
  return p - i;
}

}  // namespace

ApiKeyDetector::ApiKeyDetector(const aev::Host&, std::string_view config) : minScore_(readMinScore(config, 0.0)) {}

std::vector<aev::Match> ApiKeyDetector::scan(const aev::ScanInput& in) const {
  std::vector<aev::Match> out;
  std::string_view s = in.text;
  std::size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    // Every prefix starts with one of these letters; skip the rest cheaply.
    if ((c != 'A' && c != 'g' && c != 's' && c != 'x' && c != 'r' && c != 'h') || isAlnum(before(s, i)) ||
        before(s, i) == '_' || before(s, i) == '-') {
      ++i;
      continue;
    }
    std::size_t len = 0;
    const char* label = nullptr;
    double score = 0;
    if (c == 'h') {
      len = matchSlackWebhook(s, i);
      label = "slack_webhook_url";
      score = 0.95;
    } else {
      for (const auto& r : kRules) {
        len = matchRule(s, i, r);
        if (len) {
          label = r.label;
          score = r.score;
          break;
        }
      }
    }
    if (len && score >= minScore_) {
      out.push_back({i, i + len, score, label});
      i += len;
    } else {
      ++i;
    }
  }
  return out;
}

}  // namespace builtin

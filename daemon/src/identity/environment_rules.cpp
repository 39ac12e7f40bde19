#include "identity/environment_rules.h"

namespace aev::identity {

namespace {
bool isAsciiSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool isSlugAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
// ASCII only: std::tolower would depend on the locale and could touch UTF-8 bytes.
char asciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
}  // namespace

std::string trimWhitespace(const std::string& text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && isAsciiSpace(text[begin])) ++begin;
  while (end > begin && isAsciiSpace(text[end - 1])) --end;
  return text.substr(begin, end - begin);
}

bool isValidEnvironmentSlug(const std::string& slug) {
  if (slug.empty() || slug.size() > kEnvironmentSlugMax || slug.front() == '-' || slug.back() == '-') return false;
  for (char c : slug)
    if (!isSlugAlnum(c) && c != '-') return false;
  return true;
}

std::string environmentSlugFrom(const std::string& name) {
  std::string out;
  bool pendingDash = false;  // a run of other characters seen since the last kept one
  for (char raw : name) {
    const char c = asciiLower(raw);
    if (!isSlugAlnum(c)) {
      pendingDash = !out.empty();
      continue;
    }
    if (pendingDash) out += '-';
    pendingDash = false;
    out += c;
    if (out.size() >= kEnvironmentSlugMax) break;
  }
  if (out.size() > kEnvironmentSlugMax) out.resize(kEnvironmentSlugMax);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

}  // namespace aev::identity

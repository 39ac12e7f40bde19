#include "plugins/validation.h"

#include <algorithm>
#include <cstring>

namespace aev::plugins {

std::optional<std::string> boundedCString(const char* p, std::size_t maxLen) {
  if (!p) return std::nullopt;
  const void* nul = std::memchr(p, '\0', maxLen + 1);
  if (!nul) return std::nullopt;
  return std::string(p, static_cast<const char*>(nul) - p);
}

namespace {

bool lowerOrDigitOrUnderscore(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }
bool letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

bool isValidPluginName(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name)
    if (!lowerOrDigitOrUnderscore(c)) return false;
  return true;
}

bool isValidComponentName(std::string_view name) {
  if (name.empty() || name.size() > 64 || !letter(name[0])) return false;
  for (char c : name)
    if (!(letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-')) return false;
  return true;
}

bool isValidMetricName(std::string_view name) {
  if (name.empty() || name.size() > 64 || !(name[0] >= 'a' && name[0] <= 'z')) return false;
  for (char c : name)
    if (!lowerOrDigitOrUnderscore(c)) return false;
  return true;
}

bool isValidUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t n;
    unsigned cp;
    if (c < 0x80) { ++i; continue; }
    if ((c & 0xE0) == 0xC0) { n = 1; cp = c & 0x1F; }
    else if ((c & 0xF0) == 0xE0) { n = 2; cp = c & 0x0F; }
    else if ((c & 0xF8) == 0xF0) { n = 3; cp = c & 0x07; }
    else return false;
    if (i + n >= s.size()) return false;  // truncated sequence
    for (std::size_t k = 1; k <= n; ++k) {
      auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000)) return false;
    if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
    i += n + 1;
  }
  return true;
}

bool isUtf8Boundary(std::string_view text, std::size_t offset) {
  if (offset == 0 || offset == text.size()) return true;
  if (offset > text.size()) return false;
  return (static_cast<unsigned char>(text[offset]) & 0xC0) != 0x80;
}

std::string oneLine(std::string_view s, std::size_t maxLen) {
  std::string out;
  out.reserve(std::min(s.size(), maxLen));
  for (char c : s.substr(0, maxLen)) out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
  if (s.size() > maxLen) out += "…";
  return out;
}

}  // namespace aev::plugins

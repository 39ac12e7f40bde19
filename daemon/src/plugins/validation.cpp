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

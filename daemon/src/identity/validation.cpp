#include "identity/validation.h"

#include <cctype>

namespace aev::identity {

namespace {
bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
}  // namespace

std::string lower(const std::string& s) {
  std::string out = s;
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool isValidEmail(const std::string& email) {
  if (email.size() < 3 || email.size() > 254) return false;
  auto at = email.find('@');
  if (at == std::string::npos || at == 0 || at != email.rfind('@') || at == email.size() - 1) return false;
  auto domain = email.substr(at + 1);
  if (domain.find('.') == std::string::npos || domain.front() == '.' || domain.back() == '.') return false;
  for (unsigned char c : email)
    if (c <= 32 || c == 127 || c == '<' || c == '>' || c == ',' || c == ';' || c == '"' || c == '\\') return false;
  return true;
}

bool isValidUsername(const std::string& u) {
  if (u.size() < 3 || u.size() > 64 || !alnum(u[0])) return false;
  for (char c : u)
    if (!(alnum(c) || c == '_' || c == '.' || c == '-') || std::isupper(static_cast<unsigned char>(c))) return false;
  return true;
}

bool isValidSlug(const std::string& s) {
  if (s.empty() || s.size() > 63) return false;
  if (!(std::islower(static_cast<unsigned char>(s[0])) || std::isdigit(static_cast<unsigned char>(s[0])))) return false;
  for (char c : s)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'))
      return false;
  return true;
}

bool isValidRole(const std::string& role) { return role == kRoleAdmin || role == kRoleUser; }

std::string slugify(const std::string& text) {
  std::string out;
  for (char c : lower(text)) {
    if (std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)))
      out += c;
    else if (!out.empty() && out.back() != '-')
      out += '-';
    if (out.size() >= 50) break;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "org" : out;
}

}  // namespace aev::identity

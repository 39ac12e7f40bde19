#include "store/postgres_session_settings.h"

#include <cctype>
#include <stdexcept>

namespace aev::store {
namespace {

bool isParameterName(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') return false;
  return true;
}

std::vector<std::string> items(const std::string& list) {
  std::vector<std::string> out;
  std::string current;
  for (char c : list) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!current.empty()) out.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) out.push_back(std::move(current));
  return out;
}

}  // namespace

std::vector<PostgresSessionSetting> parsePostgresSessionSettings(const std::string& list) {
  std::vector<PostgresSessionSetting> out;
  for (const auto& item : items(list)) {
    const auto eq = item.find('=');
    auto refuse = [&](const std::string& why) {
      return std::invalid_argument("database.postgresql_settings: \"" + item + "\" " + why);
    };
    if (eq == std::string::npos) throw refuse("is not name=value");
    PostgresSessionSetting s{item.substr(0, eq), item.substr(eq + 1)};
    if (!isParameterName(s.name)) throw refuse("does not start with a parameter name");
    if (s.value.empty()) throw refuse("has no value");
    for (const auto& earlier : out)
      if (earlier.name == s.name) throw refuse("sets " + s.name + " a second time");
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace aev::store

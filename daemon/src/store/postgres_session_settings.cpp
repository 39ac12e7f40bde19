#include "store/postgres_session_settings.h"

#include <Poco/StringTokenizer.h>

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

}  // namespace

std::vector<PostgresSessionSetting> parsePostgresSessionSettings(const std::string& list) {
  std::vector<PostgresSessionSetting> out;
  // Items are separated by commas (the documented form) or whitespace.
  const Poco::StringTokenizer items(list, ", \t\r\n", Poco::StringTokenizer::TOK_IGNORE_EMPTY);
  for (const auto& item : items) {
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

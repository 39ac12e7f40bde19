#include "store/postgres_conninfo.h"

#include <Poco/URI.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

namespace aev::store {

namespace {

// libpq's connection keywords and the environment variables that stand for them
// (PostgreSQL documentation, libpq "Environment Variables").
const std::map<std::string, std::string>& environmentVariables() {
  static const std::map<std::string, std::string> vars = {
      {"host", "PGHOST"},
      {"hostaddr", "PGHOSTADDR"},
      {"port", "PGPORT"},
      {"dbname", "PGDATABASE"},
      {"user", "PGUSER"},
      {"password", "PGPASSWORD"},
      {"passfile", "PGPASSFILE"},
      {"channel_binding", "PGCHANNELBINDING"},
      {"service", "PGSERVICE"},
      {"options", "PGOPTIONS"},
      {"application_name", "PGAPPNAME"},
      {"sslmode", "PGSSLMODE"},
      {"sslcert", "PGSSLCERT"},
      {"sslkey", "PGSSLKEY"},
      {"sslrootcert", "PGSSLROOTCERT"},
      {"sslcrl", "PGSSLCRL"},
      {"sslcrldir", "PGSSLCRLDIR"},
      {"sslsni", "PGSSLSNI"},
      {"requirepeer", "PGREQUIREPEER"},
      {"ssl_min_protocol_version", "PGSSLMINPROTOCOLVERSION"},
      {"ssl_max_protocol_version", "PGSSLMAXPROTOCOLVERSION"},
      {"gssencmode", "PGGSSENCMODE"},
      {"krbsrvname", "PGKRBSRVNAME"},
      {"gsslib", "PGGSSLIB"},
      {"connect_timeout", "PGCONNECT_TIMEOUT"},
      {"client_encoding", "PGCLIENTENCODING"},
      {"target_session_attrs", "PGTARGETSESSIONATTRS"},
      {"load_balance_hosts", "PGLOADBALANCEHOSTS"},
  };
  return vars;
}

bool hasWhitespace(const std::string& v) {
  return std::any_of(v.begin(), v.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

bool isKeyword(const std::string& k) {
  return !k.empty() && std::all_of(k.begin(), k.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

std::string conninfoQuoted(const std::string& v) {
  std::string out = "'";
  for (char c : v) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

}  // namespace

PostgresConnectionSettings postgresConnectionSettings(const std::string& url) {
  Poco::URI uri(url);
  PostgresConnectionSettings s;
  auto add = [&](const std::string& key, const std::string& value) {
    if (value.empty()) return;
    if (!isKeyword(key))
      throw std::invalid_argument("database.url: \"" + key.substr(0, 40) + "\" is not a PostgreSQL connection keyword");
    if (hasWhitespace(value)) {
      const auto& vars = environmentVariables();
      auto var = vars.find(key);
      if (var == vars.end())
        throw std::invalid_argument("database.url: the value of \"" + key +
                                    "\" holds whitespace, which the PostgreSQL driver cannot pass for this keyword");
      s.environment.emplace_back(var->second, value);
      return;
    }
    s.conninfo += (s.conninfo.empty() ? "" : " ") + key + "=" + conninfoQuoted(value);
  };
  add("host", uri.getHost());
  if (uri.getPort() != 0) add("port", std::to_string(uri.getPort()));
  const auto userInfo = uri.getUserInfo();
  const auto colon = userInfo.find(':');
  std::string user, password;
  Poco::URI::decode(userInfo.substr(0, colon), user);
  if (colon != std::string::npos) Poco::URI::decode(userInfo.substr(colon + 1), password);
  add("user", user);
  add("password", password);
  auto path = uri.getPath();
  if (!path.empty() && path[0] == '/') path.erase(0, 1);
  add("dbname", path);
  for (const auto& [k, v] : uri.getQueryParameters()) add(k, v);
  return s;
}

}  // namespace aev::store

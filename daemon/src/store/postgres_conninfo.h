#pragma once
// A postgresql:// URL (database.url) as libpq receives it through Poco's PostgreSQL
// connector. That connector cuts its connection string at every space, quoted or not, and
// rebuilds it, so a value holding whitespace (a passphrase, `options=-c a=1 -c b=2`)
// cannot travel in it: it would be refused as "cannot find '='" or reach libpq in pieces.
// Such values go instead to the environment variable libpq reads for the same keyword
// (PGPASSWORD, PGOPTIONS, ...), which the daemon sets once, before its first connection.
#include <string>
#include <utility>
#include <vector>

namespace aev::store {

struct PostgresConnectionSettings {
  std::string conninfo;                                          // key='value' pairs, no whitespace in any value
  std::vector<std::pair<std::string, std::string>> environment;  // PGxxx=value for the values that hold whitespace
};

// Throws std::invalid_argument naming the keyword when a value with whitespace has no
// libpq environment variable to go to, or a keyword is not a plain word.
PostgresConnectionSettings postgresConnectionSettings(const std::string& url);

}  // namespace aev::store

// store/postgres_conninfo: a postgresql:// URL as libpq receives it through Poco's
// connector, which cuts its connection string at every space. Values with whitespace must
// leave the conninfo for libpq's environment variables; the others stay in it, quoted.
#include "store/postgres_conninfo.h"

#include <gtest/gtest.h>

namespace aev::store {
namespace {

TEST(PostgresConninfo, PlainValuesStayInTheConninfo) {
  auto s = postgresConnectionSettings(
      "postgresql://agent:s3cr%27t@db.internal:5433/events?sslmode=require&options=-cstatement_timeout%3D5s");
  EXPECT_EQ(s.conninfo,
            "host='db.internal' port='5433' user='agent' password='s3cr\\'t' dbname='events' "
            "sslmode='require' options='-cstatement_timeout=5s'");
  EXPECT_TRUE(s.environment.empty());
}

TEST(PostgresConninfo, ValuesWithWhitespaceGoToLibpqEnvironmentVariables) {
  // A passphrase and several -c settings: both hold spaces.
  auto s = postgresConnectionSettings(
      "postgresql://agent:correct%20horse%20battery@127.0.0.1:5432/events"
      "?options=-c%20jit%3Doff%20-c%20statement_timeout%3D5s&application_name=agent%20events");
  EXPECT_EQ(s.conninfo, "host='127.0.0.1' port='5432' user='agent' dbname='events'");
  std::vector<std::pair<std::string, std::string>> expected = {{"PGPASSWORD", "correct horse battery"},
                                                               {"PGOPTIONS", "-c jit=off -c statement_timeout=5s"},
                                                               {"PGAPPNAME", "agent events"}};
  EXPECT_EQ(s.environment, expected);
  // Poco splits at spaces: no value in the conninfo may hold one.
  for (const auto& part : {"host=", "port=", "user=", "dbname="})
    EXPECT_NE(s.conninfo.find(part), std::string::npos) << part;
  EXPECT_EQ(std::count(s.conninfo.begin(), s.conninfo.end(), ' '), 3);
}

TEST(PostgresConninfo, RefusesWhatCannotReachLibpqWhole) {
  // A keyword without an environment variable cannot carry whitespace.
  EXPECT_THROW(postgresConnectionSettings("postgresql://h/db?keepalives_idle=1%200"), std::invalid_argument);
  // A keyword that is not a word would break the key=value pairs.
  EXPECT_THROW(postgresConnectionSettings("postgresql://h/db?a%3Db=1"), std::invalid_argument);
  EXPECT_THROW(postgresConnectionSettings("postgresql://h/db?a%20b=1"), std::invalid_argument);
}

}  // namespace
}  // namespace aev::store

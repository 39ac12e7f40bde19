// store/postgres_session_settings: database.postgresql_settings, the name=value list each
// PostgreSQL session is given as it opens. Malformed lists stop start-up with the item named.
#include "store/postgres_session_settings.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace aev::store {
namespace {

std::string flat(const std::vector<PostgresSessionSetting>& settings) {
  std::string out;
  for (const auto& s : settings) out += s.name + "=" + s.value + ";";
  return out;
}

TEST(PostgresSessionSettings, CommasAndSpacesSeparateItems) {
  EXPECT_EQ(flat(parsePostgresSessionSettings("jit=off, random_page_cost=1.1")), "jit=off;random_page_cost=1.1;");
  EXPECT_EQ(flat(parsePostgresSessionSettings("jit=off,work_mem=16MB  statement_timeout=30s,")),
            "jit=off;work_mem=16MB;statement_timeout=30s;");
  EXPECT_EQ(flat(parsePostgresSessionSettings("myext.mode=strict")), "myext.mode=strict;");
  // A value keeps everything after the first '='.
  EXPECT_EQ(flat(parsePostgresSessionSettings("application_name=a=b")), "application_name=a=b;");
}

TEST(PostgresSessionSettings, EmptyIsNone) {
  EXPECT_TRUE(parsePostgresSessionSettings("").empty());
  EXPECT_TRUE(parsePostgresSessionSettings(" , ,").empty());
}

TEST(PostgresSessionSettings, MalformedItemsAreRefusedByName) {
  for (const char* bad : {"jit", "jit=", "=off", "1jit=off", "ji-t=off", "jit=off jit=on", "j'it=1", "x;y=1"}) {
    try {
      parsePostgresSessionSettings(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("database.postgresql_settings"), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace aev::store

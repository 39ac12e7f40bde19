// app/config_defaults.h: the key list and its environment mapping.
#include "app/config_defaults.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace aev::app {
namespace {

std::map<std::string, std::string> defaultsMap() {
  std::map<std::string, std::string> m;
  for (const auto& [k, v] : configDefaults()) m[k] = v;
  return m;
}

TEST(ConfigDefaults, EnvNameFor) {
  EXPECT_EQ(envNameFor("http.max_body_bytes"), "AGENT_EVENTS_HTTP_MAX_BODY_BYTES");
  EXPECT_EQ(envNameFor("auth.registration"), "AGENT_EVENTS_AUTH_REGISTRATION");
  EXPECT_EQ(envNameFor("plans.free.seat_limit"), "AGENT_EVENTS_PLANS_FREE_SEAT_LIMIT");
  EXPECT_EQ(envNameFor("database.url"), "AGENT_EVENTS_DATABASE_URL");
}

TEST(ConfigDefaults, KeysAreUniqueAndMapToDistinctEnvironmentNames) {
  std::set<std::string> keys, envs;
  for (const auto& [k, v] : configDefaults()) {
    EXPECT_TRUE(keys.insert(k).second) << "duplicate key " << k;
    EXPECT_TRUE(envs.insert(envNameFor(k)).second) << "two keys map to " << envNameFor(k);
    EXPECT_EQ(k.find(' '), std::string::npos) << k;
    EXPECT_NE(k.find('.'), std::string::npos) << "key without a section: " << k;
  }
}

// The written reference (docs/configuration.md, the properties file) is printed from
// the table, so every key must say what it does.
TEST(ConfigDefaults, EveryKeyIsDescribed) {
  for (const auto& entry : configKeys()) {
    EXPECT_GE(entry.description.size(), 10u) << entry.key << " has no description";
    EXPECT_EQ(entry.description.find('\n'), std::string::npos) << entry.key;
  }
}

TEST(ConfigDefaults, DecidedDefaults) {
  auto m = defaultsMap();
  EXPECT_EQ(m.at("http.host"), "127.0.0.1");
  EXPECT_EQ(m.at("http.max_body_bytes"), "1048576");        // 1 MiB (docs/api.md#errors)
  EXPECT_EQ(m.at("auth.registration"), "open");             // docs/api.md#authentication
  EXPECT_EQ(m.at("auth.access_token_ttl_seconds"), "900");  // 15 min
  EXPECT_EQ(m.at("auth.login_max_failures"), "5");
  EXPECT_EQ(m.at("plans.free.seat_limit"), "5");
  EXPECT_EQ(m.at("database.url"), "");  // SQLite in the data dir
  EXPECT_EQ(m.at("auth.jwt_secret"), "");  // generated into the data dir
  EXPECT_EQ(m.at("metrics.access"), "loopback");
}

TEST(ConfigDefaults, EveryPlanHasItsLimits) {
  auto m = defaultsMap();
  for (const char* plan : {"free", "team", "enterprise"}) {
    for (const char* field : {"events_quota_monthly", "retention_days", "seat_limit"}) {
      auto key = std::string("plans.") + plan + "." + field;
      ASSERT_TRUE(m.count(key)) << key;
      EXPECT_GT(std::stoll(m.at(key)), 0) << key;
    }
  }
  EXPECT_TRUE(m.count(std::string("plans.") + m.at("plans.default") + ".seat_limit"));
}

}  // namespace
}  // namespace aev::app

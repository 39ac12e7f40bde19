// app/config_keys.h: which keys exist, and the nearest known key named for a typo.
#include "app/config_keys.h"

#include <gtest/gtest.h>

#include "app/config_defaults.h"

namespace aev::app {
namespace {

TEST(ConfigKeys, TheDefaultsTableAndPluginNamespacesAreKnown) {
  for (const auto& [key, value] : configDefaults()) EXPECT_TRUE(isKnownConfigKey(key)) << key;
  EXPECT_TRUE(isKnownConfigKey("plugins.exporter_otlp.timeout_ms"));
  EXPECT_TRUE(isKnownConfigKey("plugins.alert_webhook.enabled"));
  EXPECT_TRUE(isKnownConfigKey("plugins.x.a.b"));
  for (const char* unknown : {"http.cors_origin", "http", "plugins", "plugins.", "plugins.x", "plugins.x.",
                              "plugins..y", "plans.gold.seat_limit", "config.file", ""})
    EXPECT_FALSE(isKnownConfigKey(unknown)) << unknown;
}

TEST(ConfigKeys, ATypoNamesTheNearestKnownKey) {
  EXPECT_EQ(nearestConfigKey("http.cors_origin"), "http.cors_origins");
  EXPECT_EQ(nearestConfigKey("databse.url"), "database.url");
  EXPECT_EQ(nearestConfigKey("http.max_body_byte"), "http.max_body_bytes");
  EXPECT_EQ(nearestConfigKey("completely.different.thing"), std::nullopt);
  const auto lines = unknownKeysIn({"http.port", "http.cors_origin", "plugins.p.k"}, "in /etc/x.properties");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "unknown configuration key http.cors_origin (in /etc/x.properties; did you mean http.cors_origins?)");
}

TEST(ConfigKeys, EnvironmentVariablesMapToKnownKeysOnly) {
  const auto lines = unknownEnvironmentVariables({"PATH", "AGENT_EVENTS_CONFIG", "AGENT_EVENTS_HTTP_PORT",
                                                  "AGENT_EVENTS_HTTP_CORS_ORIGIN", "AGENT_EVENTS_PLUGINS_DIR",
                                                  "AGENT_EVENTS_PLUGINS_EXPORTER_OTLP_TIMEOUT_MS"});
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "unknown configuration variable AGENT_EVENTS_HTTP_CORS_ORIGIN (from the environment; did you mean "
            "AGENT_EVENTS_HTTP_CORS_ORIGINS?)");
  EXPECT_NE(lines[1].find("AGENT_EVENTS_PLUGINS_EXPORTER_OTLP_TIMEOUT_MS"), std::string::npos);
}

}  // namespace
}  // namespace aev::app

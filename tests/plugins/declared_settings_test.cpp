// Typed, declared settings (ABI 1.1, aev_setting_v1): a plugin that declares its settings
// gets them checked as core keys are. The host answers an unset key with its default,
// refuses an undeclared plugins.<plugin>.* key or an ill-typed value (a configuration
// error: the daemon exits 78 with the message), lists them for --print-config-reference,
// and a key for a plugin that does not exist stops start-up too. A 1.0 plugin, which
// declares nothing, reads what it likes as before.
#include <gtest/gtest.h>

#include "plugins/host.h"
#include "plugins/settings.h"
#include "support/plugin_test_support.h"
#include "support/process.h"

namespace aev::plugins::test {
namespace {

Refusal refusedWith(std::map<std::string, std::string> config) {
  HostOptions options;
  options.config = std::move(config);
  Host host(options);
  auto report = host.loadFile(AEV_TEST_SETTINGS_PLUGIN);
  if (report.refused.size() != 1) throw std::runtime_error("expected a refusal: " + report.details());
  return report.refused[0];
}

TEST(DeclaredSettings, UnsetKeysReadAsTheirDefaultsAndSetOnesAsGiven) {
  {
    Host host;
    auto report = host.loadFile(AEV_TEST_SETTINGS_PLUGIN);
    ASSERT_EQ(report.loaded.size(), 1u) << report.details();
    auto key = host.registry().dimension("fixture.settings")->create()->key("{}");
    EXPECT_EQ(key.key, "limit=10 interval=5000 ratio=0.25 tags=a|b");
    ASSERT_EQ(report.loaded[0].settings.size(), 5u);
  }
  HostOptions options;
  options.config = {{"plugins.fixture_settings.limit", "7"},
                    {"plugins.fixture_settings.interval", "250ms"},
                    {"plugins.fixture_settings.ratio", "0.5"},
                    {"plugins.fixture_settings.tags", " x ,, y "},
                    {"plugins.fixture_settings.enabled", "true"}};
  Host host(options);
  auto report = host.loadFile(AEV_TEST_SETTINGS_PLUGIN);
  ASSERT_EQ(report.loaded.size(), 1u) << report.details();
  EXPECT_EQ(host.registry().dimension("fixture.settings")->create()->key("{}").key,
            "limit=7 interval=250 ratio=0.50 tags=x|y");
}

TEST(DeclaredSettings, AnUndeclaredKeyIsAConfigurationError) {
  auto r = refusedWith({{"plugins.fixture_settings.limt", "7"}});
  EXPECT_EQ(r.kind, RefusalKind::ConfigError);
  EXPECT_EQ(r.reason,
            "unknown setting plugins.fixture_settings.limt (plugin fixture_settings declares: interval, limit, "
            "ratio, tags, token)");
}

TEST(DeclaredSettings, AnIllTypedValueIsAConfigurationError) {
  struct Case {
    std::string key, value, reason;
  };
  for (const auto& c : std::vector<Case>{
           {"limit", "ten", "setting plugins.fixture_settings.limit = \"ten\" is not an integer"},
           {"interval", "5",
            "setting plugins.fixture_settings.interval = \"5\" is not a duration (an integer with ms, "
            "s, m or h, e.g. 30s)"},
           {"ratio", "lots", "setting plugins.fixture_settings.ratio = \"lots\" is not a number"},
       }) {
    auto r = refusedWith({{"plugins.fixture_settings." + c.key, c.value}});
    EXPECT_EQ(r.kind, RefusalKind::ConfigError) << c.key;
    EXPECT_EQ(r.reason, c.reason);
  }
  LoadReport report;
  report.refused.push_back(refusedWith({{"plugins.fixture_settings.limit", "x"}}));
  EXPECT_TRUE(report.hasConfigErrors());
}

TEST(DeclaredSettings, ValueChecksOfEachType) {
  EXPECT_EQ(settingValueProblem(AEV_SETTING_INTEGER, "-12"), "");
  EXPECT_NE(settingValueProblem(AEV_SETTING_INTEGER, "1.5"), "");
  EXPECT_EQ(settingValueProblem(AEV_SETTING_NUMBER, "1e3"), "");
  EXPECT_NE(settingValueProblem(AEV_SETTING_NUMBER, "inf"), "");
  EXPECT_EQ(settingValueProblem(AEV_SETTING_BOOLEAN, "off"), "");
  EXPECT_NE(settingValueProblem(AEV_SETTING_BOOLEAN, "maybe"), "");
  EXPECT_EQ(settingValueProblem(AEV_SETTING_DURATION, "2h"), "");
  EXPECT_NE(settingValueProblem(AEV_SETTING_DURATION, "2d"), "");
  EXPECT_EQ(durationMillis("3m"), 180000);
  EXPECT_EQ(settingValueProblem(AEV_SETTING_LIST, ""), "");
}

TEST(DeclaredSettings, KeysOfAPluginThatDoesNotExistAreReported) {
  Host host;
  auto report = host.loadFile(AEV_TEST_SETTINGS_PLUGIN);
  checkPluginNamespaces({{"plugins.fixture_settings.limit", "1"}, {"plugins.dir", "/x"}, {"plugins.nope.x", "1"}},
                        report);
  ASSERT_EQ(report.unknownPluginKeys.size(), 1u);
  EXPECT_EQ(report.unknownPluginKeys[0],
            "unknown configuration key plugins.nope.x: no plugin named nope was found (plugins: fixture_settings)");
  EXPECT_TRUE(report.hasConfigErrors());
  EXPECT_FALSE(report.clean());
  EXPECT_NE(pluginSettingsMarkdown(host.registry())
                .find("| `plugins.fixture_settings.interval` | duration | `5s` | how often |"),
            std::string::npos)
      << pluginSettingsMarkdown(host.registry());
  EXPECT_NE(pluginSettingsMarkdown(host.registry()).find("| `plugins.fixture_settings.token` | string | (secret) |"),
            std::string::npos);
}

// The daemon itself: exit 78 with the message, as for an unknown core key.
aev::testing::CommandResult startDaemon(const std::vector<std::string>& extra) {
  aev::testing::TempDir data("aev-settings");
  std::vector<std::string> argv = {AEV_TEST_DAEMON, "--port",        "0",
                                   "--host",        "127.0.0.1",     "--data-dir",
                                   data.path(),     "--plugins-dir", AEV_TEST_SETTINGS_PLUGIN_DIR};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return aev::testing::runCommand(argv, std::chrono::seconds(60));
}

TEST(DeclaredSettings, TheDaemonRefusesToStartWithExit78AndTheMessage) {
  for (const auto& [set, message] : std::vector<std::pair<std::string, std::string>>{
           {"plugins.fixture_settings.limt=7", "unknown setting plugins.fixture_settings.limt"},
           {"plugins.fixture_settings.limit=ten", "setting plugins.fixture_settings.limit = \"ten\" is not an integer"},
           {"plugins.no_such_plugin.key=1",
            "unknown configuration key plugins.no_such_plugin.key: no plugin named "
            "no_such_plugin was found"}}) {
    auto r = startDaemon({"--set", set});
    EXPECT_TRUE(r.status.exited) << set << ": " << r.status.describe();
    EXPECT_EQ(r.status.code, 78) << set << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << set << "\n" << r.output;
  }
  // --check-plugins reports it too, exit 1.
  auto check = startDaemon({"--check-plugins", "--set", "plugins.fixture_settings.limt=7"});
  EXPECT_EQ(check.status.code, 1) << check.output;
  EXPECT_NE(check.output.find("unknown setting plugins.fixture_settings.limt"), std::string::npos) << check.output;
  // A disabled plugin is skipped, not refused: --check-plugins exits 0.
  auto disabled = startDaemon({"--check-plugins", "--set", "plugins.fixture_settings.enabled=false"});
  EXPECT_EQ(disabled.status.code, 0) << disabled.output;
  EXPECT_NE(disabled.output.find("0 plugins loaded, 0 refused, 1 disabled"), std::string::npos) << disabled.output;
}

TEST(DeclaredSettings, PrintConfigReferenceListsThem) {
  auto r = startDaemon({"--print-config-reference"});
  ASSERT_TRUE(r.ok()) << r.output;
  EXPECT_NE(r.output.find("## Plugin settings"), std::string::npos) << r.output.substr(r.output.size() - 2000);
  EXPECT_NE(r.output.find("| `plugins.fixture_settings.limit` | integer | `10` | how many |"), std::string::npos);
}

}  // namespace
}  // namespace aev::plugins::test

// A crash names its plugin (plugins/crash_marker.h): a fatal signal during a plugin call
// writes one line naming plugin, kind, component, call and signal, and the process still
// ends by that signal (so a core dump and systemd's restart follow).
#include <gtest/gtest.h>

#include <csignal>

#include "plugins/host.h"
#include "support/plugin_test_support.h"
#include "support/process.h"

namespace aev::plugins::test {
namespace {

TEST(CrashNamesPlugin, ASegfaultInScanNamesTheCallAndDiesBySignal) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Host host;
        auto report = host.loadFile(AEV_TEST_CRASH_PLUGIN);
        if (report.loaded.size() != 1) std::_Exit(3);
        host.registry().detector("fixture.crash")->create()->scan("any text");
        std::_Exit(4);  // not reached
      },
      ::testing::KilledBySignal(SIGSEGV),
      "agent-eventsd: fatal signal SIGSEGV during a plugin call: plugin=fixture_crash kind=detector "
      "component=fixture\\.crash call=scan\n");
}

TEST(CrashNamesPlugin, TheDaemonsLastLineNamesThePluginAndItEndsBySignal) {
  // The daemon itself: the plugin dies while it registers, at start-up.
  aev::testing::TempDir data("aev-crash");
  auto result =
      aev::testing::runCommand({AEV_TEST_DAEMON, "--port", "0", "--host", "127.0.0.1", "--data-dir", data.path(),
                                "--plugins-dir", AEV_TEST_CRASH_PLUGIN_DIR, "--set",
                                "plugins.fixture_crash.crash_in=register", "--set", "config.unknown_keys=error"},
                               std::chrono::seconds(60));
  EXPECT_FALSE(result.status.exited) << result.status.describe() << "\n" << result.output;
  EXPECT_EQ(result.status.signal, SIGSEGV) << result.status.describe();
  auto output = result.output;
  while (!output.empty() && output.back() == '\n') output.pop_back();
  const auto lastLine = output.substr(output.rfind('\n') + 1);
  EXPECT_EQ(lastLine,
            "agent-eventsd: fatal signal SIGSEGV during a plugin call: plugin=fixture_crash kind=plugin component=- "
            "call=register")
      << result.output;
}

}  // namespace
}  // namespace aev::plugins::test

// The loader's refusals: each broken fixture is refused with the right kind and a clear
// reason, the daemon-side host keeps running, and nothing of a refused plugin reaches
// the registry.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "support/plugin_test_support.h"

namespace aev::plugins {
namespace {

using test::fixturePath;

Refusal refusedOnly(Host& host, const std::string& path) {
  auto report = host.loadFile(path);
  EXPECT_TRUE(report.loaded.empty());
  EXPECT_EQ(report.refused.size(), 1u);
  return report.refused.empty() ? Refusal{} : report.refused.front();
}

TEST(AbiHandshake, WellFormedPluginLoads) {
  Host host;
  auto report = host.loadFile(fixturePath("c_basic"));
  ASSERT_EQ(report.loaded.size(), 1u) << (report.refused.empty() ? "" : report.refused[0].reason);
  EXPECT_EQ(report.loaded[0].name, "fixture_c_basic");
  EXPECT_EQ(report.loaded[0].version, "1.2.3");
  EXPECT_EQ(report.loaded[0].abiMajor, AEV_ABI_MAJOR);
  EXPECT_TRUE(report.clean());
  EXPECT_NE(host.registry().detector("fixture.word"), nullptr);
  EXPECT_NE(host.registry().exporter("fixture.recorder"), nullptr);
  EXPECT_NE(host.registry().alertSink("fixture.alert"), nullptr);
  EXPECT_NE(host.registry().dimension("fixture.length"), nullptr);
}

TEST(AbiHandshake, WrongMagicIsRefused) {
  Host host;
  auto r = refusedOnly(host, fixturePath("bad_magic"));
  EXPECT_EQ(r.kind, RefusalKind::Incompatible);
  EXPECT_NE(r.reason.find("wrong magic 0xdeadbeef"), std::string::npos) << r.reason;
  EXPECT_EQ(host.registry().detector("fixture_bad_magic.noop"), nullptr);
}

TEST(AbiHandshake, FutureMajorIsRefusedWithBothVersions) {
  Host host;
  auto r = refusedOnly(host, fixturePath("future_major"));
  EXPECT_EQ(r.kind, RefusalKind::Incompatible);
  EXPECT_NE(r.reason.find("built for SDK ABI 2.0, agent-eventsd provides ABI 1.1"), std::string::npos) << r.reason;
}

TEST(AbiHandshake, FutureMinorIsRefused) {
  Host host;
  auto r = refusedOnly(host, fixturePath("future_minor"));
  EXPECT_EQ(r.kind, RefusalKind::Incompatible);
  EXPECT_NE(r.reason.find("built for SDK ABI 1.2, newer than the ABI 1.1"), std::string::npos) << r.reason;
}

TEST(AbiHandshake, ManifestSmallerThanTheAbiIsRefused) {
  Host host;
  auto r = refusedOnly(host, fixturePath("small_manifest"));
  EXPECT_EQ(r.kind, RefusalKind::Incompatible);
  EXPECT_NE(r.reason.find("struct_size 8"), std::string::npos) << r.reason;
}

TEST(AbiHandshake, MissingRegisterEntryPointIsRefused) {
  Host host;
  auto r = refusedOnly(host, fixturePath("no_register"));
  EXPECT_EQ(r.kind, RefusalKind::Invalid);
  EXPECT_NE(r.reason.find("missing entry point aev_plugin_register_v1"), std::string::npos) << r.reason;
}

TEST(AbiHandshake, OrdinaryLibraryIsRefusedWithoutRunningItsCode) {
  // Its constructor calls abort(): reaching dlopen would end this test process.
  Host host;
  auto r = refusedOnly(host, fixturePath("not_a_plugin"));
  EXPECT_EQ(r.kind, RefusalKind::NotAPlugin);
  EXPECT_NE(r.reason.find("missing entry point aev_plugin_manifest_v1"), std::string::npos) << r.reason;
}

TEST(AbiHandshake, FileThatIsNotElfIsRefused) {
  test::TempDir dir;
  auto path = dir.path() + "/junk.so";
  { std::ofstream(path) << "#!/bin/sh\necho not a library\n"; }
  Host host;
  auto r = refusedOnly(host, path);
  EXPECT_EQ(r.kind, RefusalKind::NotAPlugin);
  EXPECT_NE(r.reason.find("not an ELF"), std::string::npos) << r.reason;
}

TEST(AbiHandshake, TruncatedElfIsRefused) {
  test::TempDir dir;
  std::string bytes;
  {
    std::ifstream in(fixturePath("c_basic"), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto path = dir.path() + "/truncated.so";
  { std::ofstream(path, std::ios::binary).write(bytes.data(), 200); }
  Host host;
  auto r = refusedOnly(host, path);
  EXPECT_EQ(r.kind, RefusalKind::NotAPlugin) << r.reason;
}

TEST(AbiHandshake, UnresolvedSymbolFailsAtLoadNotLater) {
  Host host;
  auto r = refusedOnly(host, fixturePath("unresolved"));
  EXPECT_EQ(r.kind, RefusalKind::LoadFailed);
  EXPECT_NE(r.reason.find("aev_fixture_symbol_nobody_defines"), std::string::npos) << r.reason;
}

TEST(AbiHandshake, DuplicateComponentNameRefusesTheWholePlugin) {
  Host host;
  ASSERT_EQ(host.loadFile(test::standardPluginPath("detector_builtin")).loaded.size(), 1u);
  auto r = refusedOnly(host, fixturePath("duplicate"));
  EXPECT_EQ(r.kind, RefusalKind::Duplicate);
  EXPECT_NE(r.reason.find("duplicate component name \"pii.email\": already provided by plugin detector_builtin"),
            std::string::npos)
      << r.reason;
  // All or nothing: the plugin's other detector is not registered either.
  EXPECT_EQ(host.registry().detector("fixture.unique"), nullptr);
  EXPECT_EQ(host.registry().detector("pii.email")->info().plugin, "detector_builtin");
}

TEST(AbiHandshake, DuplicatePluginNameIsRefused) {
  test::TempDir dir;
  auto first = dir.copy(fixturePath("c_basic"), "a_first.so");
  auto second = dir.copy(fixturePath("c_basic"), "b_second.so");
  Host host;
  auto report = host.loadDirectory(dir.path());
  ASSERT_EQ(report.loaded.size(), 1u);
  ASSERT_EQ(report.refused.size(), 1u);
  EXPECT_EQ(report.refused[0].path, second);
  EXPECT_EQ(report.refused[0].kind, RefusalKind::Duplicate);
  EXPECT_NE(report.refused[0].reason.find("already loaded from " + first), std::string::npos)
      << report.refused[0].reason;
}

TEST(AbiHandshake, VtableWithoutRequiredFunctionIsRefused) {
  Host host;
  auto r = refusedOnly(host, fixturePath("bad_vtable"));
  EXPECT_EQ(r.kind, RefusalKind::Invalid);
  EXPECT_NE(r.reason.find("required function scan is NULL"), std::string::npos) << r.reason;
}

TEST(AbiHandshake, PluginRefusingItsConfigurationIsAConfigError) {
  HostOptions options;
  options.config["plugins.fixture_sdk.fail_on_load"] = "true";
  Host host(options);
  auto r = refusedOnly(host, fixturePath("sdk"));
  EXPECT_EQ(r.kind, RefusalKind::ConfigError);
  EXPECT_NE(r.reason.find("fail_on_load is set"), std::string::npos) << r.reason;
  LoadReport report;
  report.refused.push_back(r);
  EXPECT_TRUE(report.hasConfigErrors());
}

TEST(AbiHandshake, DisabledPluginIsSkippedNotAnError) {
  HostOptions options;
  options.config["plugins.fixture_c_basic.enabled"] = "false";
  Host host(options);
  auto report = host.loadFile(fixturePath("c_basic"));
  ASSERT_EQ(report.refused.size(), 1u);
  EXPECT_EQ(report.refused[0].kind, RefusalKind::Disabled);
  EXPECT_TRUE(report.clean());
  EXPECT_EQ(host.registry().detector("fixture.word"), nullptr);
}

TEST(AbiHandshake, WritableByOthersIsRefusedAsUnsafe) {
  test::TempDir dir;
  auto path = dir.copy(fixturePath("c_basic"), "c_basic.so");
  std::filesystem::permissions(path, std::filesystem::perms::others_write, std::filesystem::perm_options::add);
  Host host;
  auto r = refusedOnly(host, path);
  EXPECT_EQ(r.kind, RefusalKind::Unsafe);
  EXPECT_NE(r.reason.find("writable by group or others"), std::string::npos);
}

TEST(AbiHandshake, DirectoryLoadKeepsGoingPastRefusals) {
  // Every fixture in one directory: the good ones load, each bad one is refused, and
  // the order (by file name) does not matter to the outcome.
  Host host;
  auto report = host.loadDirectory(AEV_TEST_FIXTURE_DIR);
  std::vector<std::string> loaded;
  for (const auto& p : report.loaded) loaded.push_back(p.name);
  std::sort(loaded.begin(), loaded.end());
  EXPECT_EQ(loaded, (std::vector<std::string>{"fixture_c_basic", "fixture_duplicate", "fixture_future_sizes",
                                              "fixture_garbage", "fixture_sdk", "fixture_throwing"}));
  EXPECT_EQ(report.refused.size(), 9u) << report.summary();
  EXPECT_FALSE(report.clean());
  EXPECT_FALSE(report.hasConfigErrors());
  auto details = report.details();  // what --check-plugins prints
  EXPECT_NE(details.find("ok       fixture_c_basic 1.2.3 (ABI 1.1) "), std::string::npos) << details;
  EXPECT_NE(details.find("fixture_bad_magic.so [incompatible]: wrong magic"), std::string::npos) << details;
  EXPECT_NE(details.find("6 plugins loaded, 9 refused"), std::string::npos) << details;
}

TEST(AbiHandshake, MissingDirectoryIsReportedNotFatal) {
  Host host;
  auto report = host.loadDirectory("/nonexistent/agent-events/plugins");
  EXPECT_FALSE(report.directoryError.empty());
  EXPECT_FALSE(report.clean());
  EXPECT_TRUE(host.registry().plugins().empty());
}

TEST(AbiHandshake, DefaultDirectoryIsBesideTheExecutable) {
  EXPECT_EQ(defaultPluginDirectory("/usr/bin/agent-eventsd"), "/usr/lib/agent-events/plugins");
  EXPECT_EQ(defaultPluginDirectory("/opt/build/daemon/agent-eventsd"), "/opt/build/lib/agent-events/plugins");
}

}  // namespace
}  // namespace aev::plugins

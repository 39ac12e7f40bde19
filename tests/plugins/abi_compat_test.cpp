// The ABI promise of docs/plugins.md, tested: a plugin built against SDK 1.0 (the frozen
// header in abi_v1_0/) loads into this daemon and every component works; structs larger
// than this daemon knows (a later 1.x SDK) are read up to what it knows; structs smaller
// than the 1.0 layout are refused; and the host never reads past a declared size.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#include "common/metrics.h"
#include "plugins/abi_prefix.h"
#include "plugins/host_api.h"
#include "support/plugin_test_support.h"

namespace aev::plugins {
namespace {

using test::fixturePath;

class AbiV10Plugin : public ::testing::Test {
 protected:
  void SetUp() override {
    auto report = host_.loadFile(AEV_TEST_ABI_V1_0_PLUGIN);
    ASSERT_EQ(report.loaded.size(), 1u) << report.details();
    info_ = report.loaded[0];
  }
  HostOptions options() {
    HostOptions o;
    o.config["plugins.abi_v1_0.greeting"] = "hello from 1.0";
    return o;
  }
  Host host_{options()};
  PluginInfo info_;
};

TEST_F(AbiV10Plugin, LoadsWithItsManifest) {
  EXPECT_EQ(info_.name, "abi_v1_0");
  EXPECT_EQ(info_.version, "1.0.0");
  EXPECT_EQ(info_.abiMajor, 1);
  EXPECT_EQ(info_.abiMinor, 0);
  EXPECT_EQ(info_.supportUrl, "https://example.invalid/abi_v1_0");
}

TEST_F(AbiV10Plugin, DetectorFindsAndReportsThroughThe10MatchStruct) {
  auto& counter = Metrics::instance().counter("aev_plugin_v10_scans_total{plugin=\"abi_v1_0\"}");
  const auto before = counter.load();
  auto detector = host_.registry().detector("v10.needle");
  ASSERT_NE(detector, nullptr);
  auto r = detector->create()->scan("a needle in the hay, another needle");
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].start, 2u);
  EXPECT_EQ(r.findings[0].end, 8u);
  EXPECT_EQ(r.findings[1].start, 29u);
  EXPECT_DOUBLE_EQ(r.findings[0].score, 0.75);
  EXPECT_EQ(r.findings[0].label, "needle");
  EXPECT_EQ(r.rejectedFindings, 0u);
  // The scan input it read is the host's current struct: the target field is where 1.0 put it.
  auto tool = detector->create()->scan("needle", AEV_TARGET_TOOL_CALL);
  ASSERT_EQ(tool.findings.size(), 1u);
  EXPECT_EQ(tool.findings[0].label, "needle.tool");
  EXPECT_EQ(counter.load(), before + 2);
}

TEST_F(AbiV10Plugin, DimensionExporterAndAlertSinkWork) {
  auto dim = host_.registry().dimension("v10.prefix")->create();
  EXPECT_EQ(dim->key(R"({"id":1})").key.value_or("<none>"), R"({"id)");
  EXPECT_EQ(dim->key("{}", "team-a").key.value_or("<none>"), "team-a");

  auto ok = host_.registry().exporter("v10.count")->open("{}")->exportBatch(AEV_SIGNAL_METRICS, "[{},{},{}]", 3);
  ASSERT_TRUE(ok.ok()) << ok.error;
  EXPECT_EQ(ok.responseStatus, 200);
  EXPECT_EQ(ok.responseBody, R"({"signal":4,"count":3,"bytes":10,"inTime":true})");

  auto retry =
      host_.registry().exporter("v10.count")->open(R"({"mode":"retry"})")->exportBatch(AEV_SIGNAL_LOGS, "[]", 0);
  EXPECT_EQ(retry.status, AEV_RETRY);
  EXPECT_EQ(retry.responseStatus, 503);
  ASSERT_TRUE(retry.retryAfter.has_value());
  EXPECT_EQ(retry.retryAfter->count(), 2000);
  EXPECT_EQ(retry.error, "v1.0 exporter asked to retry");

  auto alert = host_.registry().alertSink("v10.echo")->open("{}")->deliver(R"({"state":"firing"})");
  ASSERT_TRUE(alert.ok()) << alert.error;
  EXPECT_EQ(alert.responseStatus, 202);
  EXPECT_EQ(alert.responseBody, R"({"state":"firing"})");
}

TEST(AbiV10PluginConfig, RefusingItsConfigurationIsAConfigError) {
  HostOptions o;
  o.config["plugins.abi_v1_0.greeting"] = "fail";
  Host host(o);
  auto report = host.loadFile(AEV_TEST_ABI_V1_0_PLUGIN);
  ASSERT_EQ(report.refused.size(), 1u);
  EXPECT_EQ(report.refused[0].kind, RefusalKind::ConfigError);
  EXPECT_NE(report.refused[0].reason.find("greeting \"fail\" refused"), std::string::npos) << report.refused[0].reason;
}

TEST(AbiSizes, LargerThanKnownStructsAreReadUpToWhatTheHostKnows) {
  Host host;
  auto report = host.loadFile(fixturePath("future_sizes"));
  ASSERT_EQ(report.loaded.size(), 1u) << report.details();
  EXPECT_EQ(report.loaded[0].version, "9.9.9");
  // The vtable's appended scan_v2 aborts if called: the host uses scan, and the larger
  // match struct is accepted for its 1.0 fields.
  auto r = host.registry().detector("fixture.future_sizes")->create()->scan("abcdef");
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].end, 3u);
  EXPECT_EQ(r.findings[0].label, "first3");
  EXPECT_EQ(r.rejectedFindings, 0u);
}

TEST(AbiSizes, VtableSmallerThanThe10LayoutIsRefused) {
  Host host;
  auto report = host.loadFile(fixturePath("small_vtable"));
  ASSERT_EQ(report.refused.size(), 1u);
  EXPECT_EQ(report.refused[0].kind, RefusalKind::Invalid);
  EXPECT_NE(report.refused[0].reason.find("vtable struct_size 64 is smaller than the ABI 1.0 layout (72 bytes)"),
            std::string::npos)
      << report.refused[0].reason;
  EXPECT_EQ(host.registry().detector("fixture.small_vtable"), nullptr);
}

TEST(AbiSizes, TheFrozen10SizesAreTheLayoutPluginsWereBuiltWith) {
  // The header asserts every offset at compile time; these are the sizes the host accepts.
  EXPECT_EQ(AEV_MANIFEST_SIZE_1_0, 48u);
  EXPECT_EQ(AEV_DETECTOR_V1_SIZE_1_0, 72u);
  EXPECT_EQ(AEV_EXPORTER_V1_SIZE_1_0, 72u);
  EXPECT_EQ(AEV_ALERT_SINK_V1_SIZE_1_0, 64u);
  EXPECT_EQ(AEV_DIMENSION_V1_SIZE_1_0, 64u);
  EXPECT_EQ(AEV_MATCH_SIZE_1_0, 48u);
  EXPECT_EQ(AEV_HOST_API_SIZE_1_0, 128u);
  EXPECT_GE(hostApi()->struct_size, AEV_HOST_API_SIZE_1_0);
}

// A host of a later minor whose detector vtable grew: reading a 1.0 plugin's vtable must
// copy exactly the 1.0 bytes (the heap block below is that size: ASan flags any read past
// it) and leave the new fields zero.
struct DetectorOfALaterMinor {
  aev_detector_v1 v1_0;
  void (*appended)(void);
  std::uint64_t appendedFlags;
};

TEST(AbiSizes, ReadingAnOlderStructNeverReadsPastItsDeclaredSize) {
  const std::size_t size = AEV_DETECTOR_V1_SIZE_1_0;
  std::unique_ptr<unsigned char, decltype(&std::free)> block(static_cast<unsigned char*>(std::malloc(size)),
                                                             &std::free);
  aev_detector_v1 written{};
  written.struct_size = static_cast<std::uint32_t>(size);
  written.name = "old.plugin";
  std::memcpy(block.get(), &written, size);

  auto read = readPrefix<DetectorOfALaterMinor>(block.get(), declaredSize(block.get()), AEV_DETECTOR_V1_SIZE_1_0);
  ASSERT_TRUE(read.has_value());
  EXPECT_STREQ(read->v1_0.name, "old.plugin");
  EXPECT_EQ(read->appended, nullptr);
  EXPECT_EQ(read->appendedFlags, 0u);

  // Declared below the 1.0 size: refused, nothing read beyond the size field.
  EXPECT_FALSE(readPrefix<DetectorOfALaterMinor>(block.get(), 40, AEV_DETECTOR_V1_SIZE_1_0).has_value());
  // Declared larger than the reader knows: the reader's own size is the limit.
  std::vector<unsigned char> large(sizeof(DetectorOfALaterMinor) + 64, 0xAB);
  std::memcpy(large.data(), &written, size);
  auto fromLarge =
      readPrefix<aev_detector_v1>(large.data(), static_cast<std::uint32_t>(large.size()), AEV_DETECTOR_V1_SIZE_1_0);
  ASSERT_TRUE(fromLarge.has_value());
  EXPECT_STREQ(fromLarge->name, "old.plugin");
}

}  // namespace
}  // namespace aev::plugins

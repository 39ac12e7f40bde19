// Every call into a plugin is guarded: exceptions that escape a plugin, unknown status
// codes and garbage outputs become counted, logged error results; the host goes on.
#include <gtest/gtest.h>

#include "common/metrics.h"
#include "support/plugin_test_support.h"

namespace aev::plugins {
namespace {

using test::fixturePath;

class GuardedCalls : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* f : {"throwing", "garbage", "sdk", "c_basic"}) {
      auto report = host_.loadFile(fixturePath(f));
      ASSERT_EQ(report.loaded.size(), 1u) << f << ": " << (report.refused.empty() ? "" : report.refused[0].reason);
    }
  }
  Host host_;
};

TEST_F(GuardedCalls, StdExceptionEscapingScanBecomesInternalError) {
  auto detector = host_.registry().detector("fixture.throws_std");
  auto instance = detector->create();
  auto before = detector->stats().snapshot();
  auto r = instance->scan("some text");
  EXPECT_EQ(r.status, AEV_ERR_INTERNAL);
  EXPECT_NE(r.error.find("boom from scan"), std::string::npos) << r.error;
  EXPECT_TRUE(r.findings.empty());
  auto after = detector->stats().snapshot();
  EXPECT_EQ(after.calls, before.calls + 1);
  EXPECT_EQ(after.failures, before.failures + 1);
  EXPECT_EQ(after.exceptions, before.exceptions + 1);
}

TEST_F(GuardedCalls, NonStdExceptionIsCaughtToo) {
  auto r = host_.registry().detector("fixture.throws_int")->create()->scan("x");
  EXPECT_EQ(r.status, AEV_ERR_INTERNAL);
  EXPECT_NE(r.error.find("unknown type"), std::string::npos);
}

TEST_F(GuardedCalls, ThrowingCreateBecomesPluginError) {
  auto detector = host_.registry().detector("fixture.throws_in_create");
  try {
    detector->create();
    FAIL() << "create should have failed";
  } catch (const PluginError& e) {
    EXPECT_EQ(e.status(), AEV_ERR_INTERNAL);
    EXPECT_NE(std::string(e.what()).find("boom from create"), std::string::npos) << e.what();
  }
}

TEST_F(GuardedCalls, ThrowingDestroyIsContained) {
  auto detector = host_.registry().detector("fixture.throws_in_destroy");
  auto before = detector->stats().snapshot().exceptions;
  { auto instance = detector->create(); }
  EXPECT_EQ(detector->stats().snapshot().exceptions, before + 1);
}

TEST_F(GuardedCalls, ThrowingExporterIsRetryable) {
  auto exporter = host_.registry().exporter("fixture.throws_export")->open("{}");
  auto r = exporter->exportBatch(AEV_SIGNAL_LOGS, "[]", 0);
  EXPECT_EQ(r.status, AEV_ERR_INTERNAL);
  EXPECT_TRUE(r.retryable());
  EXPECT_NE(r.error.find("boom from export"), std::string::npos);
}

TEST_F(GuardedCalls, ThrowingAlertSinkAndDimensionAreContained) {
  auto sink = host_.registry().alertSink("fixture.throws_deliver")->open("{}");
  EXPECT_EQ(sink->deliver("{}").status, AEV_ERR_INTERNAL);
  auto dim = host_.registry().dimension("fixture.throws_key")->create();
  auto k = dim->key("{}");
  EXPECT_EQ(k.status, AEV_ERR_INTERNAL);
  EXPECT_FALSE(k.key.has_value());
  EXPECT_NE(k.error.find("boom from key"), std::string::npos);
}

TEST_F(GuardedCalls, UnknownStatusCodeBecomesInternalError) {
  auto detector = host_.registry().detector("fixture.bad_status");
  auto r = detector->create()->scan("x");
  EXPECT_EQ(r.status, AEV_ERR_INTERNAL);
  EXPECT_NE(r.error.find("unknown status 12345"), std::string::npos) << r.error;
  EXPECT_GE(detector->stats().snapshot().invalidOutputs, 1u);
}

TEST_F(GuardedCalls, GarbageOffsetsAreRefusedAndTheValidMatchKept) {
  auto detector = host_.registry().detector("fixture.garbage");
  auto instance = detector->create();
  std::string text = "abc d\xc3\xa9" "f";  // "abc déf": a two-byte character at offset 5
  auto r = instance->scan(text);
  EXPECT_TRUE(r.ok());
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].start, 0u);
  EXPECT_EQ(r.findings[0].end, 1u);
  EXPECT_EQ(r.findings[0].label, "garbage");
  // past the end, far outside, reversed, empty, split character, NaN, >1, NULL label,
  // too small, NULL pointer
  EXPECT_EQ(r.rejectedFindings, 10u);
  EXPECT_GE(detector->stats().snapshot().invalidOutputs, 10u);
}

TEST_F(GuardedCalls, GarbageOnEmptyTextReadsNothing) {
  auto r = host_.registry().detector("fixture.garbage")->create()->scan("");
  EXPECT_TRUE(r.findings.empty());
  EXPECT_GE(r.rejectedFindings, 1u);
}

TEST_F(GuardedCalls, InvalidUtf8KeyIsRefused) {
  auto dim = host_.registry().dimension("fixture.garbage_key")->create();
  auto k = dim->key("{\"model\":\"x\"}");
  EXPECT_FALSE(k.key.has_value());
  EXPECT_EQ(k.status, AEV_ERR_INVALID_ARGUMENT);  // what the plugin returned from call_set_key
}

TEST_F(GuardedCalls, SdkLayerTurnsExceptionsIntoResults) {
  auto r = host_.registry().detector("fixture.sdk_throws")->create()->scan("x");
  EXPECT_EQ(r.status, AEV_ERR_INTERNAL);
  EXPECT_EQ(r.error, "logic failure in scan");
  // Converted inside the plugin: nothing escaped into the host.
  EXPECT_EQ(host_.registry().detector("fixture.sdk_throws")->stats().snapshot().exceptions, 0u);

  auto exporter = host_.registry().exporter("fixture.sdk_exporter")->open("{}");
  EXPECT_EQ(exporter->exportBatch(AEV_SIGNAL_LOGS, "[]", 0).error, "empty batch");
  auto ok = exporter->exportBatch(AEV_SIGNAL_LOGS, "[{}]", 1);
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.responseStatus, 200);
}

TEST_F(GuardedCalls, SdkConfigErrorFromConstructor) {
  auto detector = host_.registry().detector("fixture.sdk_config");
  try {
    detector->create(R"({"fail": true})");
    FAIL() << "expected a configuration error";
  } catch (const PluginError& e) {
    EXPECT_EQ(e.status(), AEV_ERR_CONFIG);
    EXPECT_NE(std::string(e.what()).find("fail requested"), std::string::npos);
  }
  try {
    detector->create("{not json");
    FAIL() << "expected an error for invalid JSON";
  } catch (const PluginError& e) {
    EXPECT_EQ(e.status(), AEV_ERR_INTERNAL);  // a json::ParseError is not a ConfigError
  }
  auto r = detector->create(R"({"label": "everything"})")->scan("hello");
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].label, "everything");
  EXPECT_EQ(r.findings[0].end, 5u);
}

TEST_F(GuardedCalls, ComponentDataReachesTheConstructor) {
  auto k = host_.registry().dimension("fixture.sdk_dim")->create()->key("{}");
  EXPECT_EQ(k.key.value_or(""), "from-component-data");
}

TEST_F(GuardedCalls, UnsupportedSignalIsRefusedWithoutCallingThePlugin) {
  auto exporter = host_.registry().exporter("fixture.recorder")->open("{}");
  auto r = exporter->exportBatch(AEV_SIGNAL_METRICS, "[]", 0);
  EXPECT_EQ(r.status, AEV_ERR_UNSUPPORTED);
  EXPECT_FALSE(r.retryable());
}

TEST_F(GuardedCalls, FailuresAreCountedInMetrics) {
  host_.registry().detector("fixture.throws_std")->create()->scan("x");
  auto text = Metrics::instance().renderPrometheus();
  EXPECT_NE(text.find("aev_plugin_call_exceptions_total{plugin=\"fixture_throwing\",kind=\"detector\",component="
                      "\"fixture.throws_std\"}"),
            std::string::npos);
  EXPECT_NE(text.find("aev_plugin_calls_total{plugin=\"fixture_throwing\""), std::string::npos);
}

}  // namespace
}  // namespace aev::plugins

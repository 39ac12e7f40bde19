// The SDK example, built out of tree against the installed SDK (ctest fixture
// plugins.sdk_example_build), loads into the real host and works. Skipped when run
// outside that ctest entry.
#include <gtest/gtest.h>

#include <cstdlib>

#include "support/plugin_test_support.h"

namespace aev::plugins {
namespace {

TEST(SdkExample, OutOfTreePluginLoadsAndScans) {
  const char* path = std::getenv("AEV_SDK_EXAMPLE_PLUGIN");
  if (!path) GTEST_SKIP() << "run through ctest: plugins.sdk_example_loads";
  HostOptions options;
  options.config["plugins.detector_example.prefix"] = "CUST";
  Host host(options);
  auto report = host.loadFile(path);
  ASSERT_EQ(report.loaded.size(), 1u) << (report.refused.empty() ? "" : report.refused[0].reason);
  EXPECT_EQ(report.loaded[0].name, "detector_example");
  EXPECT_EQ(report.loaded[0].vendor, "Example Corp");
  auto r = host.registry().detector("acme.customer_number")->create()->scan("ids CUST-87654321 and ACME-12345678");
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].start, 4u);
  EXPECT_EQ(r.findings[0].label, "customer_number");
}

}  // namespace
}  // namespace aev::plugins

// Unit test of the example detector on the SDK's fake host: no daemon needed.
#include <agentevents/testing/fake_host.hpp>
#include <gtest/gtest.h>

TEST(CustomerNumberDetector, FindsNumbersWithTheConfiguredPrefix) {
  aev::testing::FakeHost host;
  host.settings["prefix"] = "ACME";
  ASSERT_EQ(host.load(), AEV_OK) << host.registerError;
  EXPECT_EQ(host.manifest().abi_major, AEV_ABI_MAJOR);

  auto detector = host.detector("acme.customer_number");
  auto out = detector.scan("order for ACME-12345678, not ACME-123");
  ASSERT_EQ(out.status, AEV_OK);
  ASSERT_EQ(out.matches.size(), 1u);
  EXPECT_EQ(out.matches[0].start, 10u);
  EXPECT_EQ(out.matches[0].end, 23u);
  EXPECT_EQ(out.matches[0].label, "customer_number");
  EXPECT_EQ(out.rejected, 0u);
}

TEST(CustomerNumberDetector, RuleConfiguration) {
  aev::testing::FakeHost host;
  ASSERT_EQ(host.load(), AEV_OK);
  EXPECT_EQ(host.detector("acme.customer_number", R"({"digits": 4})").scan("ACME-1234").matches.size(), 1u);
  EXPECT_THROW(host.detector("acme.customer_number", R"({"digits": 99})"), std::runtime_error);
}

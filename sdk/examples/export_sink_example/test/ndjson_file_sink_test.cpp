// Unit test of the example export sink on the SDK's fake host: no daemon needed.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <agentevents/testing/fake_host.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string tempPath() {
  char dir[] = "/tmp/ndjson-sink-XXXXXX";
  if (!mkdtemp(dir)) throw std::runtime_error("mkdtemp failed");
  return std::string(dir) + "/out.ndjson";
}

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(NdjsonFileSink, AppendsOneLinePerEvent) {
  aev::testing::FakeHost host;
  ASSERT_EQ(host.load(), AEV_OK) << host.registerError;
  const auto path = tempPath();
  auto sink = host.exporter("ndjson_file", R"({"path": ")" + path + R"("})");
  auto out = sink.exportBatch(AEV_SIGNAL_LOGS, R"([{"id":"1","payload":{"a":1}},{"id":"2"}])", 2);
  ASSERT_EQ(out.status, AEV_OK) << out.error;
  EXPECT_EQ(readAll(path), "{\"id\":\"1\",\"payload\":{\"a\":1}}\n{\"id\":\"2\"}\n");
  ASSERT_EQ(sink.exportBatch(AEV_SIGNAL_LOGS, R"([{"id":"3"}])", 1).status, AEV_OK);
  EXPECT_EQ(readAll(path), "{\"id\":\"1\",\"payload\":{\"a\":1}}\n{\"id\":\"2\"}\n{\"id\":\"3\"}\n");
}

TEST(NdjsonFileSink, RefusesAConfigWithoutAnAbsolutePath) {
  aev::testing::FakeHost host;
  ASSERT_EQ(host.load(), AEV_OK);
  EXPECT_THROW(host.exporter("ndjson_file", "{}"), std::runtime_error);
  EXPECT_THROW(host.exporter("ndjson_file", R"({"path": "relative.ndjson"})"), std::runtime_error);
}

TEST(NdjsonFileSink, AnUnwritableFileIsRetried) {
  aev::testing::FakeHost host;
  ASSERT_EQ(host.load(), AEV_OK);
  auto sink = host.exporter("ndjson_file", R"({"path": "/nonexistent-dir/out.ndjson"})");
  auto out = sink.exportBatch(AEV_SIGNAL_LOGS, R"([{"id":"1"}])", 1);
  EXPECT_EQ(out.status, AEV_RETRY);
  EXPECT_NE(out.error.find("cannot open /nonexistent-dir/out.ndjson"), std::string::npos) << out.error;
}

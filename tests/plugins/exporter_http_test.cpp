// exporter_http against a loopback receiver: JSON and NDJSON batches, headers, and the
// generic HTTP retry rules.
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include "support/plugin_test_support.h"

namespace aev::plugins {
namespace {

using test::LoopbackReceiver;

const std::string kEvents =
    R"([{"id":1,"identifier":"a","eventType":"agent.start","payload":{"x":1}},)"
    R"({"id":2,"identifier":"b","eventType":"agent.end","payload":{"text":"line\nbreak"}}])";

class HttpExporter : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { host_ = test::standardHost().release(); }
  static void TearDownTestSuite() {
    delete host_;
    host_ = nullptr;
  }
  std::shared_ptr<ExporterInstance> open(const std::string& extra = "") {
    return host_->registry().exporter("http")->open(R"({"endpointUrl":")" + receiver_.url("/ingest?src=aev") +
                                                     R"(","allowPrivateAddresses":true)" + extra + "}");
  }
  static Host* host_;
  LoopbackReceiver receiver_;
};

Host* HttpExporter::host_ = nullptr;

TEST_F(HttpExporter, JsonBatch) {
  auto r = open(R"(,"headers":{"x-api-key":"k-123"})")->exportBatch(AEV_SIGNAL_LOGS, kEvents, 2);
  ASSERT_TRUE(r.ok()) << r.error;
  auto requests = receiver_.requests();
  ASSERT_EQ(requests.size(), 1u);
  const auto& req = requests[0];
  EXPECT_EQ(req.method, "POST");
  EXPECT_EQ(req.uri, "/ingest?src=aev");
  EXPECT_EQ(req.headers.at("content-type"), "application/json");
  EXPECT_EQ(req.headers.at("x-api-key"), "k-123");
  EXPECT_EQ(req.headers.at("x-agent-events-signal"), "logs");
  EXPECT_EQ(req.body, R"({"signal":"logs","count":2,"events":)" + kEvents + "}");
  Poco::JSON::Parser parser;
  auto body = parser.parse(req.body).extract<Poco::JSON::Object::Ptr>();
  EXPECT_EQ(body->getArray("events")->size(), 2u);
}

TEST_F(HttpExporter, NdjsonBatch) {
  ASSERT_TRUE(open(R"(,"format":"ndjson")")->exportBatch(AEV_SIGNAL_TRACES, kEvents, 2).ok());
  auto req = receiver_.requests().at(0);
  EXPECT_EQ(req.headers.at("content-type"), "application/x-ndjson");
  EXPECT_EQ(req.body,
            "{\"id\":1,\"identifier\":\"a\",\"eventType\":\"agent.start\",\"payload\":{\"x\":1}}\n"
            "{\"id\":2,\"identifier\":\"b\",\"eventType\":\"agent.end\",\"payload\":{\"text\":\"line\\nbreak\"}}\n");
}

TEST_F(HttpExporter, GenericRetryRules) {
  auto exporter = open();
  receiver_.respond({500, {}, "oops"});
  EXPECT_EQ(exporter->exportBatch(AEV_SIGNAL_LOGS, kEvents, 2).status, AEV_RETRY);
  receiver_.respond({429, {{"Retry-After", "2"}}, ""});
  auto limited = exporter->exportBatch(AEV_SIGNAL_LOGS, kEvents, 2);
  EXPECT_EQ(limited.status, AEV_RETRY);
  EXPECT_EQ(limited.retryAfter.value_or(std::chrono::milliseconds(0)).count(), 2000);
  receiver_.respond({404, {}, "no such receiver"});
  auto missing = exporter->exportBatch(AEV_SIGNAL_LOGS, kEvents, 2);
  EXPECT_EQ(missing.status, AEV_ERR_PERMANENT);
  EXPECT_EQ(missing.responseStatus, 404);
  EXPECT_EQ(missing.responseBody, "no such receiver");
}

TEST_F(HttpExporter, RedirectsAreNotFollowed) {
  receiver_.respond({302, {{"Location", "http://169.254.169.254/latest/meta-data"}}, ""});
  auto r = open()->exportBatch(AEV_SIGNAL_LOGS, kEvents, 2);
  EXPECT_EQ(r.status, AEV_ERR_PERMANENT);
  EXPECT_EQ(r.responseStatus, 302);
  EXPECT_EQ(receiver_.requests().size(), 1u);
}

TEST_F(HttpExporter, LargeResponseBodiesAreCapped) {
  receiver_.respond({200, {}, std::string(100000, 'z')});
  auto r = open()->exportBatch(AEV_SIGNAL_LOGS, kEvents, 2);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.responseBody.size(), 4096u);
}

TEST_F(HttpExporter, ConnectionRefusedIsRetryable) {
  std::string url;
  {
    LoopbackReceiver gone;
    url = gone.url();
  }
  auto exporter = host_->registry().exporter("http")->open(R"({"endpointUrl":")" + url +
                                                            R"(","allowPrivateAddresses":true})");
  auto r = exporter->exportBatch(AEV_SIGNAL_LOGS, kEvents, 2);
  EXPECT_EQ(r.status, AEV_RETRY);
  EXPECT_EQ(r.responseStatus, 0);
  EXPECT_FALSE(r.error.empty());
}

TEST_F(HttpExporter, PluginSettingAllowsPrivateAddresses) {
  HostOptions options;
  options.config["plugins.exporter_http.allow_private_addresses"] = "true";
  auto host = test::standardHost(options);
  auto r = host->registry().exporter("http")->open(R"({"endpointUrl":")" + receiver_.url() + R"("})")->exportBatch(
      AEV_SIGNAL_LOGS, kEvents, 2);
  EXPECT_TRUE(r.ok()) << r.error;
}

}  // namespace
}  // namespace aev::plugins

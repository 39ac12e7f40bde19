// alert_webhook and alert_slack against a loopback receiver: payload formats, Standard
// Webhooks signatures, Slack message shape, and result mapping.
#include <Poco/Base64Encoder.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/crypto.h"
#include "common/encoding.h"
#include "support/plugin_test_support.h"
#include "support/process.h"

namespace aev::plugins {
namespace {

using test::LoopbackReceiver;

const std::string kFiring = R"({"alertRuleId":"5","name":"High error rate <prod>","orgId":"7","appId":"12",
  "state":"firing","metric":"error_rate","operator":"gt","threshold":0.05,"value":0.12,"windowMins":5,
  "model":"gpt-4o","firedAt":"2026-01-02T03:04:05Z","url":"https://events.example.com/alerts/5"})";
const std::string kResolved = R"({"alertRuleId":"5","name":"High error rate","state":"resolved",
  "metric":"error_rate","operator":"gte","threshold":0.05,"value":0.01,"windowMins":5,
  "resolvedAt":"2026-01-02T04:00:00Z"})";

// whsec_ + base64 of a 24-byte key.
const std::string kSecretKey = "0123456789abcdefghijklmn";

std::string base64(const std::string& bytes) {
  std::ostringstream out;
  Poco::Base64Encoder enc(out);
  enc.rdbuf()->setLineLength(0);
  enc << bytes;
  enc.close();
  return out.str();
}

class AlertSinks : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { host_ = test::standardHost().release(); }
  static void TearDownTestSuite() {
    delete host_;
    host_ = nullptr;
  }
  std::shared_ptr<AlertSinkInstance> open(const std::string& kind, const std::string& extra = "") {
    return host_->registry().alertSink(kind)->open(R"({"url":")" + receiver_.url("/hook") +
                                                    R"(","allowPrivateAddresses":true)" + extra + "}");
  }
  static Poco::JSON::Object::Ptr json(const std::string& text) {
    Poco::JSON::Parser parser;
    return parser.parse(text).extract<Poco::JSON::Object::Ptr>();
  }
  static Host* host_;
  LoopbackReceiver receiver_;
};

Host* AlertSinks::host_ = nullptr;

TEST_F(AlertSinks, WebhookPayload) {
  auto r = open("webhook")->deliver(kFiring);
  ASSERT_TRUE(r.ok()) << r.error;
  auto req = receiver_.requests().at(0);
  EXPECT_EQ(req.uri, "/hook");
  EXPECT_EQ(req.headers["content-type"], "application/json");
  EXPECT_EQ(req.headers.count("webhook-signature"), 0u);  // no secret configured
  auto body = json(req.body);
  EXPECT_EQ(body->getValue<std::string>("type"), "alert.firing");
  EXPECT_EQ(body->getValue<std::string>("timestamp").size(), 20u);
  auto data = body->getObject("data");
  EXPECT_EQ(data->getValue<std::string>("alertRuleId"), "5");
  EXPECT_EQ(data->getValue<std::string>("name"), "High error rate <prod>");
  EXPECT_DOUBLE_EQ(data->getValue<double>("value"), 0.12);

  ASSERT_TRUE(open("webhook")->deliver(kResolved).ok());
  EXPECT_EQ(json(receiver_.requests().at(1).body)->getValue<std::string>("type"), "alert.resolved");
}

TEST_F(AlertSinks, WebhookIsSignedAsStandardWebhooks) {
  auto sink = open("webhook", R"(,"secret":"whsec_)" + base64(kSecretKey) + "\"");
  ASSERT_TRUE(sink->deliver(kFiring).ok());
  ASSERT_TRUE(sink->deliver(kFiring).ok());  // a retry of the same notification
  ASSERT_TRUE(sink->deliver(kResolved).ok());
  auto requests = receiver_.requests();
  ASSERT_EQ(requests.size(), 3u);
  for (auto& req : requests) {
    std::string id = req.headers["webhook-id"], ts = req.headers["webhook-timestamp"];
    ASSERT_FALSE(id.empty());
    // Verified with the daemon's own HMAC (libsodium), independent of the plugin's.
    std::string expected = "v1," + base64Encode(crypto::hmacSha256(kSecretKey, id + "." + ts + "." + req.body));
    EXPECT_EQ(req.headers["webhook-signature"], expected);
  }
  EXPECT_EQ(requests[0].headers["webhook-id"], requests[1].headers["webhook-id"]);
  EXPECT_NE(requests[0].headers["webhook-id"], requests[2].headers["webhook-id"]);

  // And by the reference implementation (npm standardwebhooks), which also checks that a
  // tampered body does not verify.
  const std::string node = std::getenv("AEV_NODE") ? std::getenv("AEV_NODE") : AEV_TEST_NODE;
  const std::string verifier = AEV_TEST_WEBHOOK_VERIFY;
  ASSERT_FALSE(node.empty()) << "node was not found when the build was configured (scripts/deps.sh installs it)";
  test::TempDir dir;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    Poco::JSON::Object headers, delivery;
    for (const char* h : {"webhook-id", "webhook-timestamp", "webhook-signature"})
      headers.set(h, requests[i].headers[h]);
    delivery.set("secret", "whsec_" + base64(kSecretKey));
    delivery.set("body", requests[i].body);
    delivery.set("headers", headers);
    const std::string file = dir.path() + "/delivery" + std::to_string(i) + ".json";
    {
      std::ofstream out(file);
      delivery.stringify(out);
    }
    auto verified = aev::testing::runCommand({node, verifier, file}, std::chrono::seconds(60));
    EXPECT_TRUE(verified.ok()) << verified.output;
    EXPECT_NE(verified.output.find("\"ok\":true"), std::string::npos) << verified.output;
  }
}

TEST_F(AlertSinks, WebhookConfigurationErrors) {
  auto webhook = host_->registry().alertSink("webhook");
  EXPECT_THROW(webhook->open(R"({})"), PluginError);
  EXPECT_THROW(webhook->open(R"({"url":"http://h","secret":"nope"})"), PluginError);
  EXPECT_THROW(webhook->open(R"({"url":"http://h","secret":"whsec_c2hvcnQ="})"), PluginError);  // 5-byte key
  // The key is strict base64: padding missing, doubled or followed by more text, stray
  // characters and non-zero trailing bits are refused (a 16-byte key ends in "==").
  const std::string key16 = base64("0123456789abcdef");
  ASSERT_EQ(key16.substr(key16.size() - 2), "==");
  EXPECT_NO_THROW(webhook->open(R"({"url":"http://h","secret":"whsec_)" + key16 + "\"}"));
  for (const std::string& bad : {key16.substr(0, key16.size() - 1), key16.substr(0, key16.size() - 2), key16 + "=",
                                 key16 + "AAAA", " " + key16, key16.substr(0, key16.size() - 3) + "x==",
                                 base64(kSecretKey) + "\\n", std::string("*") + base64(kSecretKey).substr(1)}) {
    EXPECT_THROW(webhook->open(R"({"url":"http://h","secret":"whsec_)" + bad + "\"}"), PluginError) << bad;
  }
  EXPECT_NO_THROW(webhook->open(R"({"destination":"https://h/x"})"));
}

// What a delivery ended with, for failure messages: a status alone cannot tell a 503
// from a transport error, which both retry.
std::string described(const DeliveryResult& r) {
  return "status " + std::to_string(r.status) + ", HTTP " + std::to_string(r.responseStatus) + ", error \"" +
         r.error + "\", after " + std::to_string(r.elapsed.count() / 1000000) + " ms";
}

TEST_F(AlertSinks, WebhookFailuresMapToRetryAndPermanent) {
  auto sink = open("webhook");
  receiver_.respond({503, {}, "later"});
  auto later = sink->deliver(kFiring);
  EXPECT_EQ(later.status, AEV_RETRY) << described(later);
  EXPECT_EQ(later.responseStatus, 503) << described(later);
  receiver_.respond({410, {}, "gone"});
  auto gone = sink->deliver(kFiring);
  EXPECT_EQ(gone.status, AEV_ERR_PERMANENT) << described(gone);
  auto notJson = sink->deliver("not json");
  EXPECT_EQ(notJson.status, AEV_ERR_PERMANENT) << described(notJson);
  EXPECT_EQ(receiver_.requests().size(), 2u);  // the malformed alert was not sent
}

TEST_F(AlertSinks, SlackIncomingWebhookMessage) {
  auto r = open("slack", R"(,"channel":"#alerts","username":"agent-events","iconEmoji":":rotating_light:")")
               ->deliver(kFiring);
  ASSERT_TRUE(r.ok()) << r.error;
  auto req = receiver_.requests().at(0);
  EXPECT_EQ(req.headers["content-type"], "application/json");
  auto msg = json(req.body);
  EXPECT_EQ(msg->getValue<std::string>("text"),
            "🔴 [FIRING] High error rate &lt;prod&gt;: error_rate 0.12 (threshold &gt; 0.05 over 5 min)");
  EXPECT_EQ(msg->getValue<std::string>("channel"), "#alerts");
  EXPECT_EQ(msg->getValue<std::string>("username"), "agent-events");
  EXPECT_EQ(msg->getValue<std::string>("icon_emoji"), ":rotating_light:");
  auto blocks = msg->getArray("blocks");
  ASSERT_EQ(blocks->size(), 3u);
  auto header = blocks->getObject(0);
  EXPECT_EQ(header->getValue<std::string>("type"), "header");
  EXPECT_EQ(header->getObject("text")->getValue<std::string>("type"), "plain_text");
  EXPECT_EQ(header->getObject("text")->getValue<std::string>("text"), "🔴 Alert firing: High error rate <prod>");
  auto fields = blocks->getObject(1)->getArray("fields");
  ASSERT_EQ(fields->size(), 4u);
  EXPECT_EQ(fields->getObject(0)->getValue<std::string>("type"), "mrkdwn");
  EXPECT_EQ(fields->getObject(0)->getValue<std::string>("text"), "*Metric*\nerror_rate");
  EXPECT_EQ(fields->getObject(2)->getValue<std::string>("text"), "*Condition*\n&gt; 0.05 over 5 min");
  EXPECT_EQ(fields->getObject(3)->getValue<std::string>("text"), "*Scope*\napp 12 · model gpt-4o");
  auto context = blocks->getObject(2)->getArray("elements")->getObject(0)->getValue<std::string>("text");
  EXPECT_EQ(context, "agent-events · rule 5 · 2026-01-02T03:04:05Z · <https://events.example.com/alerts/5|open>");
}

TEST_F(AlertSinks, SlackResolvedMessage) {
  ASSERT_TRUE(open("slack")->deliver(kResolved).ok());
  auto msg = json(receiver_.requests().at(0).body);
  EXPECT_EQ(msg->getValue<std::string>("text"),
            "✅ [RESOLVED] High error rate: error_rate 0.01 (threshold ≥ 0.05 over 5 min)");
  EXPECT_FALSE(msg->has("channel"));
  EXPECT_EQ(msg->getArray("blocks")->getObject(0)->getObject("text")->getValue<std::string>("text"),
            "✅ Resolved: High error rate");
}

TEST_F(AlertSinks, SlackErrorsAreClassified) {
  auto sink = open("slack");
  receiver_.respond({404, {}, "no_service"});
  auto gone = sink->deliver(kFiring);
  EXPECT_EQ(gone.status, AEV_ERR_PERMANENT) << described(gone);
  EXPECT_EQ(gone.responseBody, "no_service");
  receiver_.respond({429, {{"Retry-After", "30"}}, "rate_limited"});
  auto limited = sink->deliver(kFiring);
  EXPECT_EQ(limited.status, AEV_RETRY) << described(limited);
  EXPECT_EQ(limited.retryAfter.value_or(std::chrono::milliseconds(0)).count(), 30000);
}

}  // namespace
}  // namespace aev::plugins

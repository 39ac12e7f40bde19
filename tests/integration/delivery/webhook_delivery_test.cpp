// Webhook delivery end to end (docs/features.md#webhooks, #outbound-requests): every event of the channel is POSTed
// signed as Standard Webhooks (checked by the reference library under Node), retried on
// 500, timeouts and refused connections with the same webhook-id, not before a
// Retry-After, never following redirects, in order per endpoint, without one slow
// receiver delaying another; deleting an endpoint stops its retries; a delivery can be
// sent again.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

#include "integration/delivery/delivery_support.h"
#include "support/backend.h"
#include "support/process.h"

namespace aev::testing {
namespace {

using namespace std::chrono_literals;

class WebhookDeliveryApi : public DeliveryTest {};

std::vector<std::int64_t> statusCodes(const std::vector<Poco::JSON::Object::Ptr>& list) {
  std::vector<std::int64_t> out;
  for (const auto& d : list) out.push_back(intField(d, "statusCode"));
  return out;
}

TEST_F(WebhookDeliveryApi, EventsArriveSignedAndTheReferenceVerifierAcceptsThem) {
  const char* node = std::getenv("AEV_NODE");
  const char* verifier = std::getenv("AEV_WEBHOOK_VERIFY");
  ASSERT_TRUE(node && *node && verifier && *verifier)
      << "AEV_NODE and AEV_WEBHOOK_VERIFY must name node and tests/webhooks/verify.mjs (set by CTest)";
  auto t = newTenant("whsig");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  auto endpoint = createEndpoint(t, ch, receiver.url());
  const auto secret = strField(endpoint, "secret");
  auto event = publish(t.http, ch, "signed", obj({{"text", "héllo \"world\""}}),
                       obj({{"eventType", "agent.message"}, {"agentId", "a1"}}));
  ASSERT_TRUE(receiver.waitFor(1, kWait)) << daemon().logTail();
  auto got = receiver.requests().front();
  EXPECT_EQ(got.method, "POST");
  EXPECT_EQ(got.path, "/hook");
  EXPECT_EQ(got.header("content-type"), "application/json");
  EXPECT_FALSE(got.header("webhook-id").empty());
  EXPECT_EQ(got.header("webhook-signature").rfind("v1,", 0), 0u);
  // The body is the stored event exactly as publish answered it (docs/api.md#the-stored-event).
  auto body = parseJson(got.body).extract<Poco::JSON::Object::Ptr>();
  EXPECT_EQ(intField(body, "id"), intField(event, "id"));
  EXPECT_EQ(toJson(body), toJson(event));

  TempDir dir("aev-webhook-verify");
  auto delivery = obj({{"secret", secret},
                       {"body", got.body},
                       {"headers", obj({{"webhook-id", got.header("webhook-id")},
                                        {"webhook-timestamp", got.header("webhook-timestamp")},
                                        {"webhook-signature", got.header("webhook-signature")}})}});
  writeFile(dir.file("delivery.json"), toJson(delivery));
  auto result = runCommand({node, verifier, dir.file("delivery.json")}, 60s);
  EXPECT_TRUE(result.ok()) << result.output;
  EXPECT_NE(result.output.find("\"ok\":true"), std::string::npos) << result.output;

  // A wrong secret does not verify.
  delivery->set("secret", "whsec_" + std::string("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
  writeFile(dir.file("wrong.json"), toJson(delivery));
  auto wrong = runCommand({node, verifier, dir.file("wrong.json")}, 60s);
  EXPECT_FALSE(wrong.ok()) << wrong.output;

  ASSERT_TRUE(eventually([&] { return deliveries(t, intField(endpoint, "id")).size() == 1; }));
  auto d = deliveries(t, intField(endpoint, "id")).front();
  EXPECT_EQ(intField(d, "statusCode"), 200);
  EXPECT_EQ(strField(d, "responseBody"), "ok");
  EXPECT_EQ(intField(d, "attempt"), 1);
  EXPECT_EQ(strField(d, "outcome"), "delivered");
  EXPECT_EQ(strField(d, "webhookId"), got.header("webhook-id"));
  EXPECT_TRUE(d->isNull("nextAttemptAt"));
  EXPECT_FALSE(strField(d, "createdAt").empty());
}

TEST_F(WebhookDeliveryApi, ServerErrorsAreRetriedWithTheSameWebhookId) {
  auto t = newTenant("wh500");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  receiver.respond([](const ReceivedRequest&, std::size_t i) {
    return i < 2 ? Reply{500, std::string(6000, 'x'), {}, 0ms} : Reply{};
  });
  const auto id = intField(createEndpoint(t, ch, receiver.url()), "id");
  publish(t.http, ch, "retried");
  ASSERT_TRUE(receiver.waitFor(3, kWait)) << daemon().logTail();
  auto got = receiver.requests();
  EXPECT_EQ(got[0].header("webhook-id"), got[1].header("webhook-id"));
  EXPECT_EQ(got[1].header("webhook-id"), got[2].header("webhook-id"));
  EXPECT_EQ(got[0].body, got[2].body);
  ASSERT_TRUE(eventually([&] { return deliveries(t, id).size() == 3; }));
  auto list = deliveries(t, id);  // newest first
  EXPECT_EQ(statusCodes(list), (std::vector<std::int64_t>{200, 500, 500}));
  EXPECT_EQ(intField(list[0], "attempt"), 3);
  EXPECT_EQ(intField(list[2], "attempt"), 1);
  EXPECT_EQ(strField(list[2], "outcome"), "retrying");
  EXPECT_FALSE(list[2]->isNull("nextAttemptAt"));
  EXPECT_EQ(strField(list[2], "responseBody").size(), 4096u);  // stored truncated to 4 KiB
  EXPECT_EQ(strField(list[0], "outcome"), "delivered");
  EXPECT_GT(intField(list[0], "id"), intField(list[1], "id"));
  // Exactly three: nothing after the success.
  std::this_thread::sleep_for(600ms);
  EXPECT_EQ(receiver.count(), 3u);
}

// health24h (docs/api.md#refused-publishes-delivery-health-latency-by-kind): the last 24 hours
// of attempts, the same in the organization's list, the channel's list and the single record.
TEST_F(WebhookDeliveryApi, Health24hCountsTheAttemptsAndNamesTheLastFailure) {
  auto t = newTenant("wh24");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  receiver.respond([](const ReceivedRequest&, std::size_t i) {
    return i < 2 ? Reply{502, "bad gateway " + std::string(400, 'y'), {}, 0ms} : Reply{};
  });
  const auto id = intField(createEndpoint(t, ch, receiver.url()), "id");
  const auto quietId = intField(createEndpoint(t, newChannel(t), receiver.url()), "id");
  publish(t.http, ch, "health");
  ASSERT_TRUE(eventually([&] { return deliveries(t, id).size() == 3; })) << daemon().logTail();

  auto single = t.http.get("/webhooks/endpoints/" + std::to_string(id));
  ASSERT_STATUS(single, 200);
  auto h = single.object()->getObject("health24h");
  ASSERT_TRUE(h) << single.body;
  EXPECT_EQ(intField(h, "deliveries"), 3);
  EXPECT_EQ(intField(h, "succeeded"), 1);
  EXPECT_NEAR(h->getValue<double>("successRate"), 1.0 / 3, 1e-9);
  EXPECT_EQ(intField(h, "lastFailureStatus"), 502);
  EXPECT_EQ(strField(h, "lastFailureReason").rfind("bad gateway yyy", 0), 0u) << toJson(h);
  EXPECT_LE(strField(h, "lastFailureReason").size(), 304u);  // the start of the body
  EXPECT_FALSE(h->isNull("lastFailureAt"));

  auto list = objects(t.http.get("/webhooks/endpoints").object()->getArray("data"));
  ASSERT_EQ(list.size(), 2u);
  for (const auto& e : list) {
    auto eh = e->getObject("health24h");
    ASSERT_TRUE(eh) << toJson(e);
    if (intField(e, "id") == id) {
      EXPECT_EQ(toJson(eh), toJson(h));
    } else {
      EXPECT_EQ(intField(e, "id"), quietId);
      EXPECT_EQ(intField(eh, "deliveries"), 0);
      EXPECT_TRUE(eh->isNull("successRate"));
      EXPECT_TRUE(eh->isNull("lastFailureAt"));
      EXPECT_TRUE(eh->isNull("lastFailureStatus"));
    }
  }
  auto channelList = t.http.get("/webhooks/endpoints/channel/" + std::to_string(ch));
  ASSERT_STATUS(channelList, 200);
  EXPECT_EQ(intField(channelList.array()->getObject(0)->getObject("health24h"), "deliveries"), 3);
  // Another organization's attempts never count: its own list is empty, its single a 404.
  auto other = newTenant("wh24other");
  EXPECT_TRUE(IsProblem(other.http.get("/webhooks/endpoints/" + std::to_string(id)), 404));
}

TEST_F(WebhookDeliveryApi, RetryAfterIsHonoured) {
  auto t = newTenant("whra");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  receiver.respond([](const ReceivedRequest&, std::size_t i) {
    return i == 0 ? Reply{503, "busy", {{"Retry-After", "2"}}, 0ms} : Reply{};
  });
  createEndpoint(t, ch, receiver.url());
  publish(t.http, ch, "later");
  ASSERT_TRUE(receiver.waitFor(2, kWait)) << daemon().logTail();
  auto got = receiver.requests();
  // The schedule alone would retry after about 200 ms.
  EXPECT_GE(got[1].at - got[0].at, 1900ms);
}

TEST_F(WebhookDeliveryApi, TimeoutsAndRefusedConnectionsAreRetriedThenFail) {
  auto t = newTenant("whto");
  const auto ch = newChannel(t);
  HttpReceiver slow;
  slow.respond([](const ReceivedRequest&, std::size_t i) { return i == 0 ? Reply{200, "late", {}, 1600ms} : Reply{}; });
  const auto slowId = intField(createEndpoint(t, ch, slow.url()), "id");
  // Nothing listens on this port: connection refused.
  const auto deadId = intField(createEndpoint(t, ch, "http://127.0.0.1:" + std::to_string(freeLoopbackPort()) + "/x"), "id");
  publish(t.http, ch, "timeout");

  ASSERT_TRUE(eventually([&] { return deliveries(t, slowId).size() == 2; })) << daemon().logTail();
  auto list = deliveries(t, slowId);
  EXPECT_EQ(statusCodes(list), (std::vector<std::int64_t>{200, 0}));
  EXPECT_NE(strField(list[1], "responseBody").find("imeout"), std::string::npos) << strField(list[1], "responseBody");

  // Six attempts (the first and five retries), all without an HTTP answer, then failed.
  ASSERT_TRUE(eventually([&] {
    auto d = deliveries(t, deadId);
    return !d.empty() && strField(d.front(), "outcome") == "failed";
  }, 20s));
  auto dead = deliveries(t, deadId);
  EXPECT_EQ(dead.size(), 6u);
  for (const auto& d : dead) EXPECT_EQ(intField(d, "statusCode"), 0);
  EXPECT_EQ(intField(dead.front(), "attempt"), 6);
  EXPECT_TRUE(dead.front()->isNull("nextAttemptAt"));
}

TEST_F(WebhookDeliveryApi, RedirectsAreNotFollowed) {
  auto t = newTenant("whredir");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  receiver.respond([&receiver](const ReceivedRequest& r, std::size_t) {
    if (r.path == "/hook") return Reply{302, "", {{"Location", receiver.url("/elsewhere")}}, 0ms};
    return Reply{};
  });
  const auto id = intField(createEndpoint(t, ch, receiver.url()), "id");
  publish(t.http, ch, "redirected");
  ASSERT_TRUE(eventually([&] { return deliveries(t, id).size() >= 2; })) << daemon().logTail();
  for (const auto& r : receiver.requests()) EXPECT_EQ(r.path, "/hook");
  EXPECT_EQ(intField(deliveries(t, id).back(), "statusCode"), 302);
}

TEST_F(WebhookDeliveryApi, OneEndpointReceivesItsEventsInOrderEvenAcrossRetries) {
  auto t = newTenant("whorder");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  // The third request fails once: later events must wait behind it.
  receiver.respond([](const ReceivedRequest&, std::size_t i) { return i == 2 ? Reply{500, "once", {}, 0ms} : Reply{}; });
  createEndpoint(t, ch, receiver.url());
  auto ids = publishMany(t.http, ch, 12, "ordered");
  ASSERT_TRUE(receiver.waitFor(13, kWait)) << daemon().logTail();
  std::vector<std::int64_t> delivered;
  auto got = receiver.requests();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (i != 2) delivered.push_back(eventIdOf(got[i]));
  EXPECT_EQ(delivered, ids) << joinIds(delivered) << " vs " << joinIds(ids);
  EXPECT_EQ(eventIdOf(got[2]), ids[2]);
}

TEST_F(WebhookDeliveryApi, ASlowReceiverDoesNotDelayAnother) {
  auto t = newTenant("whslow");
  const auto slowCh = newChannel(t);
  const auto fastCh = newChannel(t);
  HttpReceiver slow, fast;
  slow.respond([](const ReceivedRequest&, std::size_t) { return Reply{200, "slow", {}, 700ms}; });
  createEndpoint(t, slowCh, slow.url());
  createEndpoint(t, fastCh, fast.url());
  publishMany(t.http, slowCh, 4, "slow");
  ASSERT_TRUE(slow.waitFor(1, kWait));
  const auto fastId = intField(publish(t.http, fastCh, "fast"), "id");
  ASSERT_TRUE(fast.waitFor(1, kWait));
  EXPECT_EQ(eventIdOf(fast.requests().front()), fastId);
  // The fast receiver had its event while the slow one was still working through its four.
  ASSERT_TRUE(slow.waitFor(4, kWait));
  EXPECT_LT(fast.requests().front().at, slow.requests()[3].at);
}

TEST_F(WebhookDeliveryApi, EventTypeFilterLetsOnlyThoseTypesThrough) {
  auto t = newTenant("whfilter");
  const auto ch = newChannel(t);
  HttpReceiver errorsOnly, everything;
  createEndpoint(t, ch, errorsOnly.url(), obj({{"eventTypes", arr({"agent.error"})}}));
  createEndpoint(t, ch, everything.url());
  publish(t.http, ch, "plain");
  const auto errorId = intField(publish(t.http, ch, "bad", nullptr, obj({{"eventType", "agent.error"}})), "id");
  publish(t.http, ch, "msg", nullptr, obj({{"eventType", "agent.message"}}));
  ASSERT_TRUE(everything.waitFor(3, kWait));
  ASSERT_TRUE(errorsOnly.waitFor(1, kWait));
  std::this_thread::sleep_for(300ms);
  ASSERT_EQ(errorsOnly.count(), 1u);
  EXPECT_EQ(eventIdOf(errorsOnly.requests().front()), errorId);
}

TEST_F(WebhookDeliveryApi, DeletingAnEndpointStopsItsRetries) {
  auto t = newTenant("whdel");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  receiver.respond([](const ReceivedRequest&, std::size_t) { return Reply{500, "down", {}, 0ms}; });
  const auto id = intField(createEndpoint(t, ch, receiver.url()), "id");
  publishMany(t.http, ch, 3, "doomed");
  ASSERT_TRUE(receiver.waitFor(1, kWait));
  ASSERT_STATUS(t.http.del("/webhooks/endpoints/" + std::to_string(id)), 204);
  const auto atDelete = receiver.count();
  std::this_thread::sleep_for(1500ms);  // several retry periods of 200 ms
  // At most the attempt that was in flight when it was deleted.
  EXPECT_LE(receiver.count(), atDelete + 1);
}

TEST_F(WebhookDeliveryApi, ADeliveryCanBeSentAgain) {
  auto t = newTenant("whredo");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  const auto id = intField(createEndpoint(t, ch, receiver.url()), "id");
  publish(t.http, ch, "again");
  ASSERT_TRUE(eventually([&] { return deliveries(t, id).size() == 1; }));
  const auto deliveryId = intField(deliveries(t, id).front(), "id");
  auto r = t.http.post("/webhooks/endpoints/" + std::to_string(id) + "/deliveries/" + std::to_string(deliveryId) +
                       "/redeliver");
  ASSERT_STATUS(r, 202);
  ASSERT_TRUE(receiver.waitFor(2, kWait));
  auto got = receiver.requests();
  EXPECT_EQ(got[0].header("webhook-id"), got[1].header("webhook-id"));
  EXPECT_EQ(got[0].body, got[1].body);
  ASSERT_TRUE(eventually([&] { return deliveries(t, id).size() == 2; }));
  EXPECT_TRUE(IsProblem(t.http.post("/webhooks/endpoints/" + std::to_string(id) + "/deliveries/99999999/redeliver"), 404));
}

TEST_F(WebhookDeliveryApi, AttemptsFilterByOutcomeAndStatusClass) {
  auto t = newTenant("whfilter");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  receiver.respond([](const ReceivedRequest&, std::size_t i) {
    return i == 0 ? Reply{500, "down", {}, 0ms} : i == 1 ? Reply{404, "not here", {}, 0ms} : Reply{};
  });
  const auto id = std::to_string(intField(createEndpoint(t, ch, receiver.url()), "id"));
  publish(t.http, ch, "filtered");
  ASSERT_TRUE(eventually([&] { return deliveries(t, std::stoll(id)).size() == 3; })) << daemon().logTail();
  auto codes = [&](const std::string& query) {
    auto r = t.http.get("/webhooks/deliveries/" + id + "?" + query);
    if (r.status != 200) throw std::runtime_error(query + ": " + r.describe());
    return statusCodes(objects(r.array()));
  };
  EXPECT_EQ(codes("limit=10"), (std::vector<std::int64_t>{200, 404, 500}));
  EXPECT_EQ(codes("outcome=delivered"), (std::vector<std::int64_t>{200}));
  EXPECT_EQ(codes("outcome=retrying"), (std::vector<std::int64_t>{404, 500}));
  EXPECT_EQ(codes("statusClass=5xx"), (std::vector<std::int64_t>{500}));
  EXPECT_EQ(codes("statusClass=4xx"), (std::vector<std::int64_t>{404}));
  EXPECT_EQ(codes("statusClass=2xx"), (std::vector<std::int64_t>{200}));
  EXPECT_EQ(codes("statusClass=none"), (std::vector<std::int64_t>{}));
  EXPECT_EQ(codes("outcome=retrying&statusClass=4xx"), (std::vector<std::int64_t>{404}));
  EXPECT_EQ(codes("outcome=delivered&statusClass=5xx"), (std::vector<std::int64_t>{}));
  EXPECT_EQ(codes("outcome=retrying&limit=1"), (std::vector<std::int64_t>{404}));
  auto bad = t.http.get("/webhooks/deliveries/" + id + "?outcome=ok");
  EXPECT_TRUE(IsProblem(bad, 422));
  EXPECT_NE(bad.body.find("query.outcome"), std::string::npos) << bad.body;
  bad = t.http.get("/webhooks/deliveries/" + id + "?statusClass=6xx");
  EXPECT_TRUE(IsProblem(bad, 422));
  EXPECT_NE(bad.body.find("query.statusClass"), std::string::npos) << bad.body;
}

// An endpoint failing without a success for the configured period is disabled.
class WebhookAutoDisableApi : public DeliveryTest {
 public:
  static void SetUpTestSuite() {
    startDaemon(options(deliverySettings({{"webhooks.auto_disable_after_seconds", "1"},
                                          {"delivery.retry_schedule", "300ms,300ms,300ms,300ms,300ms,300ms,300ms"}})));
  }
};

TEST_F(WebhookAutoDisableApi, AFailingEndpointIsDisabledAndCanBeEnabledAgain) {
  auto t = newTenant("whauto");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  receiver.respond([](const ReceivedRequest&, std::size_t) { return Reply{500, "down", {}, 0ms}; });
  const auto id = intField(createEndpoint(t, ch, receiver.url()), "id");
  const auto path = "/webhooks/endpoints/" + std::to_string(id);
  publish(t.http, ch, "failing");
  ASSERT_TRUE(eventually([&] { return !t.http.get(path).object()->getValue<bool>("active"); })) << daemon().logTail();
  auto disabled = t.http.get(path).object();
  EXPECT_FALSE(disabled->isNull("disabledAt"));
  EXPECT_NE(strField(disabled, "disabledReason").find("webhooks.auto_disable_after_seconds"), std::string::npos);
  std::this_thread::sleep_for(400ms);
  const auto settled = receiver.count();
  publish(t.http, ch, "ignored");
  std::this_thread::sleep_for(800ms);
  EXPECT_EQ(receiver.count(), settled);  // nothing goes to a disabled endpoint

  receiver.respond([](const ReceivedRequest&, std::size_t) { return Reply{}; });
  ASSERT_STATUS(t.http.patch(path, obj({{"active", true}})), 200);
  const auto after = intField(publish(t.http, ch, "back"), "id");
  ASSERT_TRUE(receiver.waitFor(settled + 1, kWait));
  EXPECT_EQ(eventIdOf(receiver.requests().back()), after);
}

// docs/features.md#outbound-requests: the address is checked again at every attempt (DNS can change). Two
// daemons share one store, JWT secret and secret-sealing key: one with private addresses allowed registers
// a loopback receiver and stops; this suite's daemon, with them refused, then records
// each attempt as statusCode 0 naming the policy, and the receiver hears nothing.
class WebhookPolicyAtAttemptApi : public DeliveryTest {
 public:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>("aev-delivery-shared");
    url_ = currentBackend() == Backend::SQLite ? dir_->file("shared.db") : freshDatabaseUrl();
    startDaemon(sharedStore(false));
  }
  static void TearDownTestSuite() {
    stopDaemon();
    dir_.reset();
  }

 protected:
  static DaemonOptions sharedStore(bool allowPrivate) {
    auto o = options(deliverySettings({{"outbound.allow_private_addresses", allowPrivate ? "true" : "false"},
                                       {"auth.jwt_secret", "shared-secret-of-both-daemons-0123456789abcdef"},
                                       // Both must open the endpoint secrets sealed by either.
                                       {"webhooks.secret_key", "shared-sealing-key-of-both-daemons-0123456789"}}));
    o.databaseUrl = url_;
    return o;
  }
  static std::unique_ptr<TempDir> dir_;
  static std::string url_;
};
std::unique_ptr<TempDir> WebhookPolicyAtAttemptApi::dir_;
std::string WebhookPolicyAtAttemptApi::url_;

TEST_F(WebhookPolicyAtAttemptApi, ARefusedAddressIsRecordedAtEachAttempt) {
  auto t = newTenant("whrebind");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  std::int64_t id = 0;
  {
    DaemonProcess permissive(sharedStore(true));
    ASSERT_NO_THROW(permissive.start());
    auto r = permissive.client()
                 .withBearer(t.user.accessToken)
                 .withHeader("x-tenant-id", std::to_string(t.orgId))
                 .post("/webhooks/endpoints", obj({{"url", receiver.url()}, {"channelId", ch}}));
    ASSERT_STATUS(r, 201);
    id = intField(r.object(), "id");
    auto stopped = permissive.stop();
    EXPECT_TRUE(stopped.exited && stopped.code == 0) << stopped.describe();
  }
  publish(t.http, ch, "refused");
  ASSERT_TRUE(eventually([&] { return deliveries(t, id).size() >= 2; })) << daemon().logTail();
  for (const auto& d : deliveries(t, id)) {
    EXPECT_EQ(intField(d, "statusCode"), 0);
    EXPECT_NE(strField(d, "responseBody").find("refused by outbound policy"), std::string::npos)
        << strField(d, "responseBody");
    EXPECT_NE(strField(d, "responseBody").find("outbound.allow_private_addresses"), std::string::npos);
  }
  EXPECT_EQ(receiver.count(), 0u);
}

}  // namespace
}  // namespace aev::testing

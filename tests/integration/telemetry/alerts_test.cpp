// Alert rules over HTTP (docs/features.md#alerts): /v2/alerts CRUD in the
// second shape, every 422, other organizations' rules 404 and unchanged, audit entries,
// and a rule that fires on published errors and resolves when its threshold moves, with
// its history (the daemon here evaluates every second).
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "integration/telemetry/traces_support.h"
#include "support/http_receiver.h"

namespace aev::testing {
namespace {

class AlertsApi : public TracesTest {
 public:
  // Evaluated every second; notifications to a receiver in this process (loopback) are
  // retried after 200 ms.
  static void SetUpTestSuite() {
    startDaemon(options({{"alerts.evaluate_interval_seconds", "1"},
                         {"outbound.allow_private_addresses", "true"},
                         {"delivery.retry_schedule", "200ms,200ms,200ms"},
                         {"delivery.poll_interval_ms", "100"}}));
  }

 protected:
  static Poco::JSON::Object::Ptr create(const Tenant& t, Poco::JSON::Object::Ptr body) {
    auto r = t.user.http.post("/v2/alerts", body);
    if (r.status != 201) throw std::runtime_error("create alert failed: " + r.describe());
    return r.object();
  }

  // Polls GET /v2/alerts/{id} until its state is `state` (10 s at most).
  static Poco::JSON::Object::Ptr waitForState(const Tenant& t, const std::string& id, const std::string& state) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    Poco::JSON::Object::Ptr rule;
    while (std::chrono::steady_clock::now() < deadline) {
      auto r = t.user.http.get("/v2/alerts/" + id);
      if (r.status == 200 && strField(rule = r.object(), "state") == state) return rule;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    throw std::runtime_error("alert " + id + " never reached state " + state);
  }

  static std::vector<Poco::JSON::Object::Ptr> history(const Tenant& t, const std::string& id) {
    auto r = t.user.http.get("/v2/alerts/" + id + "/events");
    if (r.status != 200) throw std::runtime_error(r.describe());
    return objects(r.object()->getArray("data"));
  }
};

TEST_F(AlertsApi, CreateListGetPatchDeleteWithDefaultsAndAudit) {
  auto t = newTenant("alert");
  auto created = t.user.http.post("/v2/alerts", R"({"name":"Errors","metric":"error_rate","operator":"gt",)"
                                                R"("threshold":0.05})");
  ASSERT_STATUS(created, 201);
  auto a = created.object();
  const auto id = strField(a, "alertRuleId");
  EXPECT_EQ(strField(a, "$schema"), schemaBase() + "AlertRule.json");
  EXPECT_EQ(strField(a, "orgId"), std::to_string(t.orgId));
  EXPECT_EQ(intField(a, "windowMins"), 5);
  EXPECT_TRUE(a->getValue<bool>("enabled"));
  EXPECT_EQ(strField(a, "state"), "ok");
  EXPECT_DOUBLE_EQ(a->getValue<double>("threshold"), 0.05);
  for (const char* nullField :
       {"appId", "environmentId", "model", "service", "release", "destination", "destinationType", "lastValue"})
    EXPECT_TRUE(a->isNull(nullField)) << nullField;

  auto list = t.user.http.get("/v2/alerts");
  ASSERT_STATUS(list, 200);
  EXPECT_EQ(strField(list.object(), "$schema"), schemaBase() + "AlertRuleList.json");
  ASSERT_EQ(list.object()->getArray("data")->size(), 1u);

  const auto appId = createApp(t);
  auto patched = t.user.http.patch("/v2/alerts/" + id, R"({"threshold":0.1,"model":"gpt-4o","windowMins":15,)"
                                                       R"("appId":")" +
                                                           std::to_string(appId) + R"(","enabled":false})");
  ASSERT_STATUS(patched, 200);
  auto p = patched.object();
  EXPECT_DOUBLE_EQ(p->getValue<double>("threshold"), 0.1);
  EXPECT_EQ(strField(p, "model"), "gpt-4o");
  EXPECT_EQ(strField(p, "appId"), std::to_string(appId));
  EXPECT_EQ(intField(p, "windowMins"), 15);
  EXPECT_FALSE(p->getValue<bool>("enabled"));
  auto cleared = t.user.http.patch("/v2/alerts/" + id, R"({"model":null})");
  ASSERT_STATUS(cleared, 200);
  EXPECT_TRUE(cleared.object()->isNull("model"));
  EXPECT_EQ(strField(t.user.http.get("/v2/alerts/" + id).object(), "name"), "Errors");

  ASSERT_STATUS(t.user.http.del("/v2/alerts/" + id), 204);
  EXPECT_TRUE(IsProblem(t.user.http.get("/v2/alerts/" + id), 404));

  auto audit = t.user.http.get("/audit-logs?resourceType=alert_rule");
  ASSERT_STATUS(audit, 200);
  std::vector<std::string> actions;
  for (const auto& e : objects(audit.object()->getArray("data"))) actions.push_back(strField(e, "action"));
  EXPECT_EQ(actions, (std::vector<std::string>{"alert_rule.delete", "alert_rule.update", "alert_rule.update",
                                               "alert_rule.create"}));
}

TEST_F(AlertsApi, EveryInvalidFieldIsA422AndChangesNothing) {
  auto t = newTenant("alert");
  auto other = newTenant("alert-other");
  const auto foreignApp = createApp(other);
  auto r = t.user.http.post("/v2/alerts", "{}");
  EXPECT_TRUE(IsProblem(r, 422));
  EXPECT_EQ(errorLocations(r),
            (std::vector<std::string>{"body.name", "body.metric", "body.operator", "body.threshold"}));
  r = t.user.http.post("/v2/alerts", R"({"name":"x","metric":"p100","operator":"ne","threshold":"high",)"
                                     R"("windowMins":0,"colour":"red"})");
  EXPECT_TRUE(IsProblem(r, 422));
  EXPECT_EQ(errorLocations(r),
            (std::vector<std::string>{"body.metric", "body.operator", "body.threshold", "body.colour"}));
  r = t.user.http.post("/v2/alerts", R"({"name":"x","metric":"tokens","operator":"gt","threshold":1,)"
                                     R"("windowMins":1441,"appId":")" +
                                         std::to_string(foreignApp) + R"("})");
  EXPECT_EQ(errorLocations(r), (std::vector<std::string>{"body.windowMins", "body.appId"}));
  // The webhook sink's schema requires its address: a rule of it without destination is refused.
  r = t.user.http.post("/v2/alerts", R"({"name":"x","metric":"tokens","operator":"gt","threshold":1,)"
                                     R"("destinationType":"webhook"})");
  EXPECT_EQ(errorLocations(r), (std::vector<std::string>{"body.destination"}));
  EXPECT_NE(r.body.find("is required by the webhook alert sink"), std::string::npos) << r.body;
  r = t.user.http.post("/v2/alerts", R"({"name":"x","metric":"tokens","operator":"gt","threshold":1,)"
                                     R"("destination":"https://hooks.example.com/x"})");
  EXPECT_EQ(errorLocations(r), (std::vector<std::string>{"body.destinationType"}));
  r = t.user.http.post("/v2/alerts", R"({"name":"x","metric":"tokens","operator":"gt","threshold":1,)"
                                     R"("destinationType":"pager"})");
  EXPECT_EQ(errorLocations(r), (std::vector<std::string>{"body.destinationType"}));
  r = t.user.http.post("/v2/alerts", R"({"name":"x","metric":"tokens","operator":"gt","threshold":1,)"
                                     R"("destination":"https://hooks.example.com/x","destinationType":"pager"})");
  EXPECT_EQ(errorLocations(r), (std::vector<std::string>{"body.destinationType"}));
  r = t.user.http.post("/v2/alerts", R"({"name":"x","metric":"tokens","operator":"gt","threshold":1,)"
                                     R"("destination":"ftp://hooks.example.com/x","destinationType":"webhook"})");
  EXPECT_EQ(errorLocations(r), (std::vector<std::string>{"body.destination"}));
  EXPECT_EQ(t.user.http.get("/v2/alerts").object()->getArray("data")->size(), 0u);

  // A valid webhook destination is accepted.
  auto ok =
      t.user.http.post("/v2/alerts", R"({"name":"x","metric":"tokens","operator":"gt","threshold":1,)"
                                     R"("destination":"https://hooks.example.com/x","destinationType":"webhook"})");
  ASSERT_STATUS(ok, 201);
  const auto id = strField(ok.object(), "alertRuleId");
  // Another organization sees none of it.
  EXPECT_TRUE(IsProblem(other.user.http.get("/v2/alerts/" + id), 404));
  EXPECT_TRUE(IsProblem(other.user.http.patch("/v2/alerts/" + id, R"({"threshold":5})"), 404));
  EXPECT_TRUE(IsProblem(other.user.http.del("/v2/alerts/" + id), 404));
  EXPECT_TRUE(IsProblem(other.user.http.get("/v2/alerts/" + id + "/events"), 404));
  EXPECT_EQ(t.user.http.get("/v2/alerts/" + id).object()->getValue<double>("threshold"), 1);
  EXPECT_TRUE(IsProblem(anon().get("/v2/alerts"), 401));
}

TEST_F(AlertsApi, FiresOnPublishedErrorsAndResolvesWithHistory) {
  auto p = newPublisher("alert-fire");
  auto rule = create(p.tenant, obj({{"name", "Too many errors"},
                                    {"metric", "error_count"},
                                    {"operator", "gte"},
                                    {"threshold", 2},
                                    {"appId", std::to_string(p.appId)}}));
  const auto id = strField(rule, "alertRuleId");
  for (int i = 0; i < 2; ++i) {
    auto meta = obj({{"status", "error"}, {"duration_ms", 120}});
    publishOne(p.keyed, p.channelId, "trace-alert",
               TraceEventSpec("call-" + std::to_string(i), "agent.message", "", std::nullopt, meta));
  }
  auto firing = waitForState(p.tenant, id, "firing");
  EXPECT_EQ(firing->getValue<double>("lastValue"), 2);
  auto h = history(p.tenant, id);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(strField(h[0], "state"), "firing");
  auto note = h[0]->getObject("notification");
  EXPECT_EQ(strField(note, "alertRuleId"), id);
  EXPECT_EQ(strField(note, "state"), "firing");
  EXPECT_EQ(strField(note, "appId"), std::to_string(p.appId));
  EXPECT_EQ(note->getValue<double>("value"), 2);

  // Raising the threshold above the value resolves it on the next round.
  ASSERT_STATUS(p.tenant.user.http.patch("/v2/alerts/" + id, R"({"threshold":100})"), 200);
  waitForState(p.tenant, id, "ok");
  h = history(p.tenant, id);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(strField(h[0], "state"), "resolved");
  EXPECT_EQ(strField(h[0], "firedAt"), strField(h[1], "firedAt"));
  EXPECT_FALSE(h[0]->isNull("resolvedAt"));
  EXPECT_EQ(strField(p.tenant.user.http.get("/v2/alerts/" + id + "/events").object(), "$schema"),
            schemaBase() + "AlertEventList.json");
}

TEST_F(AlertsApi, NotifiesItsDestinationThroughTheWebhookSinkWithRetries) {
  HttpReceiver receiver;
  receiver.respond([](const ReceivedRequest&, std::size_t index) {
    return index == 0 ? Reply{503, "busy", {}, {}} : Reply{};  // the first attempt fails
  });
  auto p = newPublisher("alert-notify");
  auto rule = create(p.tenant, obj({{"name", "Any traffic"},
                                    {"metric", "event_count"},
                                    {"operator", "gte"},
                                    {"threshold", 1},
                                    {"appId", std::to_string(p.appId)},
                                    {"destination", receiver.url("/alerts")},
                                    {"destinationType", "webhook"}}));
  const auto id = strField(rule, "alertRuleId");
  publishOne(p.keyed, p.channelId, "trace-notify", TraceEventSpec("call", "agent.message"));
  waitForState(p.tenant, id, "firing");
  ASSERT_TRUE(receiver.waitFor(2, std::chrono::seconds(10))) << "the notification was not retried to success";
  const auto requests = receiver.requests();
  // A retry sends the same notification (the envelope's timestamp is the attempt's).
  auto dataOf = [](const std::string& body) {
    std::ostringstream out;
    Poco::JSON::Parser().parse(body).extract<Poco::JSON::Object::Ptr>()->getObject("data")->stringify(out);
    return out.str();
  };
  EXPECT_EQ(dataOf(requests[0].body), dataOf(requests[1].body));
  EXPECT_EQ(requests[0].header("webhook-id"), requests[1].header("webhook-id"));
  EXPECT_EQ(requests[1].path, "/alerts");
  auto body = Poco::JSON::Parser().parse(requests[1].body).extract<Poco::JSON::Object::Ptr>();
  EXPECT_EQ(body->getValue<std::string>("type"), "alert.firing");
  auto data = body->getObject("data");
  EXPECT_EQ(data->getValue<std::string>("alertRuleId"), id);
  EXPECT_EQ(data->getValue<std::string>("state"), "firing");

  // The history shows when the sink accepted it.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  bool delivered = false;
  while (!delivered && std::chrono::steady_clock::now() < deadline) {
    delivered = !history(p.tenant, id).front()->isNull("deliveredAt");
    if (!delivered) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(delivered);
  EXPECT_EQ(receiver.count(), 2u) << "delivered once, not again";
}

}  // namespace
}  // namespace aev::testing

// Spend policy notifications (docs/features.md#spend-policies): a rung crossing notifies the policy's
// destination through its alert sink on the delivery engine, once per cooldown, and
// survives a failing first attempt. The daemon here may reach the loopback receiver.
#include <Poco/JSON/Parser.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "integration/spend/spend_support.h"
#include "support/http_receiver.h"

namespace aev::testing {
namespace {

class SpendNotificationApi : public SpendTest {
 public:
  static void SetUpTestSuite() {
    startDaemon(options({{"outbound.allow_private_addresses", "true"},
                         {"delivery.retry_schedule", "200ms,200ms,200ms"},
                         {"delivery.poll_interval_ms", "100"}}));
  }
};

TEST_F(SpendNotificationApi, ACrossedRungNotifiesTheDestinationOncePerCooldown) {
  HttpReceiver receiver;
  receiver.respond([](const ReceivedRequest&, std::size_t index) {
    return index == 0 ? Reply{500, "down", {}, {}} : Reply{};  // the first attempt fails
  });
  auto p = newPublisher("spend-notify");
  auto body = policyBody(10, arr({rung(50, "alert"), rung(80, "alert")}));
  body->set("destination", receiver.url("/budget"));
  body->set("destinationType", "webhook");
  body->set("cooldownMins", 60);
  auto policy = createPolicy(p.tenant, body);
  const auto policyId = strField(policy, "policyId");

  ASSERT_STATUS(p.keyed.post("/event", costEvent(p.channelId, 6)), 201);  // crosses 50 %
  ASSERT_TRUE(receiver.waitFor(2, std::chrono::seconds(10))) << "the notification was not retried to success";
  auto requests = receiver.requests();
  // A retry sends the same notification (the envelope's timestamp is the attempt's).
  auto dataOf = [](const std::string& body) {
    std::ostringstream out;
    Poco::JSON::Parser().parse(body).extract<Poco::JSON::Object::Ptr>()->getObject("data")->stringify(out);
    return out.str();
  };
  EXPECT_EQ(dataOf(requests[0].body), dataOf(requests[1].body));
  EXPECT_EQ(requests[0].header("webhook-id"), requests[1].header("webhook-id"));
  auto sent = Poco::JSON::Parser().parse(requests[1].body).extract<Poco::JSON::Object::Ptr>();
  EXPECT_EQ(sent->getValue<std::string>("type"), "alert.firing");
  auto data = sent->getObject("data");
  EXPECT_EQ(data->getValue<std::string>("kind"), "spend_policy");
  EXPECT_EQ(data->getValue<std::string>("policyId"), policyId);
  EXPECT_EQ(data->getValue<std::string>("metric"), "cost_usd");
  EXPECT_EQ(data->getValue<int>("atPercent"), 50);

  // The 80 % rung is crossed (and recorded) within the cooldown: no second notification.
  ASSERT_STATUS(p.keyed.post("/event", costEvent(p.channelId, 3)), 201);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  EXPECT_EQ(receiver.count(), 2u);
}

}  // namespace
}  // namespace aev::testing

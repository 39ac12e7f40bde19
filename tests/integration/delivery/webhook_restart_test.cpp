// The outbox survives a crash (docs/features.md#webhooks: at-least-once, resumed after restart): the
// daemon is killed with SIGKILL while messages wait for retries and while more are
// queued behind them, started again on the same store, and every event still arrives,
// in order per endpoint.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "integration/delivery/delivery_support.h"

namespace aev::testing {
namespace {

using namespace std::chrono_literals;

class WebhookRestartApi : public DeliveryTest {
 public:
  static void SetUpTestSuite() {
    // Slow retries, so the kill lands while messages are waiting for one.
    startDaemon(options(deliverySettings({{"delivery.retry_schedule", "1s,1s,1s,1s,1s,1s,1s,1s"}})));
  }
};

TEST_F(WebhookRestartApi, KillDashNineMidRetryLosesNothing) {
  auto t = newTenant("whkill");
  const auto ch = newChannel(t);
  std::atomic<bool> up{false};  // before the receiver: its responder reads it until the receiver goes
  HttpReceiver receiver;
  receiver.respond([&up](const ReceivedRequest&, std::size_t) { return up ? Reply{} : Reply{503, "down", {}, 0ms}; });
  const auto id = intField(createEndpoint(t, ch, receiver.url()), "id");
  auto ids = publishMany(t.http, ch, 8, "crash");
  // The first message has failed at least once and is waiting for its retry; the other
  // seven wait behind it.
  ASSERT_TRUE(receiver.waitFor(1, kWait)) << daemon().logTail();
  ASSERT_TRUE(eventually([&] { return !deliveries(t, id).empty(); }));
  daemon().kill();
  up = true;
  ASSERT_NO_THROW(daemon().start());

  // Every event arrives (at least once), and the first arrivals are in publish order.
  ASSERT_TRUE(eventually([&] {
    std::set<std::int64_t> seen;
    for (const auto& r : receiver.requests())
      if (r.body.size() > 2) seen.insert(eventIdOf(r));
    return seen.size() == ids.size();
  }, 40s)) << daemon().logTail();
  std::vector<std::int64_t> firstArrivals;
  std::set<std::int64_t> seen;
  for (const auto& r : receiver.requests()) {
    const auto e = eventIdOf(r);
    if (seen.insert(e).second) firstArrivals.push_back(e);
  }
  EXPECT_EQ(firstArrivals, ids) << joinIds(firstArrivals) << " vs " << joinIds(ids);
  // And the log shows the successes after the restart.
  ASSERT_TRUE(eventually([&] {
    std::size_t delivered = 0;
    for (const auto& d : deliveries(t, id)) delivered += strField(d, "outcome") == "delivered";
    return delivered >= ids.size();
  }));
}

}  // namespace
}  // namespace aev::testing

#pragma once
// Helpers of the delivery suites: webhook endpoints created through the API, their
// delivery attempts read back, bounded polling, and a receiver in the test process
// (support/http_receiver.h) that the daemon delivers to.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "integration/events/events_support.h"
#include "support/http_receiver.h"

namespace aev::testing {

// The daemon settings of the delivery suites: loopback receivers allowed, a short retry
// schedule, short timeouts and polls, and an internal ingest key.
std::map<std::string, std::string> deliverySettings(std::map<std::string, std::string> overrides = {});
inline constexpr const char* kInternalKey = "test-internal-key-0123456789";

class DeliveryTest : public EventsTest {
 public:
  static void SetUpTestSuite() { startDaemon(options(deliverySettings())); }

 protected:
  // POST /webhooks/endpoints; the 201 body (throws otherwise). `extra` adds fields.
  static Poco::JSON::Object::Ptr createEndpoint(const Tenant& t, std::int64_t channelId, const std::string& url,
                                                Poco::JSON::Object::Ptr extra = nullptr);
  static HttpResult postEndpoint(const Tenant& t, Poco::JSON::Object::Ptr body);
  // GET /webhooks/deliveries/:id (newest first); throws unless 200.
  static std::vector<Poco::JSON::Object::Ptr> deliveries(const Tenant& t, std::int64_t endpointId);
  // Polls `condition` every 50 ms until it holds or `timeout` passes.
  static bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout = kWait);
  // The stored event id carried by a delivered body.
  static std::int64_t eventIdOf(const ReceivedRequest& r);
};

}  // namespace aev::testing

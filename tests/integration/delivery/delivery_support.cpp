#include "integration/delivery/delivery_support.h"

#include <thread>

namespace aev::testing {

std::map<std::string, std::string> deliverySettings(std::map<std::string, std::string> overrides) {
  std::map<std::string, std::string> s = {
      {"outbound.allow_private_addresses", "true"},
      {"outbound.timeout_ms", "1000"},
      {"outbound.connect_timeout_ms", "500"},
      {"delivery.retry_schedule", "200ms,200ms,200ms,200ms,200ms"},
      {"delivery.poll_interval_ms", "50"},
      {"delivery.workers", "4"},
      {"delivery.lease_seconds", "5"},
      {"webhooks.internal_key", kInternalKey},
  };
  for (auto& [k, v] : overrides) s[k] = v;
  return s;
}

HttpResult DeliveryTest::postEndpoint(const Tenant& t, Poco::JSON::Object::Ptr body) {
  return t.http.post("/webhooks/endpoints", body);
}

Poco::JSON::Object::Ptr DeliveryTest::createEndpoint(const Tenant& t, std::int64_t channelId, const std::string& url,
                                                     Poco::JSON::Object::Ptr extra) {
  auto body = obj({{"url", url}, {"channelId", channelId}});
  if (extra)
    for (const auto& [k, v] : *extra) body->set(k, v);
  auto r = postEndpoint(t, body);
  if (r.status != 201) throw std::runtime_error("create endpoint: " + r.describe());
  return r.object();
}

std::vector<Poco::JSON::Object::Ptr> DeliveryTest::deliveries(const Tenant& t, std::int64_t endpointId) {
  auto r = t.http.get("/webhooks/deliveries/" + std::to_string(endpointId) + "?limit=200");
  if (r.status != 200) throw std::runtime_error("deliveries: " + r.describe());
  return objects(r.array());
}

bool DeliveryTest::eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

std::int64_t DeliveryTest::eventIdOf(const ReceivedRequest& r) {
  return parseJson(r.body).extract<Poco::JSON::Object::Ptr>()->getValue<std::int64_t>("id");
}

}  // namespace aev::testing

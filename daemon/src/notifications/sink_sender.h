#pragma once
// Delivers sink messages (sink_message.h) through the alert sink plugins on the delivery
// engine's threads: the engine owns ordering per rule or policy, retries with backoff,
// Retry-After and the attempt log; the plugin POSTs under the outbound policy. A sink
// that is not loaded, or that refuses its configuration, fails the message for good.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "delivery/sender.h"
#include "notifications/sink_message.h"
#include "plugins/components.h"
#include "plugins/registry.h"

namespace aev::webhooks {
class SecretBox;
}

namespace aev::notifications {

class SinkSender : public delivery::Sender {
 public:
  // onDelivered: marks the notification's record delivered (alert_events, spend_notifications).
  using DeliveredHook = std::function<void(const store::OutboxMessage&, const SinkMessage&)>;

  // secrets opens the sealed keys of a rule's destinationConfig (null: none are sealed).
  SinkSender(const plugins::Registry* registry, bool allowPrivateAddresses, std::chrono::milliseconds timeout,
             DeliveredHook onDelivered, const webhooks::SecretBox* secrets = nullptr)
      : registry_(registry),
        secrets_(secrets),
        allowPrivate_(allowPrivateAddresses),
        timeout_(timeout),
        onDelivered_(std::move(onDelivered)) {}

  delivery::Outcome send(const store::OutboxMessage& message) override;
  void recorded(const store::OutboxMessage& message, const delivery::Outcome& outcome, bool exhausted) override;

 private:
  std::shared_ptr<plugins::AlertSinkInstance> instanceFor(const SinkMessage& m);

  const plugins::Registry* registry_;
  const webhooks::SecretBox* secrets_;
  bool allowPrivate_;
  std::chrono::milliseconds timeout_;
  DeliveredHook onDelivered_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<plugins::AlertSinkInstance>> open_;  // by sink + config
};

}  // namespace aev::notifications

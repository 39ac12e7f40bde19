#pragma once
// A notification for an alert sink plugin (alert rules' state changes, spend policies'
// rung crossings), as an outbox message of the delivery engine: which sink, where, the
// alert JSON (docs/plugins.md), and the record to mark delivered. Written in the
// transaction that creates the notification, so none is lost between commit and crash.
#include <cstdint>
#include <optional>
#include <string>

#include "store/database.h"

namespace aev::notifications {

// Outbox target kinds: one ordered lane per alert rule / spend policy.
inline constexpr const char* kAlertTarget = "alert";
inline constexpr const char* kSpendTarget = "spend_alert";

struct SinkMessage {
  std::string sink;         // alert sink name: webhook, slack, ...
  std::string destination;  // where it sends (the sink's "destination" setting)
  std::string alertJson;
  std::int64_t recordId = 0;  // alert_events.id / spend_notifications.id
  std::string config = "{}";  // the rule's destinationConfig as stored (secret keys sealed)
};

std::string encode(const SinkMessage& m);
std::optional<SinkMessage> decode(const std::string& payload);

// The alert sink configuration for a destination under the outbound policy: the rule's
// own destinationConfig (secret keys opened) plus "destination" (when there is one) and
// "allowPrivateAddresses", which the host sets.
std::string sinkConfig(const std::string& destination, bool allowPrivateAddresses,
                       const std::string& openedConfig = "{}");

// Enqueues the message for `targetKind`/`targetId` (in the caller's transaction).
void enqueue(store::Connection& c, std::int64_t orgId, const char* targetKind, std::int64_t targetId,
             const SinkMessage& m, std::int64_t now);

}  // namespace aev::notifications

#pragma once
// Webhook endpoints (docs/features.md#webhooks): create (the signing secret is
// shown once), list per channel, change, delete (its pending messages go with it), the
// attempt log, redelivery of a message, and the internal ingest call. No HTTP types.
//
// The secret cannot be stored hashed like an API key: every delivery is signed with it,
// so the service must be able to read it back. It is stored sealed (secret_box.h) under
// a key kept outside the database, and never appears in any response but the creation's,
// nor in logs.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "audit/actor.h"
#include "common/errors.h"
#include "delivery/delivery_engine.h"
#include "delivery/outbound_http.h"
#include "store/database.h"
#include "store/delivery_health_repository.h"
#include "store/outbox_repository.h"
#include "store/webhook_repository.h"
#include "webhooks/event_outbox.h"
#include "webhooks/secret_box.h"

namespace aev::audit {
class AuditLog;
}

namespace aev::webhooks {

// A create or PATCH body, type-checked; absent fields keep their value on PATCH.
struct EndpointInput {
  std::optional<std::string> url;
  std::optional<std::int64_t> channelId;  // create only
  std::optional<std::optional<std::vector<std::string>>> eventTypes;  // null: every type
  std::optional<std::string> description;
  std::optional<bool> active;
};

class WebhookService {
 public:
  WebhookService(store::Database& db, audit::AuditLog& audit, const delivery::OutboundHttp& outbound,
                 EventOutbox& outbox, delivery::Engine& engine, const SecretBox& secrets, std::string internalKey)
      : db_(db),
        audit_(audit),
        outbound_(outbound),
        outbox_(outbox),
        engine_(engine),
        secrets_(secrets),
        internalKey_(std::move(internalKey)) {}

  // The value problems of a create (endpointId absent) or update, saving nothing.
  std::vector<FieldError> problems(std::int64_t orgId, std::optional<std::int64_t> endpointId,
                                   const EndpointInput& input);
  // The record with the secret in clear (shown once); the store holds it sealed.
  store::WebhookEndpointRecord create(std::int64_t orgId, const EndpointInput& input, const audit::Actor& actor);
  std::vector<store::WebhookEndpointRecord> listForChannel(std::int64_t orgId, std::int64_t channelId);
  // Page `page` (from 1) of the organization's endpoints the filter keeps. A channel or
  // app of another organization is not an error here: it matches nothing.
  store::EndpointPage list(const store::EndpointFilter& filter, std::int64_t page, std::int64_t limit);
  store::WebhookEndpointRecord get(std::int64_t orgId, std::int64_t endpointId);
  store::WebhookEndpointRecord update(std::int64_t orgId, std::int64_t endpointId, const EndpointInput& input,
                                      const audit::Actor& actor);
  void remove(std::int64_t orgId, std::int64_t endpointId, const audit::Actor& actor);

  // Newest first, at most `limit`, those `filter` keeps.
  std::vector<store::DeliveryAttemptRecord> deliveries(std::int64_t orgId, std::int64_t endpointId, std::int64_t limit,
                                                       const store::AttemptFilter& filter = {});
  std::int64_t pending(std::int64_t orgId, std::int64_t endpointId);
  // health24h of the organization's endpoints (only `id` when given): one grouped read for a
  // whole list; a endpoint without an attempt in the last 24 h is absent.
  std::map<std::int64_t, store::DeliveryHealth24h> health24h(std::int64_t orgId,
                                                             std::optional<std::int64_t> id = std::nullopt);
  // Sends the message of attempt `deliveryId` again (same webhook-id, new attempts).
  void redeliver(std::int64_t orgId, std::int64_t endpointId, std::int64_t deliveryId, const audit::Actor& actor);

  // POST /webhooks/ingest/:endpointId: 403 unless `key` is the configured internal key
  // (none configured: always 403). With it, the endpoint's pending messages are due now;
  // returns how many are pending.
  std::int64_t ingest(const std::string& key, std::int64_t endpointId);
  void requireInternalKey(const std::string& key) const;

 private:
  store::Database& db_;
  audit::AuditLog& audit_;
  const delivery::OutboundHttp& outbound_;
  EventOutbox& outbox_;
  delivery::Engine& engine_;
  const SecretBox& secrets_;
  std::string internalKey_;
  store::WebhookRepository endpoints_;
  store::OutboxRepository messages_;
};

}  // namespace aev::webhooks

#pragma once
// Delivers one outbox message to a webhook endpoint: the stored event as JSON (docs/api.md,
// the same rendering as publish and stream), signed as Standard Webhooks, POSTed
// under the outbound policy. Any non-2xx answer or no answer is retried (docs/features.md#webhooks)
// except 410 Gone, which means the receiver wants no more. An endpoint that has failed
// without a success for `autoDisableAfter` is disabled and its queue dropped.
#include <chrono>

#include "delivery/outbound_http.h"
#include "delivery/sender.h"
#include "store/database.h"
#include "store/event_repository.h"
#include "store/outbox_repository.h"
#include "store/webhook_repository.h"
#include "webhooks/event_outbox.h"
#include "webhooks/secret_box.h"

namespace aev::webhooks {

class WebhookSender : public delivery::Sender {
 public:
  WebhookSender(store::Database& db, const delivery::OutboundHttp& outbound, EventOutbox& outbox,
                const SecretBox& secrets, std::chrono::seconds autoDisableAfter)
      : db_(db), outbound_(outbound), outbox_(outbox), secrets_(secrets), autoDisableAfter_(autoDisableAfter) {}

  delivery::Outcome send(const store::OutboxMessage& message) override;
  void recorded(const store::OutboxMessage& message, const delivery::Outcome& outcome, bool exhausted) override;

 private:
  store::Database& db_;
  const delivery::OutboundHttp& outbound_;
  EventOutbox& outbox_;
  const SecretBox& secrets_;
  std::chrono::seconds autoDisableAfter_;
  store::WebhookRepository endpoints_;
  store::EventRepository events_;
  store::OutboxRepository messages_;
};

}  // namespace aev::webhooks

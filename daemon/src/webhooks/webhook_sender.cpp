#include "webhooks/webhook_sender.h"

#include <spdlog/spdlog.h>

#include "common/clock.h"
#include "events/event.h"
#include "webhooks/signature.h"

namespace aev::webhooks {

delivery::Outcome WebhookSender::send(const store::OutboxMessage& m) {
  delivery::Outcome out;
  std::optional<store::WebhookEndpointRecord> endpoint;
  std::optional<store::StoredEvent> event;
  {
    auto conn = db_.acquire();
    endpoint = endpoints_.find(*conn, m.orgId, m.targetId);
    if (!endpoint || !endpoint->active) {
      out.verdict = delivery::Verdict::Cancelled;  // deleted or disabled meanwhile
      return out;
    }
    if (m.eventId) event = events_.find(*conn, m.orgId, *m.eventId);
  }
  std::string body;
  if (event) body = events::toJson(*event);
  else if (m.payload) body = *m.payload;
  else {
    out.verdict = delivery::Verdict::Permanent;
    out.responseBody = "event " + std::to_string(m.eventId.value_or(0)) + " is no longer stored (retention or deletion)";
    return out;
  }

  std::string secret;
  try {
    secret = secrets_.open(endpoint->secret);
  } catch (const std::exception& e) {
    out.verdict = delivery::Verdict::Permanent;  // the key changed: retrying cannot help
    out.responseBody = e.what();
    return out;
  }
  const auto timestamp = clock::nowMicros() / clock::kSecond;
  delivery::OutboundRequest request;
  request.url = endpoint->url;
  request.body = std::move(body);
  request.headers = {{"content-type", "application/json"},
                     {"user-agent", "agent-eventsd-webhooks/1"},
                     {"webhook-id", m.messageId},
                     {"webhook-timestamp", std::to_string(timestamp)},
                     {"webhook-signature", sign(secret, m.messageId, timestamp, request.body)}};
  auto answer = outbound_.post(request);
  out.elapsed = answer.elapsed;
  out.statusCode = static_cast<int>(answer.status);
  out.retryAfter = answer.retryAfter;
  if (answer.status == 0) {
    out.verdict = delivery::Verdict::Retry;
    out.responseBody = answer.error;
  } else {
    out.responseBody = std::move(answer.body);
    if (answer.status >= 200 && answer.status < 300) out.verdict = delivery::Verdict::Delivered;
    else if (answer.status == 410) out.verdict = delivery::Verdict::Permanent;
    else out.verdict = delivery::Verdict::Retry;
  }
  return out;
}

void WebhookSender::recorded(const store::OutboxMessage& m, const delivery::Outcome& outcome, bool /*exhausted*/) {
  const auto now = clock::nowMicros();
  bool disabled = false;
  db_.transaction([&](store::Connection& c) {
    if (outcome.verdict == delivery::Verdict::Delivered) {
      endpoints_.clearFailing(c, m.orgId, m.targetId);
      return;
    }
    const auto since = endpoints_.markFailing(c, m.orgId, m.targetId, now);
    if (now - since >= autoDisableAfter_.count() * clock::kSecond) {
      endpoints_.disable(c, m.orgId, m.targetId, now,
                         "failing without a success since " + clock::toRfc3339(since) +
                             " (webhooks.auto_disable_after_seconds)");
      messages_.dropTarget(c, m.orgId, "webhook", m.targetId, false);
      disabled = true;
    }
  });
  if (disabled) {
    outbox_.invalidate();
    spdlog::warn("webhook endpoint {} of organization {} disabled: failing for more than {} s", m.targetId, m.orgId,
                 autoDisableAfter_.count());
  }
}

}  // namespace aev::webhooks

#include "webhooks/webhook_service.h"

#include <Poco/JSON/Array.h>

#include <set>

#include "audit/audit_log.h"
#include "audit/changes.h"
#include "common/clock.h"
#include "common/crypto.h"
#include "events/event.h"
#include "webhooks/signature.h"

namespace aev::webhooks {

namespace {

constexpr std::size_t kMaxUrlLength = 2048;
constexpr std::size_t kMaxDescriptionLength = 500;
const std::string kWebhookTargetKind = "webhook";

}  // namespace

std::vector<FieldError> WebhookService::problems(std::int64_t orgId, std::optional<std::int64_t> endpointId,
                                                 const EndpointInput& in) {
  std::vector<FieldError> out;
  const bool creating = !endpointId;
  if (in.url) {
    if (in.url->empty() || in.url->size() > kMaxUrlLength)
      out.push_back({"body.url", "must be 1 to 2048 characters", in.url->substr(0, 200)});
    else if (auto refused = outbound_.refuseUrl(*in.url); !refused.empty())
      out.push_back({"body.url", refused, *in.url});
  } else if (creating) {
    out.push_back({"body.url", "is required", ""});
  }
  if (creating) {
    if (!in.channelId) {
      out.push_back({"body.channelId", "is required", ""});
    } else {
      auto conn = db_.acquire();
      // Another organization's channel reads exactly like a missing one.
      if (!endpoints_.channelInOrg(*conn, orgId, *in.channelId))
        out.push_back({"body.channelId", "is not a channel of the organization", std::to_string(*in.channelId)});
    }
  }
  if (in.eventTypes && *in.eventTypes) {
    const auto& types = **in.eventTypes;
    if (types.empty()) out.push_back({"body.eventTypes", "must name at least one event type, or be null for all", "[]"});
    for (const auto& t : types)
      if (!events::isEventType(t)) out.push_back({"body.eventTypes", "is not an event type (docs/api.md#events)", t});
  }
  if (in.description && in.description->size() > kMaxDescriptionLength)
    out.push_back({"body.description", "must be at most 500 characters", in.description->substr(0, 200)});
  return out;
}

namespace {

std::optional<std::vector<std::string>> distinctTypes(const std::optional<std::vector<std::string>>& types) {
  if (!types) return std::nullopt;
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& t : *types)
    if (seen.insert(t).second) out.push_back(t);
  return out;
}

}  // namespace

namespace {

// What the audit log keeps of an endpoint: never its secret.
Poco::JSON::Object::Ptr endpointSnapshot(const store::WebhookEndpointRecord& e) {
  Poco::Dynamic::Var types;
  if (e.eventTypes) {
    Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
    for (const auto& t : *e.eventTypes) list->add(t);
    types = list;
  }
  return audit::metadata({{"url", e.url},
                          {"channelId", std::to_string(e.channelId)},
                          {"eventTypes", types},
                          {"description", e.description},
                          {"active", e.active}});
}

}  // namespace

store::WebhookEndpointRecord WebhookService::create(std::int64_t orgId, const EndpointInput& in,
                                                    const audit::Actor& actor) {
  if (auto found = problems(orgId, std::nullopt, in); !found.empty()) throw errors::validation(std::move(found));
  store::WebhookEndpointRecord e;
  e.orgId = orgId;
  e.channelId = *in.channelId;
  e.url = *in.url;
  e.secret = newSecret();
  e.eventTypes = in.eventTypes ? distinctTypes(*in.eventTypes) : std::nullopt;
  e.description = in.description.value_or("");
  e.active = in.active.value_or(true);
  e.createdAt = e.updatedAt = clock::nowMicros();
  auto sealed = e;
  sealed.secret = secrets_.seal(e.secret);
  e.id = db_.transaction([&](store::Connection& c) {
    const auto id = endpoints_.insert(c, sealed);
    audit_.record(c, orgId, actor, audit::Change::of("webhook", "create", id, endpointSnapshot(e)));
    return id;
  });
  outbox_.invalidate();
  return e;
}

std::vector<store::WebhookEndpointRecord> WebhookService::listForChannel(std::int64_t orgId, std::int64_t channelId) {
  auto conn = db_.acquire();
  if (!endpoints_.channelInOrg(*conn, orgId, channelId)) throw errors::notFound("Channel");
  return endpoints_.listForChannel(*conn, orgId, channelId);
}

store::EndpointPage WebhookService::list(const store::EndpointFilter& filter, std::int64_t page, std::int64_t limit) {
  auto conn = db_.acquire();
  return endpoints_.list(*conn, filter, (page - 1) * limit, limit);
}

store::WebhookEndpointRecord WebhookService::get(std::int64_t orgId, std::int64_t endpointId) {
  auto conn = db_.acquire();
  auto found = endpoints_.find(*conn, orgId, endpointId);
  if (!found) throw errors::notFound("Webhook endpoint");
  return *found;
}

store::WebhookEndpointRecord WebhookService::update(std::int64_t orgId, std::int64_t endpointId,
                                                    const EndpointInput& in, const audit::Actor& actor) {
  auto e = get(orgId, endpointId);
  const auto before = endpointSnapshot(e);
  if (auto found = problems(orgId, endpointId, in); !found.empty()) throw errors::validation(std::move(found));
  if (in.url) e.url = *in.url;
  if (in.eventTypes) e.eventTypes = distinctTypes(*in.eventTypes);
  if (in.description) e.description = *in.description;
  if (in.active) {
    if (*in.active && !e.active) {
      // Re-enabling starts a fresh failure window.
      e.failingSince.reset();
      e.disabledAt.reset();
      e.disabledReason.reset();
    }
    e.active = *in.active;
  }
  e.updatedAt = clock::nowMicros();
  db_.transaction([&](store::Connection& c) {
    endpoints_.update(c, e);
    // A disabled endpoint's queue is dropped: nothing piles up to flood it later.
    if (!e.active) messages_.dropTarget(c, orgId, kWebhookTargetKind, endpointId, false);
    audit_.record(c, orgId, actor,
                  audit::Change::of("webhook", "update", endpointId, audit::changes(*before, *endpointSnapshot(e))));
  });
  outbox_.invalidate();
  return e;
}

void WebhookService::remove(std::int64_t orgId, std::int64_t endpointId, const audit::Actor& actor) {
  bool removed = db_.transaction([&](store::Connection& c) {
    auto endpoint = endpoints_.find(c, orgId, endpointId);
    if (!endpoint || !endpoints_.remove(c, orgId, endpointId)) return false;
    messages_.dropTarget(c, orgId, kWebhookTargetKind, endpointId, true);  // pending retries stop
    audit_.record(c, orgId, actor, audit::Change::of("webhook", "delete", endpointId, endpointSnapshot(*endpoint)));
    return true;
  });
  if (!removed) throw errors::notFound("Webhook endpoint");
  outbox_.invalidate();
}

std::vector<store::DeliveryAttemptRecord> WebhookService::deliveries(std::int64_t orgId, std::int64_t endpointId,
                                                                     std::int64_t limit,
                                                                     const store::AttemptFilter& filter) {
  get(orgId, endpointId);
  auto conn = db_.acquire();
  return messages_.attempts(*conn, orgId, kWebhookTargetKind, endpointId, limit, filter);
}

std::int64_t WebhookService::pending(std::int64_t orgId, std::int64_t endpointId) {
  auto conn = db_.acquire();
  return messages_.pendingCount(*conn, orgId, kWebhookTargetKind, endpointId);
}

void WebhookService::redeliver(std::int64_t orgId, std::int64_t endpointId, std::int64_t deliveryId,
                               const audit::Actor& actor) {
  auto endpoint = get(orgId, endpointId);
  db_.transaction([&](store::Connection& c) {
    auto attempt = messages_.attempt(c, orgId, deliveryId);
    if (!attempt || attempt->targetKind != kWebhookTargetKind || attempt->targetId != endpointId)
      throw errors::notFound("Webhook delivery");
    if (!endpoint.active)
      throw errors::conflict("The webhook endpoint is disabled; enable it (PATCH active: true) to redeliver.");
    messages_.enqueue(c, orgId, kWebhookTargetKind, endpointId, attempt->eventId, attempt->messageId, std::nullopt,
                      clock::nowMicros());
    audit_.record(c, orgId, actor,
                  audit::Change::of("webhook", "redeliver", endpointId,
                                    audit::metadata({{"deliveryId", std::to_string(deliveryId)},
                                                     {"messageId", attempt->messageId}})));
  });
  engine_.wake();
}

void WebhookService::requireInternalKey(const std::string& key) const {
  // Clients may not deliver through the service (docs/features.md#webhooks): only a caller holding
  // the internal key, and no key is configured by default.
  if (internalKey_.empty() || !crypto::constantTimeEquals(key, internalKey_))
    throw errors::forbidden("This endpoint is used internally by the service to deliver webhooks.");
}

std::int64_t WebhookService::ingest(const std::string& key, std::int64_t endpointId) {
  requireInternalKey(key);
  std::int64_t pendingNow = 0;
  db_.transaction([&](store::Connection& c) {
    auto endpoint = endpoints_.findForIngest(c, endpointId);
    if (!endpoint) throw errors::notFound("Webhook endpoint");
    endpoints_.hurryPending(c, endpoint->orgId, endpointId, clock::nowMicros());
    pendingNow = messages_.pendingCount(c, endpoint->orgId, kWebhookTargetKind, endpointId);
  });
  engine_.wake();
  return pendingNow;
}

std::map<std::int64_t, store::DeliveryHealth24h> WebhookService::health24h(std::int64_t orgId,
                                                                           std::optional<std::int64_t> id) {
  auto conn = db_.acquire();
  return store::DeliveryHealthRepository().since(*conn, orgId, kWebhookTargetKind, clock::nowMicros() - clock::kDay,
                                                 id);
}

}  // namespace aev::webhooks

#pragma once
// Webhook endpoints (schema_delivery.cpp) and the outbox rows of their events. Every
// call takes the organization id except the two the service itself needs across
// organizations: the channels that have endpoints (the publish path's cache) and the
// lookup behind the internal ingest call.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct WebhookEndpointRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::int64_t channelId = 0;
  std::string url;
  std::string secret;  // whsec_...; recoverable because every delivery is signed with it
  std::optional<std::vector<std::string>> eventTypes;  // std::nullopt: every type
  std::string description;
  bool active = true;
  std::optional<std::int64_t> failingSince;
  std::optional<std::int64_t> disabledAt;
  std::optional<std::string> disabledReason;
  std::int64_t createdAt = 0;
  std::int64_t updatedAt = 0;
};

// The organization's endpoints that GET /webhooks/endpoints lists: every one, or those of
// one channel, of one app's channels, active or not.
struct EndpointFilter {
  std::int64_t orgId = 0;
  std::optional<std::int64_t> channelId;
  std::optional<std::int64_t> appId;
  std::optional<bool> active;
};

struct EndpointPage {
  std::vector<WebhookEndpointRecord> data;  // oldest first (by id), as listForChannel
  std::int64_t total = 0;                   // every endpoint the filter keeps
};

class WebhookRepository {
 public:
  std::int64_t insert(Connection& c, const WebhookEndpointRecord& e);
  // Saves url, event types, description and active (re-enabling clears the failure state).
  void update(Connection& c, const WebhookEndpointRecord& e);
  std::optional<WebhookEndpointRecord> find(Connection& c, std::int64_t orgId, std::int64_t id);
  std::optional<WebhookEndpointRecord> findForIngest(Connection& c, std::int64_t id);
  std::vector<WebhookEndpointRecord> listForChannel(Connection& c, std::int64_t orgId, std::int64_t channelId);
  // One page of the filter's endpoints and their total, in one statement.
  EndpointPage list(Connection& c, const EndpointFilter& f, std::int64_t offset, std::int64_t limit);
  bool remove(Connection& c, std::int64_t orgId, std::int64_t id);
  bool channelInOrg(Connection& c, std::int64_t orgId, std::int64_t channelId);

  // The failure window: set on the first failure of a run, cleared by a success.
  // Returns when the current run of failures began.
  std::int64_t markFailing(Connection& c, std::int64_t orgId, std::int64_t id, std::int64_t now);
  void clearFailing(Connection& c, std::int64_t orgId, std::int64_t id);
  void disable(Connection& c, std::int64_t orgId, std::int64_t id, std::int64_t now, const std::string& reason);

  // Channels with at least one active endpoint (all organizations).
  std::vector<std::int64_t> channelsWithEndpoints(Connection& c);
  // Outbox rows for the events of one channel with seq in [fromSeq, toSeq], one per
  // active endpoint of the channel whose event type filter lets the event through.
  // Runs in the event writer's transaction; returns how many rows it wrote.
  std::size_t enqueueEvents(Connection& c, std::int64_t channelId, std::int64_t fromSeq, std::int64_t toSeq,
                            std::int64_t now);
  // Makes an endpoint's pending messages due now.
  std::size_t hurryPending(Connection& c, std::int64_t orgId, std::int64_t id, std::int64_t now);
};

}  // namespace aev::store

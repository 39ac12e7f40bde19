#pragma once
// Export destinations (schema_exports.cpp) and the outbox rows of their events. Every
// call takes the organization id except the publish path's cache of which
// organizations have any active destination.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct ExportDestinationRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::string name;
  std::string kind;         // otlp | http | any loaded exporter plugin component
  std::string endpointUrl;  // "" when the kind does not use one

  std::string envSlug;  // an environment slug, or "*"
  std::vector<std::string> signals;
  std::optional<std::vector<std::string>> eventTypeFilter;  // std::nullopt: every type
  std::map<std::string, std::string> headers;               // values write-only
  std::optional<std::string> serviceName;
  std::string encoding;  // protobuf | json (otlp)
  bool active = true;
  // The exporter's own per-destination configuration: a JSON object, secret keys sealed
  // (plugins/instance_config.h).
  std::string config = "{}";
  std::int64_t createdAt = 0;
  std::int64_t updatedAt = 0;
};

// How a destination's deliveries are going, from its attempt log and outbox.
struct ExportHealthRecord {
  std::optional<std::int64_t> lastSuccessAt;
  std::optional<std::int64_t> lastFailureAt;
  std::string lastFailureReason;           // the failed attempt's answer or error (at most 4 KiB)
  std::int64_t consecutiveFailures = 0;    // attempts that did not deliver since the last one that did
  std::optional<std::string> lastOutcome;  // delivered | retrying | failed; none before the first attempt
  std::int64_t givenUpBatches = 0;         // batches failed for good and not redelivered since
  std::int64_t pending = 0;                // queued messages
};

// A batch given up after its last retry: its failed attempt, by the event at its head.
struct GivenUpBatch {
  std::int64_t deliveryId = 0;  // the failed attempt
  std::int64_t eventId = 0;
  std::string messageId;
  std::int64_t failedAt = 0;
};

class ExportDestinationRepository {
 public:
  ExportHealthRecord health(Connection& c, std::int64_t orgId, std::int64_t destinationId);
  // Given-up batches in [from, to) (failed attempts whose message was neither retried nor
  // queued again since), oldest first, at most `limit`; or just the one of `deliveryId`.
  std::vector<GivenUpBatch> givenUp(Connection& c, std::int64_t orgId, std::int64_t destinationId,
                                    std::optional<std::int64_t> deliveryId, std::int64_t from, std::int64_t to,
                                    std::int64_t limit);
  std::int64_t insert(Connection& c, const ExportDestinationRecord& d);
  void update(Connection& c, const ExportDestinationRecord& d);
  std::optional<ExportDestinationRecord> find(Connection& c, std::int64_t orgId, std::int64_t id);
  std::vector<ExportDestinationRecord> list(Connection& c, std::int64_t orgId);
  bool remove(Connection& c, std::int64_t orgId, std::int64_t id);
  bool environmentExists(Connection& c, std::int64_t orgId, const std::string& slug);

  std::vector<std::int64_t> orgsWithDestinations(Connection& c);
  // Outbox rows for the events of one channel with seq in [fromSeq, toSeq], one per
  // active destination of the organization whose environment and event type filters
  // let the event through. Runs in the event writer's transaction.
  std::size_t enqueueEvents(Connection& c, std::int64_t channelId, std::int64_t fromSeq, std::int64_t toSeq,
                            std::int64_t now);
  // Pending messages of a destination after `afterOutboxId`, in order: (outbox id, event id).
  std::vector<std::pair<std::int64_t, std::int64_t>> followers(Connection& c, std::int64_t orgId,
                                                               std::int64_t destinationId, std::int64_t afterOutboxId,
                                                               std::int64_t limit);
  void deleteMessages(Connection& c, std::int64_t orgId, const std::vector<std::int64_t>& outboxIds);
};

// ",a,b," ↔ {a, b}.
std::string joinDelimited(const std::vector<std::string>& values);
std::vector<std::string> splitDelimited(const std::string& text);

}  // namespace aev::store

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
  std::string kind;  // otlp | http (the exporter plugin component)
  std::string endpointUrl;
  std::string envSlug;  // an environment slug, or "*"
  std::vector<std::string> signals;
  std::optional<std::vector<std::string>> eventTypeFilter;  // std::nullopt: every type
  std::map<std::string, std::string> headers;               // values write-only
  std::optional<std::string> serviceName;
  std::string encoding;  // protobuf | json (otlp)
  bool active = true;
  std::int64_t createdAt = 0;
  std::int64_t updatedAt = 0;
};

class ExportDestinationRepository {
 public:
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

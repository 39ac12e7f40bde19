#pragma once
// What spend policies count and record (docs/features.md#spend-policies): the per-window spend counters
// (spend_buckets, nano-dollars), the rung crossings (once per window) and the
// notifications waiting for the outbound delivery engine (spend_notifications).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/database.h"
#include "store/spend_policy_repository.h"

namespace aev::store {

struct SpendNotificationRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::int64_t policyId = 0;
  std::int64_t crossingId = 0;
  std::int64_t atPercent = 0;
  double percent = 0;
  std::int64_t windowStart = 0;
  std::string destination;
  std::string destinationType;  // an alert sink name (plugins registry)
  std::string payloadJson;      // the Alert JSON of docs/plugins.md
  std::int64_t createdAt = 0;
  std::optional<std::int64_t> sentAt;
};

struct SpendCrossingRecord {
  std::int64_t id = 0;
  std::int64_t policyId = 0;
  std::int64_t windowStart = 0;
  std::int64_t atPercent = 0;
  std::string action;
  std::int64_t spentNanos = 0;
  std::int64_t crossedAt = 0;
};

class SpendLedgerRepository {
 public:
  // Adds spend to a policy's bucket (creating it). The policy is one of the event's own
  // organization (the caller matched it from that organization's policies).
  void add(Connection& c, std::int64_t policyId, std::int64_t bucketStart, std::int64_t nanos);
  // Spend of each policy of the organization in its buckets from `since` on:
  // policyId → (since) in, policyId → nanos out (0 when it has none).
  std::map<std::int64_t, std::int64_t> totals(Connection& c, std::int64_t orgId,
                                               const std::map<std::int64_t, std::int64_t>& sinceByPolicy);
  // The policy's buckets from `since` on, oldest first: (bucketStart, nanos).
  std::vector<std::pair<std::int64_t, std::int64_t>> buckets(Connection& c, std::int64_t orgId,
                                                             std::int64_t policyId, std::int64_t since);
  // Creates the bucket (0) when missing. As a rebuild's first statement it takes the row
  // lock (PostgreSQL) or the write lock (SQLite) before the events are summed, so a
  // concurrent publish adds after the rebuild has set the sum: nothing lost or doubled.
  void touch(Connection& c, std::int64_t policyId, std::int64_t bucketStart);
  void set(Connection& c, std::int64_t policyId, std::int64_t bucketStart, std::int64_t nanos);
  void removeBuckets(Connection& c, std::int64_t policyId, std::int64_t from, std::int64_t before);

  // cost_usd of the stored events the policy matches, received from `since` on:
  // (received_at, cost_usd). `environmentSlug` is the slug of policy.environmentId
  // (nullopt when that environment is gone: then nothing matches).
  std::vector<std::pair<std::int64_t, double>> matchingCosts(Connection& c, const SpendPolicyRecord& policy,
                                                             const std::optional<std::string>& environmentSlug,
                                                             std::int64_t since);

  // Records a crossing; its id when this call recorded it, nullopt when that rung of
  // that window was recorded before (by anyone).
  std::optional<std::int64_t> recordCrossing(Connection& c, std::int64_t orgId, const SpendCrossingRecord& crossing);
  std::vector<SpendCrossingRecord> crossings(Connection& c, std::int64_t orgId, std::int64_t policyId);

  std::int64_t insertNotification(Connection& c, const SpendNotificationRecord& n);
  std::vector<SpendNotificationRecord> notifications(Connection& c, std::int64_t orgId, std::int64_t policyId);
  // For the delivery engine: every organization's unsent notifications, oldest first.
  std::vector<SpendNotificationRecord> unsentNotifications(Connection& c, std::int64_t limit);
  void markSent(Connection& c, std::int64_t orgId, std::int64_t id, std::int64_t sentAt);
};

}  // namespace aev::store

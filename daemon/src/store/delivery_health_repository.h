#pragma once
// The last 24 hours of a delivery target (webhook endpoint, export destination) from its
// attempt log: how many attempts, how many delivered, and the latest failure (`health24h`
// of docs/api.md#refused-publishes-delivery-health-latency-by-kind). A list reads all its
// targets in two queries, whatever their number.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "store/database.h"

namespace aev::store {

struct DeliveryHealth24h {
  std::int64_t deliveries = 0;  // attempts since `since`
  std::int64_t succeeded = 0;   // of them, delivered
  std::optional<std::int64_t> lastFailureAt;
  std::optional<std::int64_t> lastFailureStatus;  // nullopt when no HTTP status came back
  std::optional<std::string> lastFailureReason;
};

class DeliveryHealthRepository {
 public:
  // Targets of `targetKind` ("webhook" | "export") of the organization with an attempt since
  // `since` (only `targetId` when given); a target without one is absent (all zero).
  std::map<std::int64_t, DeliveryHealth24h> since(Connection& c, std::int64_t orgId, const std::string& targetKind,
                                                  std::int64_t since, std::optional<std::int64_t> targetId);
};

}  // namespace aev::store

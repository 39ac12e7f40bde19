#pragma once
// The publishes spend policies refused (GET /spend-policies/{id}/refusals): a running count
// per policy and the newest rows, pruned to kKeptRefusals per policy on every write.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"

namespace aev::store {

inline constexpr std::int64_t kKeptRefusals = 20;

struct SpendRefusalRecord {
  std::int64_t orgId = 0;
  std::int64_t policyId = 0;
  std::int64_t occurredAt = 0;
  std::optional<std::int64_t> apiKeyId;
  std::optional<std::int64_t> channelId;
  std::optional<std::string> agentId;
  std::string reason;
  std::optional<double> amountUsd;
};

class SpendRefusalRepository {
 public:
  // Adds the refusal to its policy's count and rows (nothing when the policy is gone or of
  // another organization), then drops that policy's rows older than its newest kKeptRefusals.
  void record(Connection& c, const SpendRefusalRecord& refusal);
  // The policy's running count (0 when none).
  std::int64_t count(Connection& c, std::int64_t orgId, std::int64_t policyId);
  // The policy's newest refusals, newest first (at most kKeptRefusals).
  std::vector<SpendRefusalRecord> newest(Connection& c, std::int64_t orgId, std::int64_t policyId);
};

}  // namespace aev::store

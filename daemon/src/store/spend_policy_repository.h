#pragma once
// Spend policies of an organization (docs/features.md#spend-policies); every call is scoped by org id.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct SpendRungRecord {
  std::int64_t atPercent = 0;
  std::string action;                        // alert | block | fallback
  std::optional<std::string> blockMode;      // hard | soft (block only)
  std::optional<std::string> fallbackModel;  // fallback only
};

struct SpendPolicyRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::string name;
  // Scope: every field set must equal the event's value for the event to count.
  std::optional<std::int64_t> apiKeyId, appId, environmentId;
  std::optional<std::string> userId, model, provider, tagKey, tagValue;
  double limitUsd = 0;
  std::string windowType;  // hour | day | week | month | rolling_24h
  std::int64_t cooldownMins = 60;
  std::optional<std::string> destination, destinationType;
  bool enabled = true;
  std::vector<SpendRungRecord> rungs;
  std::int64_t createdAt = 0;
  std::int64_t updatedAt = 0;
};

class SpendPolicyRepository {
 public:
  std::int64_t insert(Connection& c, const SpendPolicyRecord& policy);
  std::vector<SpendPolicyRecord> list(Connection& c, std::int64_t orgId);  // creation order
  std::optional<SpendPolicyRecord> byId(Connection& c, std::int64_t orgId, std::int64_t id);
  std::int64_t count(Connection& c, std::int64_t orgId);
  // Every enabled policy of every organization (start-up rebuild of the counters).
  std::vector<SpendPolicyRecord> allEnabled(Connection& c);
  // Writes every field but id, orgId and createdAt.
  void update(Connection& c, const SpendPolicyRecord& policy);
  void remove(Connection& c, std::int64_t orgId, std::int64_t id);
  // Claims the right to notify: true (and stamps `now`) only when the policy's last
  // notification is at least `cooldownMicros` old. One statement, so two requests or
  // nodes crossing together cannot both notify inside the cooldown.
  bool claimNotification(Connection& c, std::int64_t orgId, std::int64_t id, std::int64_t now,
                         std::int64_t cooldownMicros);
};

// The rungs column: a JSON array of {at_percent, action, block_mode, fallback_model}.
std::string rungsToJson(const std::vector<SpendRungRecord>& rungs);
std::vector<SpendRungRecord> rungsFromJson(const std::string& json);

}  // namespace aev::store

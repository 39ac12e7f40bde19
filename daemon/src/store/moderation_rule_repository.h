#pragma once
// Moderation rules of an organization (docs/features.md#moderation); every call is scoped by org id.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct ModerationRuleRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::string name;
  std::string action;    // allow | redact | block | flag
  std::string detector;  // regex | keyword | tool_name | tool_arg | a plugin detector name
  std::optional<std::string> pattern;
  std::string target;  // request | response | tool_call
  std::optional<std::string> detectorConfig;  // plugin detectors: a JSON object, secret keys sealed
  std::optional<double> minScore;             // plugin detectors: matches scored lower do not count
  bool enabled = true;
  std::int64_t createdAt = 0;
  std::int64_t updatedAt = 0;
};

class ModerationRuleRepository {
 public:
  std::int64_t insert(Connection& c, const ModerationRuleRecord& rule);
  // Creation (id) order.
  std::vector<ModerationRuleRecord> list(Connection& c, std::int64_t orgId);
  std::optional<ModerationRuleRecord> byId(Connection& c, std::int64_t orgId, std::int64_t id);
  std::int64_t count(Connection& c, std::int64_t orgId);
  // Writes every field but id, orgId and createdAt.
  void update(Connection& c, const ModerationRuleRecord& rule);
  void remove(Connection& c, std::int64_t orgId, std::int64_t id);
  // Changes whenever a rule of the organization is created, changed or deleted: lets a
  // node notice another node's change without reloading the rules themselves.
  std::string fingerprint(Connection& c, std::int64_t orgId);
};

}  // namespace aev::store

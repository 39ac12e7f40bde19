#pragma once
// Violations recorded by moderation rules, and the efficacy report over them
// (docs/features.md#moderation). Every call is scoped by organization id.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct ViolationRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::int64_t ruleId = 0;
  std::string ruleName;
  std::string detector;
  std::string action;
  std::string target;
  std::optional<std::int64_t> eventId;  // none when the event was not stored (blocked)
  std::optional<std::string> traceId;   // the stored event's traceId (read by page() only)
  std::optional<std::int64_t> channelId;
  std::optional<std::string> eventType;
  std::string source;  // api | batch | otlp
  std::int64_t matchCount = 0;
  std::string fieldsJson = "[]";  // where the matches were: a JSON array of paths
  std::optional<std::string> matchesJson;  // [{detector, label, score}, ...]; none before v14
  double latencyMs = 0;
  std::int64_t createdAt = 0;
};

// [since, until) in µs, plus optional equality filters.
struct ViolationFilter {
  std::int64_t orgId = 0;
  std::int64_t since = 0;
  std::int64_t until = 0;
  std::optional<std::int64_t> ruleId;
  std::optional<std::string> action;
  std::optional<std::string> target;
};

struct EfficacyRow {
  std::string detector;
  std::string action;
  std::string target;
  std::int64_t violationCount = 0;
  double avgLatencyMs = 0;
  double maxLatencyMs = 0;
};

// A rule's violations in a window. The name and action are the rule's own while it
// exists, else those its newest violation recorded.
struct RuleViolationCount {
  std::int64_t ruleId = 0;
  std::string ruleName;
  std::string action;
  std::int64_t violationCount = 0;
  std::int64_t lastViolationAt = 0;
  bool ruleDeleted = false;
};

class ModerationViolationRepository {
 public:
  void insert(Connection& c, const ViolationRecord& v);
  // Newest first.
  std::vector<ViolationRecord> page(Connection& c, const ViolationFilter& f, std::int64_t offset, std::int64_t limit);
  std::int64_t count(Connection& c, const ViolationFilter& f);
  // One row per (detector, action, target), most violations first.
  std::vector<EfficacyRow> efficacy(Connection& c, std::int64_t orgId, std::int64_t since, std::int64_t until);
  // One row per rule that matched in the window, most violations first.
  std::vector<RuleViolationCount> perRule(Connection& c, std::int64_t orgId, std::int64_t since, std::int64_t until);
};

}  // namespace aev::store

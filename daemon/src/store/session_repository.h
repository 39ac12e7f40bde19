#pragma once
// Sessions and end users (docs/features.md#sessions-and-end-users), read from the trace
// rollups grouped by their session_id / user_id: never from events. Why no rollup of their
// own: every filter of these lists (app, environment, end user, time window) is a property
// of a trace, so a session rollup could not answer a filtered list without going back to
// the traces anyway, and totals of a session kept apart from its traces could drift from
// them when a trace is rebuilt (channel or app deletion). The grouping walks the
// traces_org_session / traces_org_user indexes (v15) and reads one rollup row per trace.
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"
#include "store/trace_repository.h"

namespace aev::store {

struct SessionRecord {
  std::string sessionId;
  std::int64_t traceCount = 0;
  std::int64_t firstSeen = 0;  // its first trace's start
  std::int64_t lastSeen = 0;   // its last trace's end
  std::int64_t inputTokens = 0;
  std::int64_t outputTokens = 0;
  double costUsd = 0;
  std::int64_t errorCount = 0;
  std::int64_t userCount = 0;
  std::vector<std::string> userIds;  // at most kSessionUserIds, sorted
};

struct EndUserRecord {
  std::string userId;
  std::int64_t traceCount = 0;
  std::int64_t sessionCount = 0;
  std::int64_t inputTokens = 0;
  std::int64_t outputTokens = 0;
  double costUsd = 0;
  std::int64_t errorCount = 0;
  std::int64_t firstSeen = 0;
  std::int64_t lastSeen = 0;
};

inline constexpr std::size_t kSessionUserIds = 10;

// Which traces count (TraceQuery's filters) and the order of the groups.
struct GroupQuery {
  TraceQuery traces;
  enum class Order { Last, First, Traces, Cost, Tokens, Errors };
  Order orderBy = Order::Last;
  bool ascending = false;
  std::optional<std::string> userPrefix;  // end users only: user ids starting with it
};

class SessionRepository {
 public:
  std::vector<SessionRecord> sessions(Connection& c, std::int64_t orgId, const GroupQuery& q, std::int64_t offset,
                                      std::int64_t limit);
  std::int64_t sessionCount(Connection& c, std::int64_t orgId, const GroupQuery& q);
  std::optional<SessionRecord> session(Connection& c, std::int64_t orgId, const std::string& sessionId);
  // The session's traces, oldest first, at most `limit`.
  std::vector<TraceRecord> sessionTraces(Connection& c, std::int64_t orgId, const std::string& sessionId,
                                         std::int64_t limit);
  std::vector<EndUserRecord> endUsers(Connection& c, std::int64_t orgId, const GroupQuery& q, std::int64_t offset,
                                      std::int64_t limit);
  std::int64_t endUserCount(Connection& c, std::int64_t orgId, const GroupQuery& q);
};

}  // namespace aev::store

// Sessions and end users (docs/features.md#sessions-and-end-users): groups of trace rollups.
#include "common/errors.h"
#include "traces/trace_service.h"

namespace aev::traces {

SessionPage TraceService::sessions(std::int64_t orgId, const store::GroupQuery& q, std::int64_t page,
                                   std::int64_t limit) {
  auto c = db_.acquire();
  SessionPage out;
  out.total = sessions_.sessionCount(*c, orgId, q);
  out.data = sessions_.sessions(*c, orgId, q, (page - 1) * limit, limit);
  return out;
}

SessionDetail TraceService::session(std::int64_t orgId, const std::string& sessionId) {
  auto c = db_.acquire();
  auto found = sessions_.session(*c, orgId, sessionId);
  if (!found) throw errors::notFound("Session");
  return {std::move(*found), sessions_.sessionTraces(*c, orgId, sessionId, kSessionTraceLimit)};
}

EndUserPage TraceService::endUsers(std::int64_t orgId, const store::GroupQuery& q, std::int64_t page,
                                   std::int64_t limit) {
  auto c = db_.acquire();
  EndUserPage out;
  out.total = sessions_.endUserCount(*c, orgId, q);
  out.data = sessions_.endUsers(*c, orgId, q, (page - 1) * limit, limit);
  return out;
}

}  // namespace aev::traces

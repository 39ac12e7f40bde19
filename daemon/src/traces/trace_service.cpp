#include "traces/trace_service.h"

#include "common/errors.h"

namespace aev::traces {

TracePage TraceService::list(std::int64_t orgId, const store::TraceQuery& q, std::int64_t page, std::int64_t limit) {
  auto c = db_.acquire();
  TracePage out;
  out.total = repo_.count(*c, orgId, q);
  out.data = repo_.list(*c, orgId, q, (page - 1) * limit, limit);
  return out;
}

store::TraceRecord TraceService::summary(std::int64_t orgId, const std::string& traceId) {
  auto c = db_.acquire();
  auto t = repo_.byId(*c, orgId, traceId);
  if (!t) throw errors::notFound("Trace");
  return *t;
}

std::vector<store::StoredEvent> TraceService::events(std::int64_t orgId, const std::string& traceId) {
  auto c = db_.acquire();
  if (!repo_.byId(*c, orgId, traceId)) throw errors::notFound("Trace");
  return repo_.eventsWithTelemetry(*c, orgId, traceId);
}

}  // namespace aev::traces

// A trace's events with the telemetry extracted and priced at ingest (GET /traces/{id}/events
// shows it; TraceRepository::rebuild folds it): the event columns plus the telemetry
// columns and custom attributes, two indexed queries per trace.
#include <map>

#include "store/event_repository.h"
#include "store/trace_repository.h"

namespace aev::store {

namespace {

std::optional<double> optionalNumber(const Row& r, const char* column) {
  if (r.isNull(column)) return std::nullopt;
  return r.f64(column);
}

}  // namespace

std::vector<StoredEvent> TraceRepository::eventsWithTelemetry(Connection& c, std::int64_t orgId,
                                                              const std::string& traceId) {
  std::vector<StoredEvent> out;
  std::map<std::int64_t, std::size_t> byId;
  for (const auto& r :
       c.query(std::string("SELECT ") + kEventColumns +
                   ", model, provider, status, agent, tool, finish_reason, input_tokens, output_tokens, cost_usd, "
                   "duration_ms FROM events WHERE org_id = ? AND trace_id = ? ORDER BY COALESCE(occurred_at, "
                   "received_at), id",
               {orgId, traceId})) {
    auto e = eventFromRow(r);
    auto& t = e.telemetry;
    t.model = r.optStr("model");
    t.provider = r.optStr("provider");
    t.status = r.optStr("status");
    t.agent = r.optStr("agent");
    t.tool = r.optStr("tool");
    t.finishReason = r.optStr("finish_reason");
    t.inputTokens = r.optI64("input_tokens");
    t.outputTokens = r.optI64("output_tokens");
    t.costUsd = optionalNumber(r, "cost_usd");
    t.durationMs = optionalNumber(r, "duration_ms");
    byId[e.id] = out.size();
    out.push_back(std::move(e));
  }
  if (out.empty()) return out;
  for (const auto& r :
       c.query("SELECT a.event_id, a.key, a.value FROM event_attributes a JOIN events e ON e.id = a.event_id "
               "WHERE e.org_id = ? AND e.trace_id = ? AND a.org_id = ? ORDER BY a.event_id",
               {orgId, traceId, orgId}))
    if (auto it = byId.find(r.i64("event_id")); it != byId.end())
      out[it->second].telemetry.attributes.emplace_back(r.str("key"), r.str("value"));
  return out;
}

}  // namespace aev::store

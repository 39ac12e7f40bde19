// v13: tokens and cost on the trace rollup, so the traces list shows and sorts by them
// without reading events. Existing rollups are filled from their events' telemetry
// columns (one probe of events_org_trace_time per trace); the writer keeps them up to date
// from then on (TraceRepository::apply). Events stored before v4 have no telemetry and
// count 0, as they do in analytics.
#include "store/schema_parts.h"

namespace aev::store {

Migration traceUsageMigration(Dialect) {
  Migration m{13, "trace_usage", {}};
  for (const char* column : {"input_tokens BIGINT NOT NULL DEFAULT 0", "output_tokens BIGINT NOT NULL DEFAULT 0",
                             "cost_usd DOUBLE PRECISION NOT NULL DEFAULT 0"})
    m.statements.push_back(std::string("ALTER TABLE traces ADD COLUMN ") + column);
  m.statements.push_back(
      "UPDATE traces SET "
      "input_tokens = COALESCE((SELECT SUM(e.input_tokens) FROM events e WHERE e.org_id = traces.org_id AND "
      "e.trace_id = traces.trace_id), 0), "
      "output_tokens = COALESCE((SELECT SUM(e.output_tokens) FROM events e WHERE e.org_id = traces.org_id AND "
      "e.trace_id = traces.trace_id), 0), "
      "cost_usd = COALESCE((SELECT SUM(e.cost_usd) FROM events e WHERE e.org_id = traces.org_id AND "
      "e.trace_id = traces.trace_id), 0)");
  return m;
}

}  // namespace aev::store

// v19: what a trace was asked and answered, and its tags, on its rollup (issue 27), so the
// traces list and the sessions read previews without reading events: the input text of
// its earliest LLM call and the output text of its latest, each with the event time that
// chose it (a later batch with an earlier call replaces the input); the tags object. And
// a trace's end becomes the last end of its events (timestamp + duration, docs/api.md#traces):
// existing rollups are widened from their events' duration_ms (one probe of
// events_org_trace_time per trace). Texts of traces stored before stay NULL until their next event.
#include "store/schema_parts.h"

namespace aev::store {

Migration traceTextsMigration(Dialect d) {
  Migration m{19, "trace_texts", {}};
  for (const char* column : {"input_text TEXT", "input_at BIGINT", "output_text TEXT", "output_at BIGINT",
                             "tags TEXT NOT NULL DEFAULT '{}'"})
    m.statements.push_back(std::string("ALTER TABLE traces ADD COLUMN ") + column);
  const char* greatest = d == Dialect::SQLite ? "max" : "GREATEST";
  m.statements.push_back(std::string("UPDATE traces SET end_time = ") + greatest +
                         "(end_time, COALESCE((SELECT MAX(COALESCE(e.occurred_at, e.received_at) + CAST(e.duration_ms "
                         "* 1000 AS BIGINT)) FROM events e WHERE e.org_id = traces.org_id AND e.trace_id = "
                         "traces.trace_id AND e.duration_ms IS NOT NULL), end_time))");
  return m;
}

}  // namespace aev::store

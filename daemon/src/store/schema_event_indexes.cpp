// v12: events_org_trace (org_id, trace_id) is a prefix of events_org_trace_time (v3),
// so every lookup it served is served as well by the longer index; keeping both made
// each stored event update one B-tree more (CPU, and pages written per commit, which is
// what the durable publish waits for).
#include "store/schema_parts.h"

namespace aev::store {

Migration eventIndexesMigration(Dialect) { return {12, "event_indexes", {"DROP INDEX IF EXISTS events_org_trace"}}; }

}  // namespace aev::store

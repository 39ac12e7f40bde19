#pragma once
// JSON of sessions, end users, a session's traces and a trace's events with their
// telemetry (docs/api.md#sessions, #end-users, #traces).
#include <string>
#include <vector>

#include "http/render.h"
#include "store/session_repository.h"

namespace aev::http {

// GET /traces/{id}/events: each event as events::toJson plus `telemetry`, the fields
// extracted and priced at ingest (null where unknown).
std::string traceEventsJson(const std::vector<store::StoredEvent>& list);
// That `telemetry` object of one event.
JsonObject eventTelemetryJson(const store::TelemetryFields& t);
JsonObject sessionJson(const store::SessionRecord& s);
// A session's trace: the trace item plus its `input` and `output` texts (not folded).
JsonObject sessionTraceJson(const store::TraceRecord& t);
JsonObject endUserJson(const store::EndUserRecord& u);

}  // namespace aev::http

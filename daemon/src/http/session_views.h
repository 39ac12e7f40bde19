#pragma once
// JSON of sessions, end users, a session's traces and a trace's events with their
// telemetry (docs/api.md#sessions, #end-users, #traces).
#include <string>
#include <vector>

#include "http/render.h"
#include "store/session_repository.h"
#include "traces/tool_call_links.h"

namespace aev::http {

// GET /traces/{id}/events: each event as events::toJson plus `telemetry`, the fields
// extracted and priced at ingest (null where unknown), with the tool-call links of the trace.
std::string traceEventsJson(const std::vector<store::StoredEvent>& list);
// That `telemetry` object of one event.
JsonObject eventTelemetryJson(const store::TelemetryFields& t);
// The trace's tool-call links of list[i] (traces/tool_call_links.h) into its `telemetry`:
//   toolCallId   a tool run's call id (metadata.tool_call_id), else null
//   requestedBy  a tool run or hand-off: the LLM call that asked for it, else null:
//                {eventId, spanId, toolCallId, tool, matchedBy: "id" | "name"}
//   toolCalls    an LLM call: the tool calls its output asked for, else null:
//                [{toolCallId, name, answeredBy: the eventId of the run, or null}]
void setToolCallLinks(JsonObject& telemetry, const traces::ToolCallLinks& links,
                      const std::vector<store::StoredEvent>& list, std::size_t i);
JsonObject sessionJson(const store::SessionRecord& s);
// A session's trace: the trace item plus its `input` and `output` texts (not folded).
JsonObject sessionTraceJson(const store::TraceRecord& t);
JsonObject endUserJson(const store::EndUserRecord& u);

}  // namespace aev::http

#pragma once
// Which tool call the model asked for each tool run of a trace answered
// (docs/features.md#traces, GET /traces/{id}/events): an LLM call's requested tool calls are
// its normalised output messages' toolCalls (payload.messages.output[].toolCalls[]: id and
// name, from any convention); a run is a tool event (semantic kind tool, agent.tool_call.start
// or .end) or a hand-off (semantic kind handoff, agent.handoff), with its call id in
// metadata.tool_call_id (OTLP spans: gen_ai.tool.call.id, tool.id, ai.toolCall.id by the
// convention table).
//
// Matching, on the trace's events oldest first:
//   1. by call id: the latest earlier request with the run's id (one naming the run's tool
//      preferred), else the first later one. Several runs may answer one request (the start
//      and end events of one tool call).
//   2. a run without a call id (OpenInference's Agents bridge sends none) by name and order:
//      an agent.tool_call.end with an open agent.tool_call.start of its tool shares that
//      start's request; any other run takes the earliest earlier request of its tool (a
//      hand-off to X: of transfer_to_X, as the Agents SDK names it) that nothing answered.
// Computed when a trace is read, so a request and its run may arrive in any order and in
// different exports.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "store/event_records.h"

namespace aev::traces {

struct RequestedToolCall {
  std::optional<std::string> id;  // the call id the model gave, when sent
  std::string name;
  std::optional<std::size_t> answeredBy;  // the first event of the run (index into the events)
};

struct ToolCallLink {
  std::size_t requester = 0;  // the LLM call's event (index)
  std::size_t call = 0;       // index into requested[requester]
  bool byId = false;          // matched by call id, else by name and order
};

struct ToolCallLinks {
  // Per event, by index: a run's own call id; the request it answered; an LLM call's requests.
  std::vector<std::optional<std::string>> callId;
  std::vector<std::optional<ToolCallLink>> requestedBy;
  std::vector<std::vector<RequestedToolCall>> requested;
};

// `events` oldest first (TraceService::events).
ToolCallLinks linkToolCalls(const std::vector<store::StoredEvent>& events);

}  // namespace aev::traces

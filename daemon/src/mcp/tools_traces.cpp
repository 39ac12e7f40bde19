// list_traces, get_trace_summary, get_trace_events (a skeleton unless payloads are asked for).
#include <algorithm>
#include <map>

#include "common/clock.h"
#include "http/context.h"
#include "http/resource_views.h"
#include "http/session_views.h"
#include "identity/environment_service.h"
#include "mcp/event_view.h"
#include "mcp/listing.h"
#include "mcp/registry.h"
#include "traces/tool_call_links.h"
#include "traces/trace_service.h"

namespace aev::mcp {

namespace {

const std::map<std::string, store::TraceQuery::Order>& traceOrders() {
  static const std::map<std::string, store::TraceQuery::Order> orders = {
      {"start", store::TraceQuery::Order::Start},   {"duration", store::TraceQuery::Order::Duration},
      {"events", store::TraceQuery::Order::Events}, {"errors", store::TraceQuery::Order::Errors},
      {"tokens", store::TraceQuery::Order::Tokens}, {"cost", store::TraceQuery::Order::Cost}};
  return orders;
}

ToolOutput listTraces(const ToolContext& ctx, const Arguments& args) {
  const auto cursor = cursorOf(ctx, args);
  const auto start = pageStart(args, cursor);
  const auto window = resolveWindow(ctx, args, clock::kDay, cursor);
  store::TraceQuery q;
  q.appId = args.id("appId");
  q.channelId = args.id("channelId");
  q.agent = args.text("agentId");
  q.model = args.text("model");
  q.environmentValues = ctx.app.environments->eventValues(ctx.orgId, args.text("environment"));
  q.tag = tagFilterOf(args);
  q.userId = args.text("userId");
  q.sessionId = args.text("sessionId");
  if (auto status = args.text("status")) q.withErrors = *status == "error";
  if (auto sort = args.text("sort")) q.orderBy = traceOrders().at(*sort);
  q.ascending = args.text("order") == std::optional<std::string>("asc");
  q.since = window.since;
  q.until = window.until;
  const auto page = start.offset / start.limit + 1;
  const auto skip = start.offset % start.limit;
  auto result = ctx.app.traces->list(ctx.orgId, q, page, start.limit);
  std::vector<JsonObject> rows;
  for (std::size_t i = static_cast<std::size_t>(skip); i < result.data.size(); ++i)
    rows.push_back(http::traceItem(result.data[i]));
  const bool more = result.total > start.offset + static_cast<std::int64_t>(rows.size());
  JsonObject out = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  out->set("total", result.total);
  return finishListing(ctx, args, out, "traces", std::move(rows), start, more, window);
}

ToolOutput traceSummary(const ToolContext& ctx, const Arguments& args) {
  auto summary = http::traceSummaryJson(ctx.app.traces->summary(ctx.orgId, *args.text("traceId")));
  summary->set("next", "get_trace_events for its steps; search_events with traceId for payloads");
  return finishObject(summary, std::nullopt);
}

ToolOutput traceEvents(const ToolContext& ctx, const Arguments& args) {
  const auto cursor = cursorOf(ctx, args);
  const auto start = pageStart(args, cursor);
  const auto types = args.strings("eventTypes");
  const auto mode = args.flag("includePayloads") ? PayloadMode::Bounded : PayloadMode::Omit;
  const auto maxPayload = static_cast<std::size_t>(args.integer("maxPayloadChars"));
  const auto events = ctx.app.traces->events(ctx.orgId, *args.text("traceId"));
  const auto totalEvents = events.size();
  // Linked on the whole trace (as GET /traces/{id}/events), then filtered.
  const auto links = traces::linkToolCalls(events);
  std::vector<std::size_t> matching;
  for (std::size_t i = 0; i < events.size(); ++i)
    if (types.empty() || std::find(types.begin(), types.end(), events[i].eventType.value_or("")) != types.end())
      matching.push_back(i);
  const auto size = static_cast<std::int64_t>(matching.size());
  const auto end = std::min(size, start.offset + start.limit);
  std::vector<JsonObject> rows;
  for (auto i = start.offset; i < end; ++i) {
    const auto& e = events[matching[static_cast<std::size_t>(i)]];
    rows.push_back(eventView(e, mode, maxPayload));
    auto telemetry = http::eventTelemetryJson(e.telemetry);
    http::setToolCallLinks(telemetry, links, events, matching[static_cast<std::size_t>(i)]);
    rows.back()->set("telemetry", telemetry);
  }
  JsonObject out = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  out->set("totalEvents", static_cast<Poco::UInt64>(totalEvents));
  out->set("matchingEvents", size);
  return finishListing(ctx, args, out, "events", std::move(rows), start, end < size, std::nullopt);
}

}  // namespace

void addTraceTools(ToolRegistry& r) {
  auto listParams = windowListParams(
      {Param::text("agentId", "only traces this agent took part in"), Param::text("appId", "only this app's traces"),
       Param::text("channelId", "only this channel's traces"),
       Param::text("environment", "only traces with an event in this environment (id or slug)"),
       Param::oneOf("status", "error: only traces with errors; ok: only traces without", {"error", "ok"}),
       Param::text("model", "only traces with an LLM call of this model"),
       Param::text("userId", "only this end user's traces (a trace's userId)"),
       Param::text("sessionId", "only this session's traces (list_sessions)")},
      "traces with an event", {"start", "duration", "events", "errors", "tokens", "cost"});
  r.add({"list_traces", "Traces",
         "Traces that started in the window, newest first (or by sort): id, name, start, end, duration, event and "
         "error counts, agents, tokens, cost, session, end user, input and output previews.",
         std::move(listParams), outputSchema({{"traces", "array"}, {"total", "integer"}}, true, true), listTraces});
  r.add({"get_trace_summary",
         "Trace summary",
         "One trace's summary: event, error, tool-call and handoff counts, agents, event types, duration in ms.",
         {Param::text("traceId", "the traceId (list_traces)", true)},
         outputSchema({{"traceId", "string"}, {"eventCount", "integer"}, {"errorCount", "integer"}}, false, false),
         traceSummary});
  r.add({"get_trace_events",
         "Trace steps",
         "A trace's events in order as a skeleton (no payloads: payloadChars tells their size); includePayloads "
         "adds them cut to maxPayloadChars. Filter by eventTypes.",
         {Param::text("traceId", "the traceId (list_traces)", true),
          Param::strings("eventTypes", "only these event types (e.g. agent.error, agent.tool_call.start)"),
          Param::flag("includePayloads", "include payloads (default false)"),
          Param::integer("maxPayloadChars", "payload characters per event when included", 0, 4000, 500),
          limitParam(50, 200), cursorParam()},
         outputSchema({{"events", "array"}, {"totalEvents", "integer"}, {"matchingEvents", "integer"}}, true, false),
         traceEvents});
}

}  // namespace aev::mcp

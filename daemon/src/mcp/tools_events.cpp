// search_events (a channel's or a trace's events, payloads cut short) and get_event.
#include "events/event_service.h"
#include "http/context.h"
#include "http/session_views.h"
#include "mcp/event_view.h"
#include "mcp/listing.h"
#include "mcp/registry.h"
#include "traces/tool_call_links.h"
#include "traces/trace_service.h"

namespace aev::mcp {

namespace {

ToolOutput searchEvents(const ToolContext& ctx, const Arguments& args) {
  const auto channelId = args.id("channelId");
  const auto traceId = args.text("traceId");
  if (channelId.has_value() == traceId.has_value())
    throw ToolError(
        "Send exactly one of 'channelId' (a channel's events, newest first; list_channels shows the ids) "
        "or 'traceId' (a trace's events, oldest first; list_traces shows the ids).");
  const auto cursor = cursorOf(ctx, args);
  const auto start = pageStart(args, cursor);
  const auto maxPayload = static_cast<std::size_t>(args.integer("maxPayloadChars"));
  std::vector<JsonObject> rows;
  bool more = false;
  JsonObject out = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  if (channelId) {
    // The REST pages (page, limit); a cursor left mid-page starts inside its page.
    const auto page = start.offset / start.limit + 1;
    const auto skip = start.offset % start.limit;
    auto result = ctx.app.events->list(ctx.orgId, *channelId, page, start.limit);
    for (std::size_t i = static_cast<std::size_t>(skip); i < result.data.size(); ++i)
      rows.push_back(eventView(result.data[i], PayloadMode::Bounded, maxPayload));
    more = result.total > start.offset + static_cast<std::int64_t>(rows.size());
    out->set("order", "newest first");
    out->set("total", result.total);
  } else {
    auto events = ctx.app.traces->events(ctx.orgId, *traceId);
    const auto links = traces::linkToolCalls(events);
    const auto end = std::min<std::int64_t>(static_cast<std::int64_t>(events.size()), start.offset + start.limit);
    for (auto i = start.offset; i < end; ++i) {
      rows.push_back(eventView(events[i], PayloadMode::Bounded, maxPayload));
      auto telemetry = http::eventTelemetryJson(events[i].telemetry);  // as GET /traces/{id}/events
      http::setToolCallLinks(telemetry, links, events, static_cast<std::size_t>(i));
      rows.back()->set("telemetry", telemetry);
    }
    more = end < static_cast<std::int64_t>(events.size());
    out->set("order", "oldest first");
    out->set("total", static_cast<Poco::Int64>(events.size()));
  }
  return finishListing(ctx, args, out, "events", std::move(rows), start, more, std::nullopt);
}

ToolOutput getEvent(const ToolContext& ctx, const Arguments& args) {
  const auto id = *args.id("eventId");
  auto e = ctx.app.events->find(ctx.orgId, id);
  if (!e)
    throw ToolError("No event " + std::to_string(id) +
                    " in this organization. Take event ids from search_events or get_trace_events.");
  JsonObject out = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  out->set("event", eventView(*e, PayloadMode::Bounded, static_cast<std::size_t>(args.integer("maxPayloadChars"))));
  return finishObject(out, std::nullopt);
}

}  // namespace

void addEventTools(ToolRegistry& r) {
  r.add({"search_events",
         "Search events",
         "Events of one channel (newest first) or of one trace (oldest first), with payloads cut to maxPayloadChars "
         "(payloadPreview ends with …[+N chars] when cut; get_event shows more).",
         {Param::text("channelId", "a channelId (get_context, list_channels); or send traceId"),
          Param::text("traceId", "a traceId (list_traces); or send channelId"),
          Param::integer("maxPayloadChars", "payload characters shown per event", 0, 4000, 500), limitParam(20, 100),
          cursorParam()},
         outputSchema({{"events", "array"}, {"total", "integer"}, {"order", "string"}}, true, false),
         searchEvents});
  r.add({"get_event",
         "Event",
         "One event by id with its payload (cut to maxPayloadChars, default 4000) and metadata.",
         {Param::text("eventId", "the event id (search_events, get_trace_events)", true),
          Param::integer("maxPayloadChars", "payload characters shown", 0, 20000, 4000)},
         outputSchema({{"event", "object"}}, false, false),
         getEvent});
}

}  // namespace aev::mcp

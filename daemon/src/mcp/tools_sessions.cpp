// list_sessions, get_session (docs/features.md#sessions-and-end-users).
#include <map>

#include "common/clock.h"
#include "http/context.h"
#include "http/resource_views.h"
#include "http/session_views.h"
#include "identity/environment_service.h"
#include "mcp/listing.h"
#include "mcp/registry.h"
#include "traces/trace_service.h"

namespace aev::mcp {

namespace {

using Order = store::GroupQuery::Order;

ToolOutput listSessions(const ToolContext& ctx, const Arguments& args) {
  const auto cursor = cursorOf(ctx, args);
  const auto start = pageStart(args, cursor);
  const auto window = resolveWindow(ctx, args, clock::kDay, cursor);
  static const std::map<std::string, Order> kOrders = {{"last", Order::Last},     {"first", Order::First},
                                                       {"traces", Order::Traces}, {"cost", Order::Cost},
                                                       {"tokens", Order::Tokens}, {"errors", Order::Errors}};
  store::GroupQuery q;
  q.traces.appId = args.id("appId");
  q.traces.userId = args.text("userId");
  q.traces.environmentValues = ctx.app.environments->eventValues(ctx.orgId, args.text("environment"));
  q.traces.model = args.text("model");
  q.traces.tag = tagFilterOf(args);
  q.traces.since = window.since;
  q.traces.until = window.until;
  if (auto sort = args.text("sort")) q.orderBy = kOrders.at(*sort);
  q.ascending = args.text("order") == std::optional<std::string>("asc");
  const auto page = start.offset / start.limit + 1;
  const auto skip = start.offset % start.limit;
  auto result = ctx.app.traces->sessions(ctx.orgId, q, page, start.limit);
  std::vector<JsonObject> rows;
  for (std::size_t i = static_cast<std::size_t>(skip); i < result.data.size(); ++i)
    rows.push_back(http::sessionJson(result.data[i]));
  const bool more = result.total > start.offset + static_cast<std::int64_t>(rows.size());
  JsonObject out = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  out->set("total", result.total);
  return finishListing(ctx, args, out, "sessions", std::move(rows), start, more, window);
}

ToolOutput getSession(const ToolContext& ctx, const Arguments& args) {
  const auto cursor = cursorOf(ctx, args);
  const auto start = pageStart(args, cursor);
  auto detail = ctx.app.traces->session(ctx.orgId, *args.text("sessionId"));
  const auto maxChars = static_cast<std::size_t>(args.integer("maxTextChars"));
  JsonObject out = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  const auto session = http::sessionJson(detail.session);  // held: the loop must not outlive it
  for (const auto& [key, value] : *session) out->set(key, value);
  // The conversation in order: each trace's input and output, cut to maxTextChars.
  const auto size = static_cast<std::int64_t>(detail.traces.size());
  const auto end = std::min(size, start.offset + start.limit);
  std::vector<JsonObject> rows;
  for (auto i = start.offset; i < end; ++i) {
    auto row = http::traceItem(detail.traces[i]);
    const auto& t = detail.traces[i];
    row->set("input", t.inputText ? Poco::Dynamic::Var(cutText(*t.inputText, maxChars)) : Poco::Dynamic::Var());
    row->set("output", t.outputText ? Poco::Dynamic::Var(cutText(*t.outputText, maxChars)) : Poco::Dynamic::Var());
    rows.push_back(row);
  }
  out->set("next", "list_traces with sessionId, get_trace_events for a trace's steps");
  return finishListing(ctx, args, out, "traces", std::move(rows), start, end < size, std::nullopt);
}

}  // namespace

void addSessionTools(ToolRegistry& r) {
  auto listParams = windowListParams(
      {Param::text("appId", "only sessions with a trace of this app"),
       Param::text("environment", "only sessions with a trace in this environment (id or slug)"),
       Param::text("model", "only sessions with a trace that called this model"),
       Param::text("userId", "only sessions with a trace of this end user")},
      "sessions with a trace that has an event", {"last", "first", "traces", "cost", "tokens", "errors"});
  r.add({"list_sessions", "Sessions",
         "Sessions (traces sharing a session id) with a trace that started in the window, most recently active "
         "first (or by sort): trace count, first and last time, duration, tokens, cost, errors, end users.",
         std::move(listParams), outputSchema({{"sessions", "array"}, {"total", "integer"}}, true, true), listSessions});
  r.add({"get_session",
         "Session",
         "One session's totals and its traces oldest first, each with the input it was asked and the output it "
         "gave (cut to maxTextChars): the conversation across traces.",
         {Param::text("sessionId", "the sessionId (list_sessions, or a trace's sessionId)", true),
          Param::integer("maxTextChars", "characters of each input and output", 0, 4000, 1000), limitParam(20, 100),
          cursorParam()},
         outputSchema({{"sessionId", "string"}, {"traceCount", "integer"}, {"traces", "array"}}, true, false),
         getSession});
}

}  // namespace aev::mcp

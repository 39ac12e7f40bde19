// analytics_breakdown, analytics_dimensions, analytics_timeseries, analytics_latency:
// the /analytics/* answers over an explicit window.
#include "analytics/analytics_service.h"
#include "common/clock.h"
#include "http/context.h"
#include "http/resource_views.h"
#include "identity/environment_service.h"
#include "mcp/listing.h"
#include "mcp/registry.h"

namespace aev::mcp {

namespace {

std::vector<Param> filterParams() {
  std::vector<Param> params = {sinceParam(), untilParam(),
                               Param::text("environment", "environment id or slug (get_context)")};
  for (auto& p : tagFilterParams("events")) params.push_back(std::move(p));
  for (const auto& name : analytics::AnalyticsService::filterNames())
    params.push_back(Param::text(name, "only events whose " + name + " equals this"));
  return params;
}

analytics::Query toolQueryOf(const ToolContext& ctx, const Arguments& args, const Window& w) {
  analytics::Query q;
  q.orgId = ctx.orgId;
  q.since = w.since;
  q.until = w.until;
  for (const auto& name : analytics::AnalyticsService::filterNames())
    if (auto v = args.text(name)) q.filters[name] = *v;
  q.environmentValues = ctx.app.environments->eventValues(ctx.orgId, args.text("environment"));
  q.filterTagKey = args.text("filterTagKey");
  q.filterTagValue = args.text("filterTagValue");
  return q;
}

Window toolWindowOf(const ToolContext& ctx, const Arguments& args) {
  return resolveWindow(ctx, args, clock::kDay, std::nullopt);
}

ToolOutput breakdown(const ToolContext& ctx, const Arguments& args) {
  const auto w = toolWindowOf(ctx, args);
  auto result = ctx.app.analytics->breakdown(toolQueryOf(ctx, args, w), args.text("dimension").value_or("model"),
                                             args.text("tagKey"), args.integer("limit"));
  auto out = http::breakdownJson(result);
  return {finishObject(out, w).structured, result.rows.size(), false};
}

ToolOutput dimensions(const ToolContext& ctx, const Arguments& args) {
  auto keys = ctx.app.analytics->dimensions(
      ctx.orgId, ctx.app.environments->eventValues(ctx.orgId, args.text("environment")), args.integer("limit"));
  return {finishObject(http::dimensionsJson(keys), std::nullopt).structured, keys.size(), false};
}

ToolOutput timeseries(const ToolContext& ctx, const Arguments& args) {
  const auto w = toolWindowOf(ctx, args);
  auto series = ctx.app.analytics->timeseries(toolQueryOf(ctx, args, w), args.text("metric").value_or("event_count"),
                                              args.text("interval").value_or("hour"));
  return {finishObject(http::timeseriesJson(series), w).structured, series.points.size(), false};
}

ToolOutput latency(const ToolContext& ctx, const Arguments& args) {
  const auto w = toolWindowOf(ctx, args);
  return finishObject(http::latencyJson(ctx.app.analytics->latency(toolQueryOf(ctx, args, w))), w);
}

}  // namespace

void addAnalyticsTools(ToolRegistry& r) {
  auto breakdownParams = filterParams();
  breakdownParams.push_back(
      Param::text("dimension", "what to group by: one of get_context's dimensions (default model; tag needs tagKey)"));
  breakdownParams.push_back(Param::text("tagKey", "the attribute key when dimension is tag"));
  breakdownParams.push_back(limitParam(20, 100));
  r.add({"analytics_breakdown", "Breakdown",
         "Totals per key of one dimension (model, agent, ...) over the window, by event count: events, errors, "
         "tokens, cost in USD, average duration.",
         breakdownParams, outputSchema({{"dimension", "string"}, {"rows", "array"}}, false, true), breakdown});
  r.add({"analytics_dimensions",
         "Custom dimensions",
         "Custom attribute keys (metadata.tags) seen on telemetry, most recent first: usable as filterTagKey and as "
         "tagKey of analytics_breakdown.",
         {Param::text("environment", "environment id or slug (get_context)"), limitParam(50, 500)},
         outputSchema({{"dimensions", "array"}}, false, false),
         dimensions});
  auto seriesParams = filterParams();
  seriesParams.push_back(
      Param::oneOf("metric", "what to plot (default event_count)", analytics::AnalyticsService::metrics()));
  seriesParams.push_back(Param::oneOf("interval", "bucket size (default hour)", {"minute", "hour", "day"}));
  r.add({"analytics_timeseries", "Time series",
         "One metric per minute, hour or day over the window (counts and sums zero-filled).", seriesParams,
         outputSchema({{"metric", "string"}, {"interval", "string"}, {"points", "array"}}, false, true), timeseries});
  r.add({"analytics_latency", "Latency",
         "Percentiles (p50, p90, p95, p99, max) of duration_ms over the window; null when no event has one.",
         filterParams(), outputSchema({{"count", "integer"}}, false, true), latency});
}

}  // namespace aev::mcp

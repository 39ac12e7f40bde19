// Analytics (docs/features.md#telemetry-fields): Bearer or an API key with `read`.
#include <Poco/JSON/Array.h>

#include "analytics/analytics_service.h"
#include "auth/authenticator.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/resource_views.h"
#include "http/router.h"
#include "identity/environment_service.h"

namespace aev::http {

namespace {

constexpr std::int64_t kDefaultLimit = 50;
constexpr std::int64_t kMaxLimit = 500;

analytics::Query routeQueryOf(AppContext& ctx, const Request& req, std::int64_t orgId) {
  analytics::Query q;
  q.orgId = orgId;
  q.since = queryTime(req.queryParam("since"), "since");
  q.until = queryTime(req.queryParam("until"), "until");
  for (const auto& name : analytics::AnalyticsService::filterNames())
    if (auto v = req.queryFilter(name)) q.filters[name] = *v;
  q.environmentValues = ctx.environments->eventValues(orgId, req.queryFilter("environment"));
  q.filterTagKey = req.queryFilter("filterTagKey");
  q.filterTagValue = req.queryFilter("filterTagValue");
  return q;
}

std::int64_t readerOrg(AppContext& ctx, const Request& req) {
  return ctx.authenticator->userOrApiKey(credentialsOf(req), "read").requireOrg();
}

std::vector<ops::QueryParamDoc> filterDocs() {
  std::vector<ops::QueryParamDoc> docs = {
      {"since", "string", "window start, RFC 3339 (default: 24 hours before until)", {}, false},
      {"until", "string", "window end, RFC 3339 (default: now)", {}, false},
      {"environment", "string", "environment id or slug", {}, false},
      {"filterTagKey", "string", "custom attribute key; with filterTagValue", {}, false},
      {"filterTagValue", "string", "custom attribute value; with filterTagKey", {}, false}};
  for (const auto& name : analytics::AnalyticsService::filterNames())
    docs.push_back({name, "string", "equality filter", {}, false});
  return docs;
}

}  // namespace

void registerAnalyticsRoutes(Router& router, AppContext& ctx) {
  router.add(
      "GET", "/analytics/breakdown",
      [&ctx](Request& req) {
        const auto orgId = readerOrg(ctx, req);
        const auto limit = queryInt(req.queryParam("limit"), "limit", kDefaultLimit, 1, kMaxLimit);
        auto result =
            ctx.analytics->breakdown(routeQueryOf(ctx, req, orgId), req.queryFilter("dimension").value_or("model"),
                                     req.queryFilter("tagKey"), limit);
        return Response::json(200, breakdownJson(result));
      },
      "Totals per key of one dimension over a window, by eventCount descending.", "analytics");
  auto breakdownDocs = filterDocs();
  breakdownDocs.push_back({"dimension", "string", "what to group by (default model)",
                           ctx.analytics->dimensionNames(), false});
  breakdownDocs.push_back({"tagKey", "string", "the attribute key when dimension=tag", {}, false});
  breakdownDocs.push_back({"limit", "integer", "top-N rows (default 50, max 500)", {}, false});
  router.document("GET", "/analytics/breakdown", breakdownDocs, "AnalyticsBreakdown");

  router.add(
      "GET", "/analytics/dimensions",
      [&ctx](Request& req) {
        const auto orgId = readerOrg(ctx, req);
        const auto limit = queryInt(req.queryParam("limit"), "limit", kDefaultLimit, 1, kMaxLimit);
        auto keys = ctx.analytics->dimensions(
            orgId, ctx.environments->eventValues(orgId, req.queryFilter("environment")), limit);
        return Response::json(200, dimensionsJson(keys));
      },
      "Custom attribute keys (metadata.tags) seen on telemetry, most recent first.", "analytics");
  router.document("GET", "/analytics/dimensions",
                  {{"environment", "string", "environment id or slug (empty: all)", {}, false},
                   {"limit", "integer", "default 50, max 500", {}, false}},
                  "AnalyticsDimensions");

  router.add(
      "GET", "/analytics/timeseries",
      [&ctx](Request& req) {
        const auto orgId = readerOrg(ctx, req);
        auto series =
            ctx.analytics->timeseries(routeQueryOf(ctx, req, orgId), req.queryFilter("metric").value_or("event_count"),
                                      req.queryFilter("interval").value_or("hour"));
        return Response::json(200, timeseriesJson(series));
      },
      "One metric per minute, hour or day over a window (counts and sums zero-filled).", "analytics");
  auto seriesDocs = filterDocs();
  seriesDocs.push_back({"metric", "string", "default event_count", analytics::AnalyticsService::metrics(), false});
  seriesDocs.push_back({"interval", "string", "bucket size (default hour)", {"minute", "hour", "day"}, false});
  router.document("GET", "/analytics/timeseries", seriesDocs, "AnalyticsTimeseries");

  router.add(
      "GET", "/analytics/latency",
      [&ctx](Request& req) {
        const auto orgId = readerOrg(ctx, req);
        return Response::json(200, latencyJson(ctx.analytics->latency(routeQueryOf(ctx, req, orgId))));
      },
      "Percentiles of duration_ms over a window (nearest rank; null when no event has one).", "analytics");
  router.document("GET", "/analytics/latency", filterDocs(), "AnalyticsLatency");

  router.add(
      "GET", "/analytics/overview",
      [&ctx](Request& req) {
        const auto orgId = readerOrg(ctx, req);
        auto overview =
            ctx.analytics->overview(routeQueryOf(ctx, req, orgId), req.queryFilter("interval").value_or("hour"));
        auto obj = newObject();
        auto series = newObject();
        for (const auto& s : overview.series) series->set(s.metric, timeseriesJson(s));
        obj->set("series", series);
        obj->set("latency", latencyJson(overview.latency));
        auto byKind = newObject();
        for (const auto& [kind, l] : overview.latencyByKind) {
          if (l.count == 0) {
            byKind->set(kind, Poco::Dynamic::Var());
            continue;
          }
          auto k = newObject();
          k->set("count", l.count);
          k->set("p50", l.p50);
          k->set("p95", l.p95);
          k->set("p99", l.p99);
          byKind->set(kind, k);
        }
        obj->set("latencyByKind", byKind);
        return Response::json(200, obj);
      },
      "Every time series and the latency percentiles of a window in one answer (what /analytics/timeseries "
      "gives per metric and /analytics/latency), from two reads of the events instead of seven; latencyByKind: "
      "p50/p95/p99 of LLM calls and of tool calls apart (null when the window has none).",
      "analytics");
  auto overviewDocs = filterDocs();
  overviewDocs.push_back({"interval", "string", "bucket size (default hour)", {"minute", "hour", "day"}, false});
  router.document("GET", "/analytics/overview", overviewDocs, "AnalyticsOverview");
}

}  // namespace aev::http

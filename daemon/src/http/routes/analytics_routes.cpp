// Analytics (docs/features.md#telemetry-fields): Bearer or an API key with `read`.
#include <Poco/JSON/Array.h>

#include "analytics/analytics_service.h"
#include "auth/authenticator.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/router.h"
#include "identity/environment_service.h"

namespace aev::http {

namespace {

constexpr std::int64_t kDefaultLimit = 50;
constexpr std::int64_t kMaxLimit = 500;

// The values events may carry for an environment named by id or slug: its slug, name
// and id when it is registered; else the text itself (events may name environments
// nobody registered).
std::optional<std::vector<std::string>> environmentValues(AppContext& ctx, std::int64_t orgId,
                                                          const std::optional<std::string>& idOrSlug) {
  if (!idOrSlug) return std::nullopt;
  if (auto env = ctx.environments->resolve(orgId, *idOrSlug))
    return std::vector<std::string>{env->slug, env->name, std::to_string(env->id)};
  return std::vector<std::string>{*idOrSlug};
}

analytics::Query queryOf(AppContext& ctx, const Request& req, std::int64_t orgId) {
  analytics::Query q;
  q.orgId = orgId;
  q.since = queryTime(req.queryParam("since"), "since");
  q.until = queryTime(req.queryParam("until"), "until");
  for (const auto& name : analytics::AnalyticsService::filterNames())
    if (auto v = req.queryFilter(name)) q.filters[name] = *v;
  q.environmentValues = environmentValues(ctx, orgId, req.queryFilter("environment"));
  q.filterTagKey = req.queryFilter("filterTagKey");
  q.filterTagValue = req.queryFilter("filterTagValue");
  return q;
}

std::int64_t readerOrg(AppContext& ctx, const Request& req) {
  return ctx.authenticator->userOrApiKey(credentialsOf(req), "read").requireOrg();
}

JsonObject breakdownRow(const store::BreakdownRow& r) {
  auto obj = newObject();
  obj->set("key", r.key);
  obj->set("eventCount", r.eventCount);
  obj->set("errorCount", r.errorCount);
  obj->set("inputTokens", r.inputTokens);
  obj->set("outputTokens", r.outputTokens);
  obj->set("totalTokens", r.inputTokens + r.outputTokens);
  obj->set("costUsd", r.costUsd);
  obj->set("avgDurationMs", r.avgDurationMs.value_or(0.0));
  return obj;
}

Poco::Dynamic::Var numberOrNull(std::int64_t count, double value) {
  return count ? Poco::Dynamic::Var(value) : Poco::Dynamic::Var();
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
        auto result = ctx.analytics->breakdown(queryOf(ctx, req, orgId), req.queryFilter("dimension").value_or("model"),
                                               req.queryFilter("tagKey"), limit);
        auto obj = newObject();
        obj->set("dimension", result.dimension);
        Poco::JSON::Array::Ptr rows = new Poco::JSON::Array;
        for (const auto& r : result.rows) rows->add(breakdownRow(r));
        obj->set("rows", rows);
        return Response::json(200, obj);
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
        auto keys = ctx.analytics->dimensions(orgId, environmentValues(ctx, orgId, req.queryFilter("environment")), limit);
        auto obj = newObject();
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        for (const auto& k : keys) {
          auto item = newObject();
          item->set("key", k.key);
          setTimestamp(item, "lastSeen", k.lastSeen);
          item->set("source", k.source);
          list->add(item);
        }
        obj->set("dimensions", list);
        return Response::json(200, obj);
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
        auto series = ctx.analytics->timeseries(queryOf(ctx, req, orgId),
                                                req.queryFilter("metric").value_or("event_count"),
                                                req.queryFilter("interval").value_or("hour"));
        auto obj = newObject();
        obj->set("metric", series.metric);
        obj->set("interval", series.interval);
        Poco::JSON::Array::Ptr points = new Poco::JSON::Array;
        for (const auto& p : series.points) {
          auto point = newObject();
          setTimestamp(point, "ts", p.ts);
          point->set("value", p.value);
          points->add(point);
        }
        obj->set("points", points);
        return Response::json(200, obj);
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
        auto l = ctx.analytics->latency(queryOf(ctx, req, orgId));
        auto obj = newObject();
        obj->set("p50", numberOrNull(l.count, l.p50));
        obj->set("p90", numberOrNull(l.count, l.p90));
        obj->set("p95", numberOrNull(l.count, l.p95));
        obj->set("p99", numberOrNull(l.count, l.p99));
        obj->set("max", numberOrNull(l.count, l.max));
        obj->set("count", l.count);
        return Response::json(200, obj);
      },
      "Percentiles of duration_ms over a window (nearest rank; null when no event has one).", "analytics");
  router.document("GET", "/analytics/latency", filterDocs(), "AnalyticsLatency");
}

}  // namespace aev::http

// Traces (docs/features.md#traces): Bearer or an API key with `read`.
#include <Poco/JSON/Array.h>

#include <map>

#include "auth/authenticator.h"
#include "events/event.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/resource_views.h"
#include "http/router.h"
#include "http/session_views.h"
#include "identity/environment_service.h"
#include "traces/trace_service.h"

namespace aev::http {

namespace {

std::optional<std::int64_t> idParam(const Request& req, const std::string& name) {
  auto v = req.queryParam(name);
  if (!v || v->empty()) return std::nullopt;
  return queryInt(v, name, 0, 1, INT64_MAX);
}

}  // namespace

void registerTraceRoutes(Router& router, AppContext& ctx) {
  router.add(
      "GET", "/traces",
      [&ctx](Request& req) {
        const auto orgId = ctx.authenticator->userOrApiKey(credentialsOf(req), "read").requireOrg();
        const auto page = queryInt(req.queryParam("page"), "page", 1, 1, 1000000000);
        const auto limit = queryInt(req.queryParam("limit"), "limit", 20, 1, 100);
        store::TraceQuery q;
        q.appId = idParam(req, "app");
        q.channelId = idParam(req, "channel");
        q.agent = req.queryFilter("agent");
        q.model = req.queryFilter("model");
        q.provider = req.queryFilter("provider");
        q.tool = req.queryFilter("tool");
        q.userId = req.queryFilter("user");
        q.sessionId = req.queryFilter("session");
        q.environmentValues = ctx.environments->eventValues(orgId, req.queryFilter("environment"));
        const auto tagKey = req.queryFilter("filterTagKey");
        const auto tagValue = req.queryFilter("filterTagValue");
        if (tagKey.has_value() != tagValue.has_value())
          throw errors::invalidField(tagKey ? "query.filterTagValue" : "query.filterTagKey",
                                     "filterTagKey and filterTagValue are used as a pair");
        if (tagKey) q.tag = std::make_pair(*tagKey, *tagValue);
        q.since = queryTime(req.queryParam("since"), "since");
        q.until = queryTime(req.queryParam("until"), "until");
        if (q.since && q.until && *q.since > *q.until)
          throw errors::invalidField("query.since", "must not be after until");
        if (auto status = req.queryFilter("status")) {
          if (*status != "error" && *status != "ok") throw errors::invalidField("query.status", "must be error or ok");
          q.withErrors = *status == "error";
        }
        if (auto sort = req.queryFilter("sort")) {
          static const std::map<std::string, store::TraceQuery::Order> kOrders = {
              {"start", store::TraceQuery::Order::Start},   {"duration", store::TraceQuery::Order::Duration},
              {"events", store::TraceQuery::Order::Events}, {"errors", store::TraceQuery::Order::Errors},
              {"tokens", store::TraceQuery::Order::Tokens}, {"cost", store::TraceQuery::Order::Cost}};
          auto it = kOrders.find(*sort);
          if (it == kOrders.end())
            throw errors::invalidField("query.sort", "must be start, duration, events, errors, tokens or cost");
          q.orderBy = it->second;
        }
        if (auto order = req.queryFilter("order")) {
          if (*order != "asc" && *order != "desc") throw errors::invalidField("query.order", "must be asc or desc");
          q.ascending = *order == "asc";
        }
        auto result = ctx.traces->list(orgId, q, page, limit);
        auto obj = newObject();
        Poco::JSON::Array::Ptr data = new Poco::JSON::Array;
        for (const auto& t : result.data) data->add(traceItem(t));
        obj->set("data", data);
        obj->set("meta", pageMeta(result.total, page, limit));
        return Response::json(200, obj);
      },
      "Traces, newest first (filters app, channel, agent, model, provider, tool, environment, user, session, "
      "filterTagKey + filterTagValue, since, until, status; sort start | duration | events | errors | tokens | cost, "
      "order desc | "
      "asc).",
      "traces");

  router.add(
      "GET", "/traces/:traceId/events",
      [&ctx](Request& req) {
        const auto orgId = ctx.authenticator->userOrApiKey(credentialsOf(req), "read").requireOrg();
        Response r;
        r.body = traceEventsJson(ctx.traces->events(orgId, req.param("traceId")));
        return r;
      },
      "A trace's events, oldest first (publisher timestamp when sent), each with the telemetry extracted and priced "
      "at ingest.",
      "traces");

  router.add(
      "GET", "/traces/:traceId/summary",
      [&ctx](Request& req) {
        const auto orgId = ctx.authenticator->userOrApiKey(credentialsOf(req), "read").requireOrg();
        return Response::json(200, traceSummaryJson(ctx.traces->summary(orgId, req.param("traceId"))));
      },
      "A trace's summary: counts, agents, event types, duration in ms.", "traces");
}

}  // namespace aev::http

// Sessions and end users (docs/features.md#sessions-and-end-users; decisions §10): any
// member (Bearer) or an API key with `read`. Groups of trace rollups, second shape.
#include <Poco/JSON/Array.h>

#include <map>

#include "auth/authenticator.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/router.h"
#include "http/session_views.h"
#include "identity/environment_service.h"
#include "traces/trace_service.h"

namespace aev::http {

namespace {

using Order = store::GroupQuery::Order;

// The filters both lists share: app, environment, model, tag, since, until; sort and order.
store::GroupQuery groupQuery(AppContext& ctx, const Request& req, std::int64_t orgId,
                             const std::map<std::string, Order>& orders, const char* orderNames) {
  store::GroupQuery q;
  if (auto app = req.queryFilter("app")) q.traces.appId = queryInt(app, "app", 0, 1, INT64_MAX);
  q.traces.environmentValues = ctx.environments->eventValues(orgId, req.queryFilter("environment"));
  q.traces.model = req.queryFilter("model");
  const auto tagKey = req.queryFilter("filterTagKey");
  const auto tagValue = req.queryFilter("filterTagValue");
  if (tagKey.has_value() != tagValue.has_value())
    throw errors::invalidField(tagKey ? "query.filterTagValue" : "query.filterTagKey",
                               "filterTagKey and filterTagValue are used as a pair");
  if (tagKey) q.traces.tag = std::make_pair(*tagKey, *tagValue);
  q.traces.since = queryTime(req.queryParam("since"), "since");
  q.traces.until = queryTime(req.queryParam("until"), "until");
  if (q.traces.since && q.traces.until && *q.traces.since > *q.traces.until)
    throw errors::invalidField("query.since", "must not be after until");
  if (auto sort = req.queryFilter("sort")) {
    auto it = orders.find(*sort);
    if (it == orders.end()) throw errors::invalidField("query.sort", std::string("must be ") + orderNames);
    q.orderBy = it->second;
  }
  if (auto order = req.queryFilter("order")) {
    if (*order != "asc" && *order != "desc") throw errors::invalidField("query.order", "must be asc or desc");
    q.ascending = *order == "asc";
  }
  return q;
}

std::vector<ops::QueryParamDoc> groupQueryDocs(const char* what, std::vector<std::string> sorts) {
  return {{"page", "integer", "1-based page, default 1", {}, false},
          {"limit", "integer", "1 to 100, default 20", {}, false},
          {"app", "integer", std::string(what) + " with a trace of this app (id)", {}, false},
          {"environment", "string", std::string(what) + " with a trace in this environment (id or slug)", {}, false},
          {"model", "string", std::string(what) + " with a trace that called this model", {}, false},
          {"filterTagKey", "string", "custom attribute key; with filterTagValue", {}, false},
          {"filterTagValue",
           "string",
           std::string(what) + " with a trace whose events carry tag filterTagKey = this",
           {},
           false},
          {"since", "string", "RFC 3339: only traces starting at or after", {}, false},
          {"until", "string", "RFC 3339: only traces starting before", {}, false},
          {"sort", "string", "the order (default last: the newest activity first)", std::move(sorts), false},
          {"order", "string", "desc (default) or asc", {"desc", "asc"}, false}};
}

}  // namespace

void registerSessionRoutes(Router& router, AppContext& ctx) {
  router.add(
      "GET", "/sessions",
      [&ctx](Request& req) {
        const auto orgId = ctx.authenticator->userOrApiKey(credentialsOf(req), "read").requireOrg();
        const auto page = queryInt(req.queryParam("page"), "page", 1, 1, 1000000000);
        const auto limit = queryInt(req.queryParam("limit"), "limit", 20, 1, 100);
        static const std::map<std::string, Order> kOrders = {{"last", Order::Last},     {"first", Order::First},
                                                             {"traces", Order::Traces}, {"cost", Order::Cost},
                                                             {"tokens", Order::Tokens}, {"errors", Order::Errors}};
        auto q = groupQuery(ctx, req, orgId, kOrders, "last, first, traces, cost, tokens or errors");
        q.traces.userId = req.queryFilter("user");
        auto result = ctx.traces->sessions(orgId, q, page, limit);
        auto obj = withSchema(req.baseUrl, "SessionList");
        Poco::JSON::Array::Ptr data = new Poco::JSON::Array;
        for (const auto& s : result.data) data->add(sessionJson(s));
        obj->set("data", data);
        obj->set("meta", pageMeta(result.total, page, limit));
        return Response::json(200, obj);
      },
      "Sessions (traces sharing a session id), the most recently active first, with their totals.", "traces");
  auto sessionDocs = groupQueryDocs("sessions", {"last", "first", "traces", "cost", "tokens", "errors"});
  sessionDocs.push_back({"user", "string", "sessions with a trace of this end user", {}, false});
  router.document("GET", "/sessions", sessionDocs, "SessionList");
  router.documentAccess("GET", "/sessions", "read");

  router.add(
      "GET", "/sessions/:sessionId",
      [&ctx](Request& req) {
        const auto orgId = ctx.authenticator->userOrApiKey(credentialsOf(req), "read").requireOrg();
        auto detail = ctx.traces->session(orgId, req.param("sessionId"));
        auto obj = withSchema(req.baseUrl, "SessionDetail");
        const auto session = sessionJson(detail.session);  // held: the loop must not outlive it
        for (const auto& [key, value] : *session) obj->set(key, value);
        Poco::JSON::Array::Ptr traces = new Poco::JSON::Array;
        for (const auto& t : detail.traces) traces->add(sessionTraceJson(t));
        obj->set("traces", traces);
        return Response::json(200, obj);
      },
      "A session with its totals and its traces oldest first (at most 500), each with its input and output text.",
      "traces");
  router.document("GET", "/sessions/{sessionId}", {}, "SessionDetail");
  router.documentAccess("GET", "/sessions/{sessionId}", "read");

  router.add(
      "GET", "/end-users",
      [&ctx](Request& req) {
        const auto orgId = ctx.authenticator->userOrApiKey(credentialsOf(req), "read").requireOrg();
        const auto page = queryInt(req.queryParam("page"), "page", 1, 1, 1000000000);
        const auto limit = queryInt(req.queryParam("limit"), "limit", 20, 1, 100);
        static const std::map<std::string, Order> kOrders = {{"last", Order::Last},
                                                             {"traces", Order::Traces},
                                                             {"cost", Order::Cost},
                                                             {"tokens", Order::Tokens},
                                                             {"errors", Order::Errors}};
        auto q = groupQuery(ctx, req, orgId, kOrders, "last, traces, cost, tokens or errors");
        q.userPrefix = req.queryFilter("search");
        auto result = ctx.traces->endUsers(orgId, q, page, limit);
        auto obj = withSchema(req.baseUrl, "EndUserList");
        Poco::JSON::Array::Ptr data = new Poco::JSON::Array;
        for (const auto& u : result.data) data->add(endUserJson(u));
        obj->set("data", data);
        obj->set("meta", pageMeta(result.total, page, limit));
        return Response::json(200, obj);
      },
      "End users (metadata.user of their traces) with their totals, the most recently active first.", "traces");
  auto userDocs = groupQueryDocs("end users", {"last", "traces", "cost", "tokens", "errors"});
  userDocs.push_back({"search", "string", "end users whose id starts with this text", {}, false});
  router.document("GET", "/end-users", userDocs, "EndUserList");
  router.documentAccess("GET", "/end-users", "read");
}

}  // namespace aev::http

// /admin/*: the instance administrator's user search and access requests, and /metrics.
#include <Poco/JSON/Array.h>

#include "auth/authenticator.h"
#include "common/metrics.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/router.h"
#include "identity/user_service.h"
#include "plugins/host.h"

namespace aev::http {

void registerAdminRoutes(Router& router, AppContext& ctx) {
  router.add(
      "GET", "/admin/users",
      [&ctx](Request& req) {
        ctx.authenticator->instanceAdmin(credentialsOf(req));
        auto q = req.queryParam("q").value_or("");
        const auto limit = static_cast<int>(queryInt(req.queryParam("limit"), "limit", 50, 1, 500));
        auto obj = withSchema(req.baseUrl, "AdminUserList");
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        for (const auto& u : ctx.users->search(q, limit)) list->add(userAdminShape(u));
        obj->set("users", list);
        return Response::json(200, obj);
      },
      "Search users by e-mail or username (instance admin).", "admin");

  router.add(
      "GET", "/admin/access-requests",
      [&ctx](Request& req) {
        ctx.authenticator->instanceAdmin(credentialsOf(req));
        auto status = req.queryParam("status");
        if (status && *status != "pending" && *status != "approved" && *status != "rejected")
          throw errors::invalidField("query.status", "must be pending, approved or rejected", *status);
        auto obj = withSchema(req.baseUrl, "AccessRequestList");
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        for (const auto& a : ctx.users->accessRequests(status)) {
          auto item = newObject();
          item->set("requestId", idString(a.id));
          item->set("userId", idString(a.userId));
          item->set("email", a.email);
          item->set("username", a.username);
          item->set("status", a.status);
          setTimestamp(item, "createdAt", a.createdAt);
          setTimestamp(item, "decidedAt", a.decidedAt);
          list->add(item);
        }
        obj->set("data", list);
        return Response::json(200, obj);
      },
      "Registration access requests (instance admin).", "admin");

  router.add(
      "POST", "/admin/access-requests/{requestId}/status",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->instanceAdmin(credentialsOf(req));
        const auto id = pathId(req.param("requestId"), "Access request");
        BodyReader body(req.jsonBody());
        auto status = body.string("status", true);
        body.done();
        ctx.users->decideAccessRequest(id, *status, p.userId);
        auto obj = withSchema(req.baseUrl, "OkResult");
        obj->set("ok", true);
        return Response::json(200, obj);
      },
      "Approve or reject an access request (instance admin).", "admin");

  router.add(
      "GET", "/admin/plugins",
      [&ctx](Request& req) {
        ctx.authenticator->instanceAdmin(credentialsOf(req));
        return Response::text(200, "application/json", ctx.plugins->describeJson());
      },
      "Loaded plugins, their components and call statistics, and refused files (instance admin).", "admin");

  router.add(
      "GET", "/metrics",
      [&ctx](Request& req) {
        // Public on loopback by default; elsewhere the instance admin (docs/api.md#authentication).
        const bool open = ctx.metricsAccess == "public" || (ctx.metricsAccess == "loopback" && req.fromLoopback);
        if (!open) ctx.authenticator->instanceAdmin(credentialsOf(req));
        return Response::text(200, "text/plain; version=0.0.4", Metrics::instance().renderPrometheus());
      },
      "Prometheus metrics (public on loopback, else instance admin).", "ops", true);
}

}  // namespace aev::http

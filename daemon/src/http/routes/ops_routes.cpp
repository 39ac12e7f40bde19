// /healthz, /readyz, /metrics. /openapi.json and /schemas/* live in schema_routes.cpp.
#include "common/metrics.h"
#include "http/context.h"
#include "http/router.h"
#include "store/database.h"

namespace aev::http {

void registerOpsRoutes(Router& router, AppContext& ctx) {
  router.add(
      "GET", "/healthz",
      [](Request&) {
        Poco::JSON::Object::Ptr body = new Poco::JSON::Object;
        body->set("status", "ok");
        return Response::json(200, body);
      },
      "Liveness: the process answers.", "ops", true);

  router.add(
      "GET", "/readyz",
      [&ctx](Request&) {
        const bool dbOk = ctx.database && ctx.database->ping();
        Poco::JSON::Object::Ptr body = new Poco::JSON::Object;
        body->set("status", dbOk ? "ok" : "unavailable");
        Poco::JSON::Object::Ptr checks = new Poco::JSON::Object;
        checks->set("database", dbOk ? "ok" : "failed");
        body->set("checks", checks);
        return Response::json(dbOk ? 200 : 503, body);
      },
      "Readiness: the database answers.", "ops", true);
}

}  // namespace aev::http

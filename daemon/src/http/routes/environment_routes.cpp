// Environments (docs/api.md), second shape only: a Bearer user acting on the active
// organization (or the one x-tenant-id selects). Any member reads and writes them, as
// with apps; another organization's environment is a 404.
#include <Poco/JSON/Array.h>

#include <initializer_list>
#include <set>

#include "auth/authenticator.h"
#include "http/audit_actor.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/router.h"
#include "identity/environment_service.h"

namespace aev::http {

namespace {

JsonObject environmentJson(const std::string& baseUrl, const store::EnvironmentRecord& env, bool withSchemaField) {
  auto obj = withSchemaField ? withSchema(baseUrl, "Environment") : newObject();
  obj->set("id", idString(env.id));
  obj->set("environmentId", idString(env.id));
  obj->set("orgId", idString(env.orgId));
  obj->set("name", env.name);
  obj->set("slug", env.slug);
  setTimestamp(obj, "createdAt", env.createdAt);
  setTimestamp(obj, "updatedAt", env.updatedAt);
  return obj;
}


// Unknown fields are refused, not ignored, so a misspelt field ("slgu") is a 422 and
// not a silent no-op.
void refuseUnknownFields(BodyReader& body, std::initializer_list<const char*> known) {
  const std::set<std::string> allowed(known.begin(), known.end());
  for (const auto& [field, value] : *body.object())
    if (!allowed.count(field)) body.fail(field, "is not a field of an environment", stringify(value).substr(0, 200));
}

}  // namespace

void registerEnvironmentRoutes(Router& router, AppContext& ctx) {
  router.add(
      "POST", "/environments",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        BodyReader body(req.jsonBody());
        auto name = body.nonNullString("name", true);
        auto slug = body.nonNullString("slug", false);
        refuseUnknownFields(body, {"name", "slug"});
        body.done();
        auto env = ctx.environments->create(orgId, *name, slug, who.actor);
        return Response::json(201, environmentJson(req.baseUrl, env, true));
      },
      "Create an environment (name; slug derived from the name when absent).", "environments");

  router.add(
      "GET", "/environments",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        auto obj = withSchema(req.baseUrl, "EnvironmentList");
        Poco::JSON::Array::Ptr data = new Poco::JSON::Array;
        for (const auto& env : ctx.environments->list(orgId)) data->add(environmentJson(req.baseUrl, env, false));
        obj->set("data", data);
        return Response::json(200, obj);
      },
      "Environments of the organization, oldest first.", "environments");

  router.add(
      "GET", "/environments/{environmentId}",
      [&ctx](Request& req) {
        const auto orgId = actingUser(ctx, req).orgId;
        auto env = ctx.environments->get(orgId, pathId(req.param("environmentId"), "Environment"));
        return Response::json(200, environmentJson(req.baseUrl, env, true));
      },
      "An environment.", "environments");

  router.add(
      "PATCH", "/environments/{environmentId}",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        const auto id = pathId(req.param("environmentId"), "Environment");
        BodyReader body(req.jsonBody());
        identity::EnvironmentPatch patch;
        patch.name = body.nonNullString("name", false);
        patch.slug = body.nonNullString("slug", false);
        refuseUnknownFields(body, {"name", "slug"});
        body.done();
        return Response::json(200, environmentJson(req.baseUrl, ctx.environments->update(orgId, id, patch, who.actor), true));
      },
      "Rename an environment or change its slug.", "environments");

  router.add(
      "DELETE", "/environments/{environmentId}",
      [&ctx](Request& req) {
        const auto who = actingUser(ctx, req);
        const auto orgId = who.orgId;
        ctx.environments->remove(orgId, pathId(req.param("environmentId"), "Environment"), who.actor);
        return Response::noContent();
      },
      "Delete an environment.", "environments");
}

}  // namespace aev::http

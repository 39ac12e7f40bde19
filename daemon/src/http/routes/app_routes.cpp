// Apps and channels (docs/api.md). The first-shape paths (`:id`, /channel) require
// x-tenant-id (400 without it); the second-shape ones act on the active organization.
#include <Poco/JSON/Array.h>

#include "apps/app_service.h"
#include "auth/authenticator.h"
#include "http/audit_actor.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/resource_views.h"
#include "http/router.h"

namespace aev::http {

namespace {

auth::Principal caller(AppContext& ctx, const Request& req, bool tenantRequired) {
  if (tenantRequired && req.header("x-tenant-id").empty())
    throw errors::badRequest("The x-tenant-id header (organization id) is required on this endpoint.");
  auto p = ctx.authenticator->user(credentialsOf(req));
  p.requireOrg();
  return p;
}

JsonObject appJson(const std::string& baseUrl, const store::AppRecord& app) {
  auto obj = withSchema(baseUrl, "App");
  obj->set("id", app.id);
  obj->set("appId", idString(app.id));
  obj->set("name", app.name);
  obj->set("orgId", idString(app.orgId));
  obj->set("creatorUserId", app.creatorUserId ? idString(*app.creatorUserId) : std::string());
  setTimestamp(obj, "createdAt", app.createdAt);
  setTimestamp(obj, "updatedAt", app.updatedAt);
  return obj;
}

std::string readName(Request& req) {
  BodyReader body(req.jsonBody());
  auto name = body.string("name", true, 1, 120);
  body.done();
  return *name;
}

}  // namespace

void registerAppRoutes(Router& router, AppContext& ctx) {
  router.add(
      "POST", "/apps",
      [&ctx](Request& req) {
        auto p = caller(ctx, req, false);
        auto app = ctx.apps->create(*p.orgId, p.userId, readName(req), actorOf(p, req));
        return Response::json(201, appJson(req.baseUrl, app));
      },
      "Create an app in the organization.", "apps");

  router.add(
      "GET", "/apps",
      [&ctx](Request& req) {
        auto p = caller(ctx, req, true);
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        for (const auto& app : ctx.apps->list(*p.orgId)) {
          auto obj = appJson(req.baseUrl, app);
          obj->remove("$schema");
          list->add(obj);
        }
        return Response::json(200, list);
      },
      "Apps of the organization.", "apps");

  router.add(
      "GET", "/apps/{appId}",
      [&ctx](Request& req) {
        auto p = caller(ctx, req, false);
        auto found = ctx.apps->get(*p.orgId, pathId(req.param("appId"), "App"));
        auto obj = appJson(req.baseUrl, found.app);
        Poco::JSON::Array::Ptr channels = new Poco::JSON::Array;
        for (const auto& ch : found.channels) channels->add(channelJson(req.baseUrl, ch, false));
        obj->set("channels", channels);
        return Response::json(200, obj);
      },
      "An app with its channels.", "apps");

  router.add(
      "PATCH", "/apps/{appId}",
      [&ctx](Request& req) {
        auto p = caller(ctx, req, true);
        auto app = ctx.apps->rename(*p.orgId, pathId(req.param("appId"), "App"), readName(req), actorOf(p, req));
        return Response::json(200, appJson(req.baseUrl, app));
      },
      "Rename an app.", "apps");

  router.add(
      "DELETE", "/apps/{appId}",
      [&ctx](Request& req) {
        auto p = caller(ctx, req, true);
        ctx.apps->remove(*p.orgId, pathId(req.param("appId"), "App"), actorOf(p, req));
        return Response::noContent();
      },
      "Delete an app, its channels and their events.", "apps");

  router.add(
      "POST", "/apps/{appId}/channels",
      [&ctx](Request& req) {
        auto p = caller(ctx, req, false);
        auto ch = ctx.apps->createChannel(*p.orgId, pathId(req.param("appId"), "App"), readName(req), actorOf(p, req));
        return Response::json(201, channelJson(req.baseUrl, ch, true));
      },
      "Create a channel in an app (second shape).", "channels");

  router.add(
      "POST", "/channel",
      [&ctx](Request& req) {
        auto p = caller(ctx, req, true);
        BodyReader body(req.jsonBody());
        auto name = body.string("name", true, 1, 120);
        auto appId = body.id("appId", true);
        body.done();
        auto ch = ctx.apps->createChannel(*p.orgId, *appId, *name, actorOf(p, req));
        return Response::json(201, channelJson(req.baseUrl, ch, true));
      },
      "Create a channel (first shape).", "channels");

  router.add(
      "GET", "/channel/:id",
      [&ctx](Request& req) {
        auto p = caller(ctx, req, true);
        return Response::json(200, channelJson(req.baseUrl, ctx.apps->channel(*p.orgId, pathId(req.param("id"), "Channel")), true));
      },
      "A channel.", "channels");

  router.add(
      "DELETE", "/channel/:id",
      [&ctx](Request& req) {
        auto p = caller(ctx, req, true);
        ctx.apps->removeChannel(*p.orgId, pathId(req.param("id"), "Channel"), actorOf(p, req));
        return Response::noContent();
      },
      "Delete a channel and its events; its open streams end.", "channels");

  // The first-shape routes that call caller(ctx, req, true): x-tenant-id is required there.
  const ops::QueryParamDoc tenant{
      "x-tenant-id", "string", "The organization id (required on this first-shape route; 400 without it).", {}, true};
  for (const auto& [method, path] : {std::pair{"GET", "/apps"},
                                     {"PATCH", "/apps/{appId}"},
                                     {"DELETE", "/apps/{appId}"},
                                     {"POST", "/channel"},
                                     {"GET", "/channel/{id}"},
                                     {"DELETE", "/channel/{id}"}})
    router.documentationOf(method, path).headers.push_back(tenant);
}

}  // namespace aev::http

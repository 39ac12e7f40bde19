// /users/me, the organization switcher (both shapes), and the org-admin user list.
#include <Poco/JSON/Array.h>

#include "auth/authenticator.h"
#include "auth/session_service.h"
#include "common/errors.h"
#include "http/audit_actor.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/router.h"
#include "identity/organization_service.h"
#include "identity/user_service.h"

namespace aev::http {

namespace {

// PATCH /users/me/active-org: {organizationId: int} (first shape) or {orgId: "7"}
// (second shape); the answer follows the shape that was asked.
Response switchActiveOrg(AppContext& ctx, Request& req, bool v2) {
  auto p = ctx.authenticator->user(credentialsOf(req));
  BodyReader body(req.jsonBody());
  const bool secondShape = v2 || body.has("orgId");
  auto orgId = v2 ? body.id("orgId", true) : body.idInEitherShape("organizationId", "orgId", true);
  body.done();
  ctx.organizations->switchActive(p.userId, *orgId);
  auto pair = ctx.sessions->issueFor(p.userId, *orgId);
  auto obj = v2 ? withSchema(req.baseUrl, "ActiveOrgResult") : newObject();
  if (secondShape) obj->set("ok", true);
  addTokens(obj, pair);
  return Response::json(200, obj);
}

}  // namespace

void registerUserRoutes(Router& router, AppContext& ctx) {
  router.add(
      "GET", "/users/me",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        return Response::json(200, userFirstShape(ctx.users->view(p.userId, p.orgId)));
      },
      "The current user.", "users");

  router.add(
      "PATCH", "/users/me",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        BodyReader body(req.jsonBody());
        auto first = body.string("first_name", false, 0, 120);
        auto last = body.string("last_name", false, 0, 120);
        body.done();
        return Response::json(200, userFirstShape(ctx.users->updateProfile(p.userId, p.orgId, first, last)));
      },
      "Update the current user's first and last name.", "users");

  router.add(
      "GET", "/users/me/organizations",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        for (const auto& [m, org] : ctx.organizations->membershipsOf(p.userId))
          list->add(membershipFirstShape(m, org));
        return Response::json(200, list);
      },
      "The current user's memberships (first shape).", "users");

  router.add(
      "GET", "/v2/users/me/organizations",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        auto obj = withSchema(req.baseUrl, "OrganizationMemberships");
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        for (const auto& [m, org] : ctx.organizations->membershipsOf(p.userId)) {
          auto item = newObject();
          auto record = organizationRecord(req.baseUrl, org, ctx.organizations->planOf(org));
          record->remove("$schema");
          item->set("organization", record);
          item->set("role", m.role);
          list->add(item);
        }
        obj->set("organizations", list);
        return Response::json(200, obj);
      },
      "The current user's organizations with roles (second shape).", "users");

  router.add(
      "PATCH", "/users/me/active-org", [&ctx](Request& req) { return switchActiveOrg(ctx, req, false); },
      "Switch the active organization; answers a new token pair.", "users");
  router.add(
      "PATCH", "/v2/users/me/active-org", [&ctx](Request& req) { return switchActiveOrg(ctx, req, true); },
      "Switch the active organization (second shape): {ok, access_token, refresh_token}.", "users");

  router.add(
      "GET", "/users",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        p.requireOrgAdmin();
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        for (const auto& u : ctx.users->listInOrganization(*p.orgId)) list->add(userFirstShape(u));
        return Response::json(200, list);
      },
      "Users of the caller's organization (admin role).", "users");

  router.add(
      "PUT", "/users/:id",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        const auto target = pathId(req.param("id"), "User");
        p.requireOrgAdmin();
        BodyReader body(req.jsonBody());
        identity::AdminUserUpdate update;
        update.firstName = body.string("first_name", false, 0, 120);
        update.lastName = body.string("last_name", false, 0, 120);
        update.role = body.string("role", false);
        update.disabled = body.boolean("disabled", false);
        body.done();
        return Response::json(200, userFirstShape(ctx.users->adminUpdate(*p.orgId, p.userId, target, update, actorOf(p, req))));
      },
      "Update a user of the caller's organization: names, role, disabled (admin role).", "users");

  router.add(
      "DELETE", "/users/:id",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        const auto target = pathId(req.param("id"), "User");
        p.requireOrgAdmin();
        ctx.users->adminDelete(*p.orgId, p.userId, target, actorOf(p, req));
        return Response::noContent();
      },
      "Delete a user of the caller's organization (admin role).", "users");
}

}  // namespace aev::http

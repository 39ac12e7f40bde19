// Organizations, members and invitations.
#include <Poco/JSON/Array.h>

#include "auth/authenticator.h"
#include "auth/session_service.h"
#include "http/audit_actor.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/router.h"
#include "identity/organization_service.h"

namespace aev::http {

namespace {

JsonObject invitationJson(const store::InvitationRecord& inv, const std::string& code) {
  auto obj = newObject();
  obj->set("id", inv.id);
  obj->set("code", code);
  obj->set("organizationId", inv.orgId);
  obj->set("invitedEmail", inv.invitedEmail);
  obj->set("invite_role", inv.role);
  obj->set("status", inv.status);
  setTimestamp(obj, "createdAt", inv.createdAt);
  setTimestamp(obj, "expiresAt", inv.expiresAt);
  return obj;
}

identity::OrganizationPatch readPatch(BodyReader& body, bool allowSlug) {
  identity::OrganizationPatch patch;
  patch.name = body.string("name", false, 1, 120);
  if (allowSlug) patch.slug = body.string("slug", false, 1, 63);
  patch.description = body.string("description", false, 0, 500);
  body.done();
  return patch;
}

}  // namespace

void registerOrganizationRoutes(Router& router, AppContext& ctx) {
  router.add(
      "POST", "/organizations",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        BodyReader body(req.jsonBody());
        auto name = body.string("name", true, 1, 120);
        auto slug = body.string("slug", true, 1, 63);
        auto description = body.string("description", false, 0, 500);
        body.done();
        auto org = ctx.organizations->create(p.userId, *name, *slug, description.value_or(""), actorOf(p, req));
        auto obj = organizationRecord(req.baseUrl, org, ctx.organizations->planOf(org));
        addTokens(obj, ctx.sessions->issueFor(p.userId, org.id));
        return Response::json(201, obj);
      },
      "Create an organization; the caller becomes its admin and it becomes the active one (tokens included).",
      "organizations");

  router.add(
      "GET", "/organizations/:id",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        auto org = ctx.organizations->get(pathId(req.param("id"), "Organization"), p.userId);
        auto obj = organizationRecord(req.baseUrl, org, ctx.organizations->planOf(org));
        const auto used = ctx.organizations->usage(org.id, p.userId);
        auto usage = newObject();
        usage->set("period", used.period);
        usage->set("events", used.events);
        usage->set("members", used.members);
        usage->set("pendingInvitations", used.pendingInvitations);
        obj->set("usage", usage);
        return Response::json(200, obj);
      },
      "An organization the caller is a member of, with this month's usage against its plan.", "organizations");

  router.add(
      "PATCH", "/organizations/:id",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        const auto orgId = pathId(req.param("id"), "Organization");
        BodyReader body(req.jsonBody());
        auto org = ctx.organizations->update(orgId, p.userId, readPatch(body, true), actorOf(p, req));
        return Response::json(200, organizationRecord(req.baseUrl, org, ctx.organizations->planOf(org)));
      },
      "Update name, slug or description (members).", "organizations");

  router.add(
      "GET", "/organizations/:id/contents",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        const auto orgId = pathId(req.param("id"), "Organization");
        auto obj = newObject();
        obj->set("organizationId", orgId);
        for (const auto& [name, count] : ctx.organizations->contents(orgId, p.userId)) obj->set(name, count);
        return Response::json(200, obj);
      },
      "What an organization holds, counted (members): apps, channels, stored events, API keys (not revoked), "
      "members, pending invitations, environments, webhook endpoints, export destinations, moderation rules, spend "
      "policies and alert rules. Deleting the organization deletes all of it.",
      "organizations");

  router.add(
      "DELETE", "/organizations/:id",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        ctx.organizations->remove(pathId(req.param("id"), "Organization"), p.userId);
        return Response::noContent();
      },
      "Delete an organization (admin role) and everything it holds: apps, channels, events, traces, API keys, "
      "memberships, invitations, environments, webhooks, export destinations, moderation, spend and alert rules, "
      "and its audit log (GET /organizations/{id}/contents counts them first). Members whose active organization "
      "it was move to another of theirs; their accounts stay.",
      "organizations");

  router.add(
      "PATCH", "/organization",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        const auto orgId = p.requireOrg();
        BodyReader body(req.jsonBody());
        auto org = ctx.organizations->update(orgId, p.userId, readPatch(body, false), actorOf(p, req));
        return Response::json(200, organizationRecord(req.baseUrl, org, ctx.organizations->planOf(org)));
      },
      "Update the active organization's name (≤120) and description (≤500), second shape.", "organizations");

  router.add(
      "GET", "/organizations/:id/members",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        for (const auto& [m, u] : ctx.organizations->members(pathId(req.param("id"), "Organization"), p.userId)) {
          auto item = newObject();
          item->set("id", m.id);
          item->set("userId", m.userId);
          item->set("organizationId", m.orgId);
          item->set("role", m.role);
          setTimestamp(item, "joinedAt", m.joinedAt);
          item->set("email", u.email);
          item->set("username", u.username);
          item->set("first_name", u.firstName);
          item->set("last_name", u.lastName);
          list->add(item);
        }
        return Response::json(200, list);
      },
      "Members of an organization (members).", "organizations");

  router.add(
      "PATCH", "/organizations/{orgId}/members/{userId}",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        const auto orgId = pathId(req.param("orgId"), "Organization");
        const auto userId = pathId(req.param("userId"), "Member");
        BodyReader body(req.jsonBody());
        auto role = body.string("role", true);
        body.done();
        ctx.organizations->setMemberRole(orgId, p.userId, userId, *role, actorOf(p, req));
        auto obj = withSchema(req.baseUrl, "OkResult");
        obj->set("ok", true);
        return Response::json(200, obj);
      },
      "Change a member's role (admin role).", "organizations");

  router.add(
      "DELETE", "/organizations/{orgId}/members/{userId}",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        ctx.organizations->removeMember(pathId(req.param("orgId"), "Organization"), p.userId,
                                        pathId(req.param("userId"), "Member"), actorOf(p, req));
        return Response::noContent();
      },
      "Remove a member (admin role), or leave (yourself).", "organizations");

  router.add(
      "POST", "/organizations/:id/invitations",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        const auto orgId = pathId(req.param("id"), "Organization");
        BodyReader body(req.jsonBody());
        auto email = body.string("invitedEmail", true, 3, 254);
        auto role = body.string("desired_role", false).value_or("user");
        body.done();
        auto created = ctx.organizations->invite(orgId, p.userId, *email, role, actorOf(p, req));
        return Response::json(201, invitationJson(created.record, created.code));
      },
      "Invite someone by e-mail (admin role; counts against the plan's seat limit).", "organizations");

  router.add(
      "GET", "/organizations/:id/invitations",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
        for (const auto& inv : ctx.organizations->invitations(pathId(req.param("id"), "Organization"), p.userId))
          list->add(invitationJson(inv, inv.codePrefix + "\xE2\x80\xA6"));
        return Response::json(200, list);
      },
      "Invitations of an organization, codes truncated (admin role).", "organizations");

  router.add(
      "POST", "/invitations/{code}/accept",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->user(credentialsOf(req));
        auto m = ctx.organizations->acceptInvitation(req.param("code"), p.userId, p.email, actorOf(p, req));
        auto org = ctx.organizations->get(m.orgId, p.userId);
        return Response::json(200, membershipFirstShape(m, org));
      },
      "Accept an invitation sent to the caller's e-mail address.", "organizations");
}

}  // namespace aev::http

// /auth/*: registration, login, refresh rotation, logout, and whoami.
#include "audit/actor.h"
#include "auth/authenticator.h"
#include "auth/session_service.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/router.h"
#include "identity/user_service.h"

namespace aev::http {

void registerAuthRoutes(Router& router, AppContext& ctx) {
  router.add(
      "POST", "/auth/register",
      [&ctx](Request& req) {
        BodyReader body(req.jsonBody());
        identity::RegisterInput in;
        in.email = body.string("email", true).value_or("");
        in.username = body.string("username", true).value_or("");
        in.password = body.string("password", true).value_or("");
        in.firstName = body.string("first_name", false, 0, 120).value_or("");
        in.lastName = body.string("last_name", false, 0, 120).value_or("");
        body.done();
        auto user = ctx.users->registerUser(in, audit::Actor{"dashboard", "", "", req.clientAddress, req.requestId});
        auto obj = userFirstShape(user);
        if (user.user.disabledAt) obj->set("status", "pending_approval");
        return Response::json(201, obj);
      },
      "Register a user (a personal organization is created; the first user is the instance admin).", "auth",
      true);

  router.add(
      "POST", "/auth/login",
      [&ctx](Request& req) {
        BodyReader body(req.jsonBody());
        auto login = body.string("login", !body.has("email"), 1, 254);
        // `email` is accepted as a synonym of `login`.
        if (!login) login = body.string("email", false, 1, 254);
        auto password = body.string("password", true, 1, 1024);
        body.done();
        auto pair = ctx.sessions->login(*login, *password, audit::Actor{"dashboard", "", "", req.clientAddress, req.requestId});
        auto obj = newObject();
        addTokens(obj, pair);
        return Response::json(200, obj);
      },
      "Log in with e-mail or username and password: an access and a refresh token.", "auth", true);

  router.add(
      "POST", "/auth/refresh",
      [&ctx](Request& req) {
        BodyReader body(req.jsonBody());
        auto token = body.string("refresh_token", true, 1, 512);
        body.done();
        auto obj = newObject();
        addTokens(obj, ctx.sessions->refresh(*token));
        return Response::json(200, obj);
      },
      "Rotate a refresh token into a new pair; reuse of a rotated token revokes the session.", "auth", true);

  router.add(
      "POST", "/auth/logout",
      [&ctx](Request& req) {
        BodyReader body(req.jsonBody());
        auto token = body.string("refresh_token", true, 1, 512);
        body.done();
        ctx.sessions->logout(*token);
        return Response::noContent();
      },
      "Revoke a refresh token (and its session).", "auth", true);

  router.add(
      "GET", "/auth/whoami",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->userOrApiKey(credentialsOf(req), "");
        auto obj = newObject();
        obj->set("type", p.isUser() ? "user" : "apikey");
        if (p.isUser()) {
          obj->set("userId", p.userId);
          obj->set("email", p.email);
          obj->set("instanceAdmin", p.instanceAdmin);
          obj->set("role", p.role);
        } else {
          obj->set("apiKeyId", p.apiKeyId);
          Poco::JSON::Array::Ptr scopes = new Poco::JSON::Array;
          for (const auto& s : p.scopes) scopes->add(s);
          obj->set("scopes", scopes);
        }
        if (p.orgId)
          obj->set("orgId", *p.orgId);
        else
          obj->set("orgId", Poco::Dynamic::Var());
        return Response::json(200, obj);
      },
      "Describe the caller: a user session or an API key, and the organization acted on.", "auth");
}

}  // namespace aev::http

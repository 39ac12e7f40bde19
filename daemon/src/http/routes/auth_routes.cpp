// /auth/*: registration, login, refresh rotation, logout, and whoami. Login, refresh and
// logout also speak the console's HttpOnly refresh cookie (http/refresh_cookie.h).
#include "audit/actor.h"
#include "auth/authenticator.h"
#include "auth/session_service.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/refresh_cookie.h"
#include "http/render.h"
#include "http/router.h"
#include "identity/user_service.h"

namespace aev::http {

namespace {

// The console's answer: the access token in the body; the refresh token only in the
// HttpOnly cookie, so the page never sees it.
Response withRefreshCookie(const Request& req, JsonObject obj, const std::string& refreshToken) {
  obj->remove("refresh_token");
  auto r = Response::json(200, obj);
  r.headers.emplace_back("Set-Cookie", refreshCookie(req, refreshToken));
  r.headers.emplace_back("Set-Cookie", sessionMarkerCookie(req, true));
  r.headers.emplace_back("Cache-Control", "no-store");
  return r;
}

}  // namespace

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
        // `email` is accepted as a synonym of `login` (both only when they agree).
        auto login = body.stringInEitherShape("login", "email", true, 1, 254);
        auto password = body.string("password", true, 1, 1024);
        const bool cookie = body.boolean("refresh_cookie", false).value_or(false);
        body.done();
        if (cookie) requireOwnOrigin(req);
        auto pair = ctx.sessions->login(*login, *password, audit::Actor{"dashboard", "", "", req.clientAddress, req.requestId});
        auto obj = newObject();
        addTokens(obj, pair);
        return cookie ? withRefreshCookie(req, obj, pair.refreshToken) : Response::json(200, obj);
      },
      "Log in with e-mail or username and password: an access and a refresh token (with refresh_cookie: true, "
      "the refresh token goes to an HttpOnly SameSite=Strict cookie instead; same-origin pages only).",
      "auth", true);

  router.add(
      "POST", "/auth/refresh",
      [&ctx](Request& req) {
        BodyReader body(req.jsonBody());
        auto cookie = refreshCookieOf(req);
        // The body's token when sent; the cookie only when the body names none.
        auto token = body.string("refresh_token", !cookie || body.has("refresh_token"), 1, 512);
        body.done();
        auto obj = newObject();
        if (token) {
          addTokens(obj, ctx.sessions->refresh(*token));
          return Response::json(200, obj);
        }
        requireOwnOrigin(req);
        auto pair = ctx.sessions->refresh(*cookie);
        addTokens(obj, pair);
        return withRefreshCookie(req, obj, pair.refreshToken);
      },
      "Rotate a refresh token (the body's, else the console's refresh cookie) into a new pair; reuse of a rotated "
      "token revokes the session.",
      "auth", true);

  router.add(
      "POST", "/auth/logout",
      [&ctx](Request& req) {
        BodyReader body(req.jsonBody());
        auto cookie = refreshCookieOf(req);
        auto token = body.string("refresh_token", !cookie || body.has("refresh_token"), 1, 512);
        body.done();
        if (token) {
          ctx.sessions->logout(*token);
          return Response::noContent();
        }
        requireOwnOrigin(req);
        try {
          ctx.sessions->logout(*cookie);
        } catch (const ApiError& e) {
          if (e.status() != 401) throw;  // an unknown or expired token: the cookie goes all the same
        }
        auto r = Response::noContent();
        r.headers.emplace_back("Set-Cookie", clearedRefreshCookie(req));
        r.headers.emplace_back("Set-Cookie", sessionMarkerCookie(req, false));
        return r;
      },
      "Revoke a refresh token (the body's, else the console's refresh cookie) and its session.", "auth", true);

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

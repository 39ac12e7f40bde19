#pragma once
// The console's refresh cookie. The console keeps its access token in memory only, so a
// reload needs a credential the page cannot read: the refresh token in an HttpOnly
// cookie, asked for with `"refresh_cookie": true` on POST /auth/login and then used by
// POST /auth/refresh and /auth/logout when their body names no refresh_token.
//
// Why this is not a CSRF hole:
// - The cookie is HttpOnly (no script reads it), SameSite=Strict (a browser does not
//   attach it to a request started by another site), Path=/auth (it goes nowhere else:
//   every other route authenticates with the Authorization header only, never a cookie),
//   and Secure when http.public_url is https.
// - SameSite treats sibling subdomains as the same site, so the three routes also check
//   that the request comes from this daemon's own origin: `Sec-Fetch-Site: same-origin`
//   (a header no page can forge) or, from a browser that does not send it, an `Origin`
//   equal to the daemon's (http.public_url, else the Host header). Anything else is a 403.
// - The bodies are application/json, which a cross-origin page cannot send without a CORS
//   preflight, and the answer has no Access-Control-Allow-Credentials: even an origin
//   listed in http.cors_origins cannot use the cookie.
//
// Rotation is unchanged: each refresh consumes the cookie's token and sets the next one;
// presenting a rotated token again (a stolen copy) revokes the whole session. Two tabs
// must therefore not refresh at once with the same cookie; the console serializes its
// refreshes across tabs with the Web Locks API.
#include <optional>
#include <string>

#include "http/request.h"

namespace aev::http {

inline constexpr const char* kRefreshCookieName = "aev_refresh";

// The refresh cookie's value, when the request carries one.
std::optional<std::string> refreshCookieOf(const Request& req);
// Set-Cookie values: the token, and the deletion of the cookie.
std::string refreshCookie(const Request& req, const std::string& token);
std::string clearedRefreshCookie(const Request& req);
// A cookie the page may read that says only "a refresh cookie was set" (aev_session=1), so
// a signed-out visitor's page does not call /auth/refresh just to be told 401.
std::string sessionMarkerCookie(const Request& req, bool present);
// 403 unless the request was sent by a page of this daemon's own origin.
void requireOwnOrigin(const Request& req);

}  // namespace aev::http

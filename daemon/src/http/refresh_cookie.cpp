#include "http/refresh_cookie.h"

#include "common/errors.h"

namespace aev::http {

namespace {

// scheme://host[:port] of a base URL (which may carry a path).
std::string originOf(const std::string& url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const auto slash = url.find('/', scheme + 3);
  return slash == std::string::npos ? url : url.substr(0, slash);
}

std::string attributes(const Request& req) {
  std::string a = "; Path=/auth; HttpOnly; SameSite=Strict";
  if (req.baseUrl.starts_with("https://")) a += "; Secure";
  return a;
}

}  // namespace

std::optional<std::string> refreshCookieOf(const Request& req) {
  const std::string header = req.header("cookie");
  const std::string name = std::string(kRefreshCookieName) + "=";
  std::size_t pos = 0;
  while (pos < header.size()) {
    while (pos < header.size() && (header[pos] == ' ' || header[pos] == ';')) ++pos;
    auto end = header.find(';', pos);
    if (end == std::string::npos) end = header.size();
    if (header.compare(pos, name.size(), name) == 0) {
      auto value = header.substr(pos + name.size(), end - pos - name.size());
      while (!value.empty() && value.back() == ' ') value.pop_back();
      if (!value.empty()) return value;
    }
    pos = end + 1;
  }
  return std::nullopt;
}

std::string refreshCookie(const Request& req, const std::string& token) {
  // A session cookie: the refresh token's own lifetime (auth.refresh_token_ttl_seconds)
  // still bounds it on the server, and closing the browser ends it on the client.
  return std::string(kRefreshCookieName) + "=" + token + attributes(req);
}

std::string clearedRefreshCookie(const Request& req) {
  return std::string(kRefreshCookieName) + "=" + attributes(req) + "; Max-Age=0";
}

std::string sessionMarkerCookie(const Request& req, bool present) {
  std::string c =
      present ? "aev_session=1; Path=/; SameSite=Strict" : "aev_session=; Path=/; SameSite=Strict; Max-Age=0";
  if (req.baseUrl.starts_with("https://")) c += "; Secure";
  return c;
}

void requireOwnOrigin(const Request& req) {
  const auto site = req.header("sec-fetch-site");
  if (site == "same-origin") return;
  const auto origin = req.header("origin");
  if (site.empty() && !origin.empty() && origin == originOf(req.baseUrl)) return;
  throw errors::forbidden("The refresh cookie is accepted only from this daemon's own pages (same origin).");
}

}  // namespace aev::http

#include "http/router.h"

#include <Poco/URI.h>

#include <set>
#include <stdexcept>

namespace aev::http {

std::string urlDecode(const std::string& s) {
  std::string out;
  Poco::URI::decode(s, out);
  return out;
}

std::vector<std::string> Router::split(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    auto slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    if (slash > start) parts.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

// A template with its parameter names erased: /apps/{} for /apps/{appId} and /apps/{id}.
std::string Router::shapeOf(const std::vector<Segment>& segments) {
  std::string shape;
  for (const auto& seg : segments) shape += "/" + (seg.isParam ? std::string(seg.isRest ? "{*}" : "{}") : seg.text);
  return shape;
}

RouteInfo& Router::infoOf(const std::string& method, const std::string& pathTemplate, const char* caller) {
  for (auto& r : routes_)
    if (r.info.method == method && r.info.pathTemplate == pathTemplate) return r.info;
  throw std::logic_error(std::string(caller) + "(): no route " + method + " " + pathTemplate);
}

void Router::document(const std::string& method, const std::string& pathTemplate,
                      std::vector<ops::QueryParamDoc> query, std::string responseSchema) {
  auto& info = infoOf(method, pathTemplate, "document");
  info.query = std::move(query);
  info.responseSchema = std::move(responseSchema);
}

void Router::documentAnswer(const std::string& method, const std::string& pathTemplate, std::string responseSchema) {
  infoOf(method, pathTemplate, "documentAnswer").responseSchema = std::move(responseSchema);
}

void Router::documentNoContent(const std::string& method, const std::string& pathTemplate) {
  infoOf(method, pathTemplate, "documentNoContent").noContent = true;
}

void Router::documentAccess(const std::string& method, const std::string& pathTemplate, std::string apiKeyScope,
                            std::string requestSchema, std::string responseMediaType) {
  auto& info = infoOf(method, pathTemplate, "documentAccess");
  info.apiKeyScope = std::move(apiKeyScope);
  info.requestSchema = std::move(requestSchema);
  info.responseMediaType = std::move(responseMediaType);
}

void Router::add(const std::string& method, const std::string& pathTemplate, Handler handler, std::string summary,
                 std::string tag, bool isPublic) {
  Route route;
  std::string normalised;
  for (const auto& part : split(pathTemplate)) {
    Segment seg;
    if (part.size() > 1 && part[0] == ':') {
      seg = {part.substr(1), true};
    } else if (part.size() > 3 && part.front() == '{' && part.ends_with("*}")) {
      seg = {part.substr(1, part.size() - 3), true, true};
    } else if (part.size() > 2 && part.front() == '{' && part.back() == '}') {
      seg = {part.substr(1, part.size() - 2), true};
    } else {
      seg = {part, false};
    }
    if (!route.segments.empty() && route.segments.back().isRest)
      throw std::logic_error("a {name*} segment must be the last one: " + pathTemplate);
    normalised += "/" + (seg.isParam ? "{" + seg.text + (seg.isRest ? "*}" : "}") : seg.text);
    route.segments.push_back(seg);
  }
  if (normalised.empty()) normalised = "/";
  for (const auto& existing : routes_) {
    if (existing.info.method == method && existing.info.pathTemplate == normalised)
      throw std::logic_error("duplicate route " + method + " " + normalised);
    // OpenAPI (and every client generator) needs one template per path: /apps/{appId}
    // and /apps/{id} are the same path spelled twice.
    if (existing.info.pathTemplate != normalised && shapeOf(existing.segments) == shapeOf(route.segments))
      throw std::logic_error("path " + normalised + " is " + existing.info.pathTemplate +
                             " with other parameter names: use one spelling");
  }
  route.info = {method, normalised, std::move(summary), std::move(tag), isPublic, {}, ""};
  route.handler = std::move(handler);
  routes_.push_back(std::move(route));
}

std::optional<std::map<std::string, std::string>> Router::bind(const Route& route,
                                                               const std::vector<std::string>& parts) {
  const bool rest = !route.segments.empty() && route.segments.back().isRest;
  const std::size_t fixed = route.segments.size() - (rest ? 1 : 0);
  if (rest ? parts.size() < fixed : parts.size() != fixed) return std::nullopt;
  std::map<std::string, std::string> params;
  if (rest) {
    std::string joined;
    for (std::size_t i = fixed; i < parts.size(); ++i) joined += (i > fixed ? "/" : "") + urlDecode(parts[i]);
    params[route.segments.back().text] = std::move(joined);
  }
  for (std::size_t i = 0; i < fixed; ++i) {
    const auto& seg = route.segments[i];
    if (seg.isParam)
      params[seg.text] = urlDecode(parts[i]);
    else if (seg.text != parts[i])
      return std::nullopt;
  }
  return params;
}

Router::Match Router::match(const std::string& method, const std::string& path) const {
  const auto parts = split(path);
  Match best;
  int bestLiterals = -1;
  std::set<std::string> allowed;
  for (const auto& route : routes_) {
    auto params = bind(route, parts);
    if (!params) continue;
    // Among templates that fit, the one with the most literal segments wins.
    int literals = 0;
    for (const auto& seg : route.segments) literals += seg.isParam ? 0 : 1;
    if (route.info.method != method) {
      allowed.insert(route.info.method);
      continue;
    }
    if (literals > bestLiterals) {
      bestLiterals = literals;
      best.handler = &route.handler;
      best.info = &route.info;
      best.params = std::move(*params);
    }
  }
  if (!best.handler && !allowed.empty()) {
    for (const auto& m : allowed) best.allowedMethods += (best.allowedMethods.empty() ? "" : ", ") + m;
  }
  return best;
}

std::vector<RouteInfo> Router::routes() const {
  std::vector<RouteInfo> out;
  out.reserve(routes_.size());
  for (const auto& r : routes_) out.push_back(r.info);
  return out;
}

}  // namespace aev::http

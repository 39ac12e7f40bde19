#pragma once
// Method + path template → handler. Templates accept both `:id` and `{id}` segments,
// the two spellings the interface uses. Literal segments win over parameters, so
// /users/me never matches /users/:id. A last segment `{name*}` takes the rest of the
// path (zero or more segments, each decoded, joined by '/'): the console's files.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "http/request.h"
#include "ops/schemas.h"

namespace aev::http {

using Handler = std::function<Response(Request&)>;

// A route's documentation for the OpenAPI document (ops/schemas.h says each field).
using RouteInfo = ops::RouteDoc;

class Router {
 public:
  void add(const std::string& method, const std::string& pathTemplate, Handler handler, std::string summary,
           std::string tag = "", bool isPublic = false);

  struct Match {
    const Handler* handler = nullptr;
    const RouteInfo* info = nullptr;  // the matched route's documentation
    std::map<std::string, std::string> params;
    std::string allowedMethods;  // set when the path exists but the method does not
  };
  Match match(const std::string& method, const std::string& path) const;
  // Adds query parameters and the success body's schema to a route's documentation.
  void document(const std::string& method, const std::string& pathTemplate, std::vector<ops::QueryParamDoc> query,
                std::string responseSchema);
  // Adds, for the OpenAPI document, the API-key scope a route accepts besides a Bearer
  // token ("*": any key), its request body's schema, and its answer's media type when
  // that is not JSON.
  void documentAccess(const std::string& method, const std::string& pathTemplate, std::string apiKeyScope,
                      std::string requestSchema = "", std::string responseMediaType = "");

  // Only the success body's schema (keeps the query parameters documented so far).
  void documentAnswer(const std::string& method, const std::string& pathTemplate, std::string responseSchema);
  // The route answers 204 No Content on success.
  void documentNoContent(const std::string& method, const std::string& pathTemplate);

  std::vector<RouteInfo> routes() const;
  // The documentation of a registered route, for the fields no helper above sets
  // (headers, credential forms, body media types); std::logic_error when there is none.
  RouteInfo& documentationOf(const std::string& method, const std::string& pathTemplate) {
    return infoOf(method, pathTemplate, "documentationOf");
  }

 private:
  struct Segment {
    std::string text;
    bool isParam;
    bool isRest = false;  // `{name*}`: the remaining segments
  };
  struct Route {
    RouteInfo info;
    std::vector<Segment> segments;
    Handler handler;
  };
  // The documentation of a registered route; std::logic_error naming `caller` otherwise.
  RouteInfo& infoOf(const std::string& method, const std::string& pathTemplate, const char* caller);
  static std::vector<std::string> split(const std::string& path);
  static std::string shapeOf(const std::vector<Segment>& segments);
  static std::optional<std::map<std::string, std::string>> bind(const Route& route,
                                                                const std::vector<std::string>& parts);
  std::vector<Route> routes_;
};

std::string urlDecode(const std::string& s);

}  // namespace aev::http

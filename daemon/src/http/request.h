#pragma once
// The http module's own request/response values: handlers see these, not Poco's HTTP
// classes, so they stay unit-testable and the server adapter is the only Poco seam.
#include <Poco/JSON/Object.h>
#include <Poco/Net/StreamSocket.h>

#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "common/json_view.h"

namespace aev::http {

struct Request {
  std::string method;
  std::string path;  // without the query string
  std::map<std::string, std::string> pathParams;
  std::multimap<std::string, std::string> query;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  std::string requestId;
  std::string clientAddress;
  bool fromLoopback = false;
  std::string baseUrl;  // e.g. http://127.0.0.1:8080, for $schema links
  // Set when the handler asked for the body as JSON (jsonBody, jsonObjectView): the
  // dispatcher checks the route's OpenAPI documentation declares one.
  mutable bool jsonBodyRead = false;

  std::string header(const std::string& lowerName) const;
  std::optional<std::string> queryParam(const std::string& name) const;
  // As queryParam, but an empty value (`?agent=`) reads as absent: for optional filters.
  std::optional<std::string> queryFilter(const std::string& name) const;
  const std::string& param(const std::string& name) const;  // path parameter, throws if the route lacks it
  // Parses the body as a JSON object: 415 for another content type, 400 for bad JSON
  // or a non-object top level.
  Poco::JSON::Object::Ptr jsonBody() const;
  // The same body as a JsonView of its object (common/json_view.h), with the same checks
  // and errors; it reads this request's body, which must outlive it.
  JsonView jsonObjectView() const;
};

struct Response {
  int status = 200;
  std::string contentType = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  // Long-lived responses (SSE): the server writes the status line and headers, flushes,
  // detaches the connection from Poco and hands the socket here; the callee owns it.
  std::function<void(Poco::Net::StreamSocket&)> takeover;
  // A response completed later, on another thread (a publish answered by its group
  // commit, so no request thread waits for the fsync). The server calls deferred(complete)
  // once the handler returns; deferred must not block, and complete must be called exactly
  // once, with the answer or the exception that replaces it (rendered as a handler's
  // would be). An exception thrown by deferred itself means complete was not called.
  using Outcome = std::variant<Response*, std::exception_ptr>;
  using Complete = std::function<void(Outcome)>;
  std::function<void(Complete)> deferred;

  static Response json(int status, const Poco::JSON::Object::Ptr& object);
  static Response json(int status, const Poco::JSON::Array::Ptr& array);
  static Response noContent();
  static Response text(int status, std::string contentType, std::string body);
};

std::string stringify(const Poco::Dynamic::Var& value);

}  // namespace aev::http

#include "http/request.h"

#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>
#include <Poco/String.h>

#include <sstream>

#include "common/errors.h"
#include "common/json_parse.h"
#include "common/utf8.h"

namespace aev::http {

std::string Request::header(const std::string& lowerName) const {
  auto it = headers.find(lowerName);
  return it == headers.end() ? std::string() : it->second;
}

std::optional<std::string> Request::queryParam(const std::string& name) const {
  auto it = query.find(name);
  if (it == query.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> Request::queryFilter(const std::string& name) const {
  auto v = queryParam(name);
  if (!v || v->empty()) return std::nullopt;
  return v;
}

const std::string& Request::param(const std::string& name) const {
  auto it = pathParams.find(name);
  if (it == pathParams.end()) throw std::logic_error("route has no path parameter '" + name + "'");
  return it->second;
}

namespace {

[[noreturn]] void notAnObject() { throw errors::badRequest("The request body must be a JSON object."); }

// The media type and emptiness checks of a JSON body, before it is parsed.
void checkJsonContent(const Request& req) {
  std::string type = Poco::toLower(req.header("content-type"));
  auto semi = type.find(';');
  if (semi != std::string::npos) type = Poco::trim(type.substr(0, semi));
  if (!req.body.empty() && !type.empty() && type != "application/json" &&
      !(type.size() > 5 && type.compare(type.size() - 5, 5, "+json") == 0))
    throw errors::unsupportedMediaType("Send the body as application/json.");
  if (req.body.empty()) notAnObject();
}

[[noreturn]] void notJson(const JsonSyntaxError& e) {
  throw errors::badRequest(std::string("The request body is not valid JSON: ") + e.what() + ".");
}

}  // namespace

Poco::JSON::Object::Ptr Request::jsonBody() const {
  jsonBodyRead = true;
  checkJsonContent(*this);
  Poco::Dynamic::Var parsed;
  try {
    parsed = parseJson(body, 64);  // deeper documents are refused, not recursed into
  } catch (const JsonSyntaxError& e) {
    notJson(e);
  }
  if (parsed.type() != typeid(Poco::JSON::Object::Ptr)) notAnObject();
  return parsed.extract<Poco::JSON::Object::Ptr>();
}

JsonView Request::jsonObjectView() const {
  jsonBodyRead = true;
  checkJsonContent(*this);
  try {
    JsonView view(body, 64);
    if (view.kind(JsonView::kRoot) != JsonView::Kind::Object) notAnObject();
    return view;
  } catch (const JsonSyntaxError& e) {
    notJson(e);
  }
}

std::string stringify(const Poco::Dynamic::Var& value) {
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(value, out);
  // Poco copies ill-formed UTF-8 (a percent-decoded byte a problem quotes back) into the
  // text as it is; every answer must be valid UTF-8, so such bytes become U+FFFD here.
  return validUtf8(out.str());
}

Response Response::json(int status, const Poco::JSON::Object::Ptr& object) {
  Response r;
  r.status = status;
  r.body = stringify(object);
  return r;
}

Response Response::json(int status, const Poco::JSON::Array::Ptr& array) {
  Response r;
  r.status = status;
  r.body = stringify(array);
  return r;
}

Response Response::noContent() {
  Response r;
  r.status = 204;
  r.contentType.clear();
  return r;
}

Response Response::text(int status, std::string contentType, std::string body) {
  Response r;
  r.status = status;
  r.contentType = std::move(contentType);
  r.body = std::move(body);
  return r;
}

}  // namespace aev::http

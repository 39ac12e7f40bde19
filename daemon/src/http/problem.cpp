#include "http/problem.h"

namespace aev::http {

Poco::JSON::Object::Ptr problemBody(const ApiError& error, const std::string& instance) {
  Poco::JSON::Object::Ptr body = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  body->set("type", std::string(kProblemTypeBase) + error.slug());
  body->set("title", error.title());
  body->set("status", error.status());
  body->set("detail", error.detail());
  body->set("instance", instance);
  if (!error.fieldErrors().empty()) {
    Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
    for (const auto& f : error.fieldErrors()) {
      Poco::JSON::Object::Ptr item = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
      item->set("location", f.location);
      item->set("message", f.message);
      item->set("value", f.value);
      list->add(item);
    }
    body->set("errors", list);
  }
  return body;
}

Response problemResponse(const ApiError& error, const std::string& instance) {
  Response r = Response::json(error.status(), problemBody(error, instance));
  r.contentType = "application/problem+json";
  for (const auto& [name, value] : error.headers()) r.headers.emplace_back(name, value);
  return r;
}

}  // namespace aev::http

#include "http/problem.h"

#include <spdlog/spdlog.h>

#include "common/exceptions.h"
#include "common/storage_unavailable.h"

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

Response responseForFailure(std::exception_ptr error, const Request& req) {
  try {
    std::rethrow_exception(error);
  } catch (const ApiError& e) {
    return problemResponse(e, req.path);
  } catch (const StorageUnavailable& e) {
    // Not a bug of ours and not the client's: the disk or the database server. The client
    // may retry: its transaction reported failure, so it was not acknowledged.
    spdlog::error("request {} {} {}: the store is unavailable: {}", req.requestId, req.method, req.path, e.what());
    return problemResponse(
        errors::unavailable(
            "The store could not complete the request (a disk or database failure). Retry shortly; request id " +
                req.requestId,
            1),
        req.path);
  } catch (const std::exception& e) {
    spdlog::error("request {} {} {} failed: {}", req.requestId, req.method, req.path, describeException(e));
  } catch (...) {
    spdlog::error("request {} {} {} failed with a non-standard exception", req.requestId, req.method, req.path);
  }
  return problemResponse(
      ApiError(500, "internal", "Internal Server Error", "An internal error occurred; request id " + req.requestId),
      req.path);
}

}  // namespace aev::http

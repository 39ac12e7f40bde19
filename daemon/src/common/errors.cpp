#include "common/errors.h"

namespace aev::errors {

ApiError badRequest(const std::string& detail) { return {400, "bad-request", "Bad Request", detail}; }

ApiError unsupportedMediaType(const std::string& detail) {
  return {415, "unsupported-media-type", "Unsupported Media Type", detail};
}

ApiError validation(std::vector<FieldError> fields, const std::string& detail) {
  ApiError e(422, "validation", "Unprocessable Content", detail);
  for (auto& f : fields) e.withFieldError(std::move(f));
  return e;
}

ApiError invalidField(const std::string& location, const std::string& message, const std::string& value) {
  return validation({FieldError{location, message, value}}, location + ": " + message);
}

ApiError unauthorized(const std::string& detail) {
  ApiError e(401, "unauthorized", "Unauthorized", detail);
  e.withHeader("WWW-Authenticate", "Bearer realm=\"agent-events\"");
  return e;
}

ApiError forbidden(const std::string& detail) { return {403, "forbidden", "Forbidden", detail}; }

ApiError notFound(const std::string& what) { return {404, "not-found", "Not Found", what + " not found"}; }

ApiError conflict(const std::string& detail) { return {409, "conflict", "Conflict", detail}; }

ApiError payloadTooLarge(const std::string& detail) {
  return {413, "payload-too-large", "Content Too Large", detail};
}

ApiError tooManyRequests(const std::string& detail, int retryAfterSeconds) {
  ApiError e(429, "too-many-requests", "Too Many Requests", detail);
  e.withHeader("Retry-After", std::to_string(retryAfterSeconds < 1 ? 1 : retryAfterSeconds));
  return e;
}

ApiError methodNotAllowed(const std::string& allow) {
  ApiError e(405, "method-not-allowed", "Method Not Allowed", "Allowed methods: " + allow);
  e.withHeader("Allow", allow);
  return e;
}

ApiError unavailable(const std::string& detail, int retryAfterSeconds) {
  ApiError e(503, "unavailable", "Service Unavailable", detail);
  e.withHeader("Retry-After", std::to_string(retryAfterSeconds < 1 ? 1 : retryAfterSeconds));
  return e;
}

}  // namespace aev::errors

#pragma once
// Typed errors that services throw and the http module maps to one problem+json
// response (docs/api.md#errors). Services never build HTTP responses themselves.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace aev {

struct FieldError {
  std::string location;  // e.g. "body.name", "query.limit", "path.id"
  std::string message;
  std::string value;     // offending value as text ("" when absent)
};

class ApiError : public std::runtime_error {
 public:
  ApiError(int status, std::string slug, std::string title, std::string detail)
      : std::runtime_error(detail), status_(status), slug_(std::move(slug)), title_(std::move(title)) {}

  int status() const { return status_; }
  const std::string& slug() const { return slug_; }
  const std::string& title() const { return title_; }
  std::string detail() const { return what(); }
  const std::vector<FieldError>& fieldErrors() const { return fieldErrors_; }
  const std::map<std::string, std::string>& headers() const { return headers_; }

  ApiError& withFieldError(FieldError e) {
    fieldErrors_.push_back(std::move(e));
    return *this;
  }
  ApiError& withHeader(std::string name, std::string value) {
    headers_[std::move(name)] = std::move(value);
    return *this;
  }

 private:
  int status_;
  std::string slug_;
  std::string title_;
  std::vector<FieldError> fieldErrors_;
  std::map<std::string, std::string> headers_;
};

// Factories keep status, slug and title consistent across the code base.
namespace errors {
ApiError badRequest(const std::string& detail);
ApiError unsupportedMediaType(const std::string& detail);
ApiError validation(std::vector<FieldError> fields, const std::string& detail = "The request has invalid fields.");
ApiError invalidField(const std::string& location, const std::string& message, const std::string& value = "");
ApiError unauthorized(const std::string& detail);
ApiError forbidden(const std::string& detail);
ApiError notFound(const std::string& what);
ApiError conflict(const std::string& detail);
ApiError payloadTooLarge(const std::string& detail);
ApiError tooManyRequests(const std::string& detail, int retryAfterSeconds);
ApiError methodNotAllowed(const std::string& allow);
ApiError unavailable(const std::string& detail, int retryAfterSeconds);
}  // namespace errors

}  // namespace aev

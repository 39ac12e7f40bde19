#pragma once
// Reading typed fields out of a JSON body while collecting every problem, so a client
// gets all its mistakes in one 422 (docs/api.md#errors: errors[] with location/message/value).
#include <Poco/JSON/Object.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/errors.h"
#include "common/text.h"

namespace aev::http {

class BodyReader {
 public:
  explicit BodyReader(Poco::JSON::Object::Ptr body, std::string location = "body")
      : body_(std::move(body)), location_(std::move(location)) {}

  bool has(const std::string& field) const;
  // Strings are trimmed of nothing; lengths count UTF-8 code points.
  std::optional<std::string> string(const std::string& field, bool required, std::size_t minLen = 0,
                                    std::size_t maxLen = 100000);
  // As string(), but an explicit null is refused instead of read as absent: for fields
  // a PATCH cannot clear.
  std::optional<std::string> nonNullString(const std::string& field, bool required);
  std::optional<std::int64_t> integer(const std::string& field, bool required);
  std::optional<double> number(const std::string& field, bool required);  // integer or fraction
  // An id sent either as a JSON integer or as a decimal string (both shapes).
  std::optional<std::int64_t> id(const std::string& field, bool required);
  // A field the two shapes spell differently (channel_id / channelId): either may be sent,
  // both only with the same value; otherwise one problem per field, naming the other.
  // `required`: one of them must be there (the problem is recorded at `first`).
  std::optional<std::int64_t> idInEitherShape(const std::string& first, const std::string& second, bool required);
  std::optional<std::string> stringInEitherShape(const std::string& first, const std::string& second, bool required,
                                                 std::size_t minLen, std::size_t maxLen);
  std::optional<bool> boolean(const std::string& field, bool required);
  std::optional<std::vector<std::string>> stringArray(const std::string& field, bool required);
  std::optional<std::string> oneOf(const std::string& field, bool required, const std::vector<std::string>& allowed);

  void fail(const std::string& field, const std::string& message, const std::string& value = "");
  // Throws one 422 listing every recorded problem.
  void done() const;
  // As done(), and when the body has type problems the 422 also lists the value problems
  // (e.g. a service's problems() check) of the top-level fields that were well typed:
  // every mistake in one answer. valueProblems is called only then.
  void done(const std::function<std::vector<FieldError>()>& valueProblems) const;
  // The problems recorded so far, for a caller that reports them later (done() throws them).
  const std::vector<FieldError>& problems() const { return errors_; }
  const Poco::JSON::Object::Ptr& object() const { return body_; }

 private:
  std::string where(const std::string& field) const { return location_ + "." + field; }
  // The field's stored value, unless it is absent or null.
  const Poco::Dynamic::Var* present(const std::string& field) const;
  Poco::JSON::Object::Ptr body_;
  std::string location_;
  std::vector<FieldError> errors_;
};

// Path ids: a string that is not a positive decimal integer is a 404 (docs/api.md#the-two-shapes).
std::int64_t pathId(const std::string& value, const std::string& what);

// Query integers with range checks (422 outside).
std::int64_t queryInt(const std::optional<std::string>& value, const std::string& name, std::int64_t defaultValue,
                      std::int64_t min, std::int64_t max);

// An optional query value that must be one of `allowed` (422 naming them otherwise).
std::optional<std::string> queryChoice(const std::optional<std::string>& value, const std::string& name,
                                       const std::vector<std::string>& allowed);

// An optional RFC 3339 query time in µs (422 when present but not a timestamp).
std::optional<std::int64_t> queryTime(const std::optional<std::string>& value, const std::string& name);

}  // namespace aev::http

#include "http/body.h"

#include <Poco/JSON/Array.h>

#include <algorithm>
#include <set>
#include <type_traits>

#include "common/clock.h"
#include "common/invalid_fields.h"
#include "common/text.h"
#include "http/request.h"

namespace aev::http {

namespace {
// A JSON integer within Int64: parseJson gives larger ones as UInt64, which would not
// convert (a 500 instead of the 422 they deserve).
bool fitsInt64(const Poco::Dynamic::Var& v) { return v.isInteger() && v.type() != typeid(Poco::UInt64); }
}  // namespace

const Poco::Dynamic::Var* BodyReader::present(const std::string& field) const {
  // The members are a std::map, so sorted: stop at the first key past the field. (Object
  // has no find() that returns the stored value; get() copies it.)
  const Poco::JSON::Object& members = *body_;
  for (auto it = members.begin(); it != members.end(); ++it) {
    const int order = it->first.compare(field);
    if (order == 0) return it->second.isEmpty() ? nullptr : &it->second;
    if (order > 0) break;
  }
  return nullptr;
}

bool BodyReader::has(const std::string& field) const { return present(field) != nullptr; }

void BodyReader::fail(const std::string& field, const std::string& message, const std::string& value) {
  errors_.push_back({where(field), message, value});
}

std::optional<std::string> BodyReader::nonNullString(const std::string& field, bool required) {
  if (body_->has(field) && body_->isNull(field)) {
    fail(field, "must be a string", "null");
    return std::nullopt;
  }
  return string(field, required);
}

std::optional<std::string> BodyReader::string(const std::string& field, bool required, std::size_t minLen,
                                              std::size_t maxLen) {
  const auto* v = present(field);
  if (!v) {
    if (required) fail(field, "is required");
    return std::nullopt;
  }
  if (!v->isString()) {
    fail(field, "must be a string", stringify(*v));
    return std::nullopt;
  }
  std::string s = v->type() == typeid(std::string) ? v->extract<std::string>() : v->convert<std::string>();
  auto len = utf8Length(s);
  if (len < minLen || len > maxLen) {
    fail(field,
         minLen > 0 ? "must be " + std::to_string(minLen) + " to " + std::to_string(maxLen) + " characters"
                    : "must be at most " + std::to_string(maxLen) + " characters",
         s.substr(0, 200));
    return std::nullopt;
  }
  return s;
}

std::optional<std::int64_t> BodyReader::integer(const std::string& field, bool required) {
  const auto* found = present(field);
  if (!found) {
    if (required) fail(field, "is required");
    return std::nullopt;
  }
  const auto& v = *found;
  if (!fitsInt64(v)) {
    fail(field, "must be an integer", stringify(v));
    return std::nullopt;
  }
  return v.convert<Poco::Int64>();
}

std::optional<double> BodyReader::number(const std::string& field, bool required) {
  const auto* found = present(field);
  if (!found) {
    if (required) fail(field, "is required");
    return std::nullopt;
  }
  const auto& v = *found;
  if (!v.isNumeric() || v.type() == typeid(bool)) {
    fail(field, "must be a number", stringify(v));
    return std::nullopt;
  }
  return v.convert<double>();
}

std::optional<std::int64_t> BodyReader::id(const std::string& field, bool required) {
  const auto* found = present(field);
  if (!found) {
    if (required) fail(field, "is required");
    return std::nullopt;
  }
  const auto& v = *found;
  if (fitsInt64(v)) return v.convert<Poco::Int64>();
  if (v.isString()) {
    if (auto out = parseInt64(v.extract<std::string>())) return out;
  }
  fail(field, "must be an integer id or its decimal string", stringify(v));
  return std::nullopt;
}

std::optional<bool> BodyReader::boolean(const std::string& field, bool required) {
  const auto* found = present(field);
  if (!found) {
    if (required) fail(field, "is required");
    return std::nullopt;
  }
  const auto& v = *found;
  if (!v.isBoolean()) {
    fail(field, "must be a boolean", stringify(v));
    return std::nullopt;
  }
  return v.convert<bool>();
}

namespace {

template <typename T>
std::string shownValue(const T& v) {
  if constexpr (std::is_same_v<T, std::string>)
    return v;
  else
    return std::to_string(v);
}

// Both spellings were sent: equal values stand, anything else is a problem at each.
template <typename T>
std::optional<T> agreeing(BodyReader& body, const std::string& first, const std::optional<T>& a,
                          const std::string& second, const std::optional<T>& b) {
  if (a && b && *a == *b) return a;
  const std::string rule = "send one of the two, or both with the same value";
  if (a && b) {
    body.fail(first, "differs from " + second + " (" + shownValue(*b) + "): " + rule, shownValue(*a));
    body.fail(second, "differs from " + first + " (" + shownValue(*a) + "): " + rule, shownValue(*b));
  } else if (a) {
    body.fail(first, "is sent with " + second + ", which is invalid: " + rule, shownValue(*a));
  } else if (b) {
    body.fail(second, "is sent with " + first + ", which is invalid: " + rule, shownValue(*b));
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::int64_t> BodyReader::idInEitherShape(const std::string& first, const std::string& second,
                                                        bool required) {
  if (!has(first) || !has(second)) return id(has(second) ? second : first, required);
  auto a = id(first, false);
  auto b = id(second, false);
  return agreeing(*this, first, a, second, b);
}

std::optional<std::string> BodyReader::stringInEitherShape(const std::string& first, const std::string& second,
                                                           bool required, std::size_t minLen, std::size_t maxLen) {
  if (!has(first) || !has(second)) return string(has(second) ? second : first, required, minLen, maxLen);
  auto a = string(first, false, minLen, maxLen);
  auto b = string(second, false, minLen, maxLen);
  return agreeing(*this, first, a, second, b);
}

std::optional<std::vector<std::string>> BodyReader::stringArray(const std::string& field, bool required) {
  if (!has(field)) {
    if (required) fail(field, "is required");
    return std::nullopt;
  }
  auto arr = body_->getArray(field);
  if (!arr) {
    fail(field, "must be an array of strings", stringify(body_->get(field)));
    return std::nullopt;
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < arr->size(); ++i) {
    auto v = arr->get(i);
    if (!v.isString()) {
      fail(field + "[" + std::to_string(i) + "]", "must be a string", stringify(v));
      return std::nullopt;
    }
    out.push_back(v.convert<std::string>());
  }
  return out;
}

std::optional<std::string> BodyReader::oneOf(const std::string& field, bool required,
                                             const std::vector<std::string>& allowed) {
  auto s = string(field, required);
  if (!s) return s;
  for (const auto& a : allowed)
    if (a == *s) return s;
  fail(field, "must be one of: " + joinWithCommas(allowed), *s);
  return std::nullopt;
}

void BodyReader::done() const {
  if (!errors_.empty()) throw errors::invalidFields(errors_);
}

namespace {
// "body.rungs[1].at_percent" → "body.rungs": the top-level field a problem is about.
std::string topField(const std::string& location) {
  const auto dot = location.find('.');
  const auto end = location.find_first_of(".[", dot == std::string::npos ? 0 : dot + 1);
  return location.substr(0, end);
}
}  // namespace

void BodyReader::done(const std::function<std::vector<FieldError>()>& valueProblems) const {
  try {
    done();
  } catch (ApiError& typeProblems) {
    // A field with a type problem was not (fully) read: its value checks would mislead.
    std::set<std::string> mistyped;
    for (const auto& f : typeProblems.fieldErrors()) mistyped.insert(topField(f.location));
    for (auto& f : valueProblems())
      if (!mistyped.count(topField(f.location))) typeProblems.withFieldError(std::move(f));
    throw;
  }
}

std::int64_t pathId(const std::string& value, const std::string& what) {
  const auto out = parseInt64(value);
  if (!out || *out <= 0) throw errors::notFound(what);
  return *out;
}

std::int64_t queryInt(const std::optional<std::string>& value, const std::string& name, std::int64_t defaultValue,
                      std::int64_t min, std::int64_t max) {
  if (!value || value->empty()) return defaultValue;
  const auto out = parseInt64(*value);
  if (!out || *out < min || *out > max)
    throw errors::invalidField("query." + name,
                               "must be an integer from " + std::to_string(min) + " to " + std::to_string(max), *value);
  return *out;
}

std::optional<std::string> queryChoice(const std::optional<std::string>& value, const std::string& name,
                                       const std::vector<std::string>& allowed) {
  if (value && std::find(allowed.begin(), allowed.end(), *value) == allowed.end())
    throw errors::invalidField("query." + name, "must be one of " + joinWithCommas(allowed), value->substr(0, 200));
  return value;
}

std::optional<std::int64_t> queryTime(const std::optional<std::string>& value, const std::string& name) {
  if (!value || value->empty()) return std::nullopt;
  auto micros = clock::parseRfc3339(*value);
  if (!micros) throw errors::invalidField("query." + name, "must be an RFC 3339 timestamp", *value);
  return micros;
}

}  // namespace aev::http

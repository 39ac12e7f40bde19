#include "audit/canonical_json.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/json_parse.h"
#include "common/json_text.h"

namespace aev::audit {

namespace {

void appendCanonicalNumber(std::string& out, double d) {
  if (!std::isfinite(d)) throw std::invalid_argument("canonical JSON has no form for NaN or infinity");
  if (d == std::trunc(d) && std::fabs(d) < 1e15) {
    out += std::to_string(static_cast<long long>(d));
    return;
  }
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, d);  // shortest round-trip form
  out.append(buf, res.ptr);
}

void append(std::string& out, const Poco::Dynamic::Var& v);

void appendObject(std::string& out, const Poco::JSON::Object& obj) {
  std::vector<std::string> keys;
  for (const auto& [key, _] : obj) keys.push_back(key);
  std::sort(keys.begin(), keys.end());  // std::string compares bytes
  out += '{';
  bool first = true;
  for (const auto& key : keys) {
    if (!first) out += ',';
    first = false;
    appendJsonString(out, key);
    out += ':';
    append(out, obj.get(key));
  }
  out += '}';
}

void appendArray(std::string& out, const Poco::JSON::Array& arr) {
  out += '[';
  for (std::size_t i = 0; i < arr.size(); ++i) {
    if (i) out += ',';
    append(out, arr.get(static_cast<unsigned>(i)));
  }
  out += ']';
}

void append(std::string& out, const Poco::Dynamic::Var& v) {
  if (v.isEmpty()) {
    out += "null";
  } else if (v.type() == typeid(Poco::JSON::Object::Ptr)) {
    auto p = v.extract<Poco::JSON::Object::Ptr>();
    if (p.isNull())
      out += "null";
    else
      appendObject(out, *p);
  } else if (v.type() == typeid(Poco::JSON::Object)) {
    appendObject(out, v.extract<Poco::JSON::Object>());
  } else if (v.type() == typeid(Poco::JSON::Array::Ptr)) {
    auto p = v.extract<Poco::JSON::Array::Ptr>();
    if (p.isNull())
      out += "null";
    else
      appendArray(out, *p);
  } else if (v.type() == typeid(Poco::JSON::Array)) {
    appendArray(out, v.extract<Poco::JSON::Array>());
  } else if (v.type() == typeid(bool)) {
    out += v.extract<bool>() ? "true" : "false";
  } else if (v.isString()) {
    appendJsonString(out, v.toString());
  } else if (v.isInteger()) {
    out += v.isSigned() ? std::to_string(v.convert<Poco::Int64>()) : std::to_string(v.convert<Poco::UInt64>());
  } else if (v.isNumeric()) {
    appendCanonicalNumber(out, v.convert<double>());
  } else {
    throw std::invalid_argument("canonical JSON: unsupported value of type " + std::string(v.type().name()));
  }
}

}  // namespace

std::string canonicalJson(const Poco::Dynamic::Var& value) {
  std::string out;
  append(out, value);
  return out;
}

std::string canonicalizeText(const std::string& jsonText) {
  // The daemon's strict reader, not Poco::JSON::Parser: Poco wraps integers beyond 64
  // bits (18446744073709551616 read as 0), so two different documents had one canonical
  // form, and it refused some of the numbers it had read when given them back.
  return canonicalJson(parseJson(jsonText, 1000));
}

}  // namespace aev::audit

#include "common/json_condense.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Stringifier.h>
#include <Poco/JSONString.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <vector>

#include "common/utf8.h"

namespace aev {

namespace {

void appendByPoco(std::string& out, const Poco::Dynamic::Var& value) {
  std::ostringstream text;
  Poco::JSON::Stringifier::condense(value, text);
  appendValidUtf8(out, text.str());  // Poco copies ill-formed UTF-8 through
}

bool needsNoEscaping(std::string_view s) {
  for (const unsigned char ch : s)
    if (ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\' || ch == '/') return false;
  return true;
}

}  // namespace

void appendPocoJsonString(std::string& out, std::string_view s) {
  if (needsNoEscaping(s)) {
    out += '"';
    out += s;
    out += '"';
  } else {
    appendValidUtf8(out,
                    Poco::toJSON(std::string(s), Poco::JSON_WRAP_STRINGS));  // Poco copies ill-formed UTF-8 through
  }
}

namespace {

// Stringifier::condense's text; AnyOrder: objects in the order Object::getNames() gives,
// which is the insertion order of a JSON_PRESERVE_KEY_ORDER object and the key order of
// any other (what Stringifier follows too).
template <bool AnyOrder>
void appendCondensed(std::string& out, const Poco::Dynamic::Var& value) {
  const auto& type = value.type();
  if (type == typeid(Poco::JSON::Object::Ptr)) {
    const auto& object = value.extract<Poco::JSON::Object::Ptr>();
    if (!object || object->getEscapeUnicode()) return appendByPoco(out, value);
    out += '{';
    bool first = true;
    if constexpr (AnyOrder) {
      // The members by reference (Object::get copies a value out), in key order as the
      // object holds them; then written in the order getNames() gives.
      std::vector<const Poco::JSON::Object::ValueType*> members;
      members.reserve(object->size());
      for (const auto& member : *object) members.push_back(&member);
      const auto names = object->getNames();
      for (std::size_t i = 0; i < names.size(); ++i) {
        const auto* member = members[i];
        if (member->first != names[i]) {  // inserted out of key order: find it
          member = *std::lower_bound(members.begin(), members.end(), names[i],
                                     [](const auto* m, const std::string& key) { return m->first < key; });
        }
        if (!first) out += ',';
        first = false;
        appendPocoJsonString(out, member->first);
        out += ':';
        appendCondensed<AnyOrder>(out, member->second);
      }
    } else {
      for (const auto& [key, member] : *object) {
        if (!first) out += ',';
        first = false;
        appendPocoJsonString(out, key);
        out += ':';
        appendCondensed<AnyOrder>(out, member);
      }
    }
    out += '}';
  } else if (type == typeid(Poco::JSON::Array::Ptr)) {
    const auto& array = value.extract<Poco::JSON::Array::Ptr>();
    if (!array || array->getEscapeUnicode()) return appendByPoco(out, value);
    out += '[';
    bool first = true;
    for (const auto& element : *array) {
      if (!first) out += ',';
      first = false;
      appendCondensed<AnyOrder>(out, element);
    }
    out += ']';
  } else if (type == typeid(std::string)) {
    appendPocoJsonString(out, value.extract<std::string>());
  } else if (type == typeid(Poco::Int64)) {
    out += std::to_string(value.extract<Poco::Int64>());
  } else if (type == typeid(int)) {
    out += std::to_string(value.extract<int>());
  } else if (type == typeid(bool)) {
    out += value.extract<bool>() ? "true" : "false";
  } else if (type == typeid(double)) {
    appendJsonDouble(out, value.extract<double>());  // what Stringifier writes for any number
  } else if (type == typeid(Poco::UInt64)) {
    out += std::to_string(value.extract<Poco::UInt64>());
  } else if (type == typeid(Poco::UInt32)) {
    out += std::to_string(value.extract<Poco::UInt32>());
  } else if (value.isEmpty()) {
    out += "null";
  } else {
    appendByPoco(out, value);  // anything else: Poco's own text
  }
}

}  // namespace

void appendJsonDouble(std::string& out, double value) {
  // Var's text of a double is double-conversion's shortest round-trip digits, in fixed
  // notation while the decimal exponent is within ±15 (Poco::NumberFormatter::format);
  // std::to_chars in fixed notation gives the same digits there (json_condense_test holds
  // the two together), at a fraction of the cost. Zero (Poco writes -0 as 0), very small,
  // very large and non-finite values: Poco's own text.
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e-5 && magnitude < 1e15) {
    char buffer[48];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
    if (error == std::errc()) {
      out.append(buffer, end);
      return;
    }
  }
  out += Poco::Dynamic::Var(value).convert<std::string>();
}

void appendCondensedJson(std::string& out, const Poco::Dynamic::Var& value) { appendCondensed<false>(out, value); }

void appendCondensedJsonAnyOrder(std::string& out, const Poco::Dynamic::Var& value) {
  appendCondensed<true>(out, value);
}

std::string condensedJsonAnyOrder(const Poco::Dynamic::Var& value) {
  std::string out;
  appendCondensedJsonAnyOrder(out, value);
  return out;
}

std::string condensedJson(const Poco::Dynamic::Var& value) {
  std::string out;
  appendCondensedJson(out, value);
  return out;
}

}  // namespace aev

#include "otlp/attribute_json.h"

#include <Poco/JSON/Array.h>

#include <cmath>

#include "common/encoding.h"
#include "common/json_condense.h"

namespace aev::otlp {

namespace {

Poco::Dynamic::Var doubleValue(double d) {
  if (std::isnan(d)) return std::string("NaN");
  if (std::isinf(d)) return std::string(d > 0 ? "Infinity" : "-Infinity");
  return d;
}

}  // namespace

Poco::Dynamic::Var jsonValue(const AnyValue& value) {
  switch (value.kind) {
    case AnyValue::Kind::String: return value.text;
    case AnyValue::Kind::Bool: return value.boolean;
    case AnyValue::Kind::Int: return static_cast<Poco::Int64>(value.integer);
    case AnyValue::Kind::Double: return doubleValue(value.real);
    case AnyValue::Kind::Bytes:
      return base64Encode(value.text);
    case AnyValue::Kind::Array: {
      Poco::JSON::Array::Ptr array = new Poco::JSON::Array;
      for (const auto& element : value.array) array->add(jsonValue(element));
      return array;
    }
    case AnyValue::Kind::KvList: return attributeObject(value.kvlist);
    case AnyValue::Kind::Empty: break;
  }
  return {};  // stringifies as null
}

void appendJsonValue(std::string& out, const AnyValue& value) {
  switch (value.kind) {
    case AnyValue::Kind::String:
      return appendPocoJsonString(out, value.text);
    case AnyValue::Kind::Bool:
      out += value.boolean ? "true" : "false";
      return;
    case AnyValue::Kind::Int:
      out += std::to_string(value.integer);
      return;
    case AnyValue::Kind::Bytes:
      return appendPocoJsonString(out, base64Encode(value.text));
    case AnyValue::Kind::Double:
      if (std::isfinite(value.real)) return appendJsonDouble(out, value.real);
      break;  // NaN and the infinities: the strings jsonValue makes of them
    case AnyValue::Kind::Empty:
      out += "null";
      return;
    case AnyValue::Kind::Array:  // gen_ai.response.finish_reasons, tags: no Poco array for them
      out += '[';
      for (std::size_t i = 0; i < value.array.size(); ++i) {
        if (i) out += ',';
        appendJsonValue(out, value.array[i]);
      }
      out += ']';
      return;
    default:
      break;  // kvlists (sorted, last key wins): as the tree writes them
  }
  appendCondensedJson(out, jsonValue(value));
}

Poco::JSON::Object::Ptr attributeObject(const std::vector<KeyValue>& attributes) {
  Poco::JSON::Object::Ptr object = new Poco::JSON::Object;
  for (const auto& kv : attributes) object->set(kv.key, jsonValue(kv.value));
  return object;
}

const AnyValue* findAttribute(const std::vector<KeyValue>& attributes, std::string_view key) {
  for (const auto& kv : attributes)
    if (kv.key == key) return &kv.value;
  return nullptr;
}

}  // namespace aev::otlp

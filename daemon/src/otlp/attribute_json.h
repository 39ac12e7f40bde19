#pragma once
// OTLP attribute values as plain JSON, the form event metadata and payloads store:
// strings, bools and numbers as themselves (int64 as a JSON integer), arrays and kvlists
// as JSON arrays and objects, bytes as standard base64, an empty value as null. Doubles
// JSON cannot hold (NaN, ±Infinity) become the strings the proto3 JSON mapping uses.
#include <Poco/Dynamic/Var.h>
#include <Poco/JSON/Object.h>

#include <string>
#include <string_view>
#include <vector>

#include "otlp/trace_model.h"

namespace aev::otlp {

Poco::Dynamic::Var jsonValue(const AnyValue& value);
// The condensed JSON text of jsonValue(value) (common/json_condense.h's bytes), the scalars
// written straight from the value.
void appendJsonValue(std::string& out, const AnyValue& value);

// {key: value, ...}; with duplicate keys (which OTLP forbids) the last one wins.
Poco::JSON::Object::Ptr attributeObject(const std::vector<KeyValue>& attributes);

// The value of the first attribute named `key`, or nullptr.
const AnyValue* findAttribute(const std::vector<KeyValue>& attributes, std::string_view key);

}  // namespace aev::otlp

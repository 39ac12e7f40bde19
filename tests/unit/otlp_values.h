#pragma once
// OTLP attribute values (otlp/trace_model.h) for unit tests, one maker a kind.
#include <cstdint>
#include <string>
#include <vector>

#include "otlp/trace_model.h"

namespace aev::otlp::test_values {

inline AnyValue str(std::string s) {
  AnyValue v;
  v.kind = AnyValue::Kind::String;
  v.text = std::move(s);
  return v;
}

inline AnyValue num(std::int64_t i) {
  AnyValue v;
  v.kind = AnyValue::Kind::Int;
  v.integer = i;
  return v;
}

inline AnyValue real(double d) {
  AnyValue v;
  v.kind = AnyValue::Kind::Double;
  v.real = d;
  return v;
}

inline AnyValue boolean(bool b) {
  AnyValue v;
  v.kind = AnyValue::Kind::Bool;
  v.boolean = b;
  return v;
}

inline AnyValue bytes(std::string raw) {
  AnyValue v = str(std::move(raw));
  v.kind = AnyValue::Kind::Bytes;
  return v;
}

inline AnyValue array(std::vector<AnyValue> elements) {
  AnyValue v;
  v.kind = AnyValue::Kind::Array;
  v.array = std::move(elements);
  return v;
}

inline AnyValue kvlist(std::vector<KeyValue> members) {
  AnyValue v;
  v.kind = AnyValue::Kind::KvList;
  v.kvlist = std::move(members);
  return v;
}

}  // namespace aev::otlp::test_values

// ExportTraceServiceRequest from OTLP/JSON. Errors name the JSON path of the offending
// value ("resourceSpans[0].scopeSpans[0].spans[2].startTimeUnixNano") so a sender can
// find it in a large batch.
#include <Poco/Exception.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <charconv>
#include <cmath>
#include <limits>

#include "common/encoding.h"
#include "common/json_parse.h"
#include "otlp/ingest_error.h"
#include "otlp/protobuf_reader.h"
#include "otlp/trace_decode.h"

namespace aev::otlp {

namespace {

using Poco::Dynamic::Var;
using Poco::JSON::Array;
using Poco::JSON::Object;

[[noreturn]] void malformed(const std::string& path, const std::string& why) {
  throw IngestError(IngestFailure::Malformed, "The JSON request is malformed: " + path + " " + why + ".");
}

std::string snakeCase(std::string_view camel) {
  std::string out;
  for (char c : camel) {
    if (c >= 'A' && c <= 'Z') {
      out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

// The value of a field by its lowerCamelCase JSON name, else by its proto (snake_case)
// name; an empty Var when absent or null (proto3 JSON reads null as the default).
Var member(const Object& object, const std::string& camelName) {
  if (object.has(camelName) && !object.isNull(camelName)) return object.get(camelName);
  const std::string snake = snakeCase(camelName);
  if (snake != camelName && object.has(snake) && !object.isNull(snake)) return object.get(snake);
  return {};
}

std::string child(const std::string& path, const std::string& name) { return path.empty() ? name : path + "." + name; }
std::string item(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

const Object& asObject(const Var& v, const std::string& path) {
  if (v.type() != typeid(Object::Ptr)) malformed(path, "must be an object");
  const auto& ptr = v.extract<Object::Ptr>();
  if (ptr.isNull()) malformed(path, "must be an object");
  return *ptr;
}

const Array& asArray(const Var& v, const std::string& path) {
  if (v.type() != typeid(Array::Ptr)) malformed(path, "must be an array");
  const auto& ptr = v.extract<Array::Ptr>();
  if (ptr.isNull()) malformed(path, "must be an array");
  return *ptr;
}

// Calls fn(element, elementPath) for each element of an optional array field.
template <class Fn>
void eachElement(const Object& object, const std::string& camelName, const std::string& path, Fn&& fn) {
  const Var v = member(object, camelName);
  if (v.isEmpty()) return;
  const std::string arrayPath = child(path, camelName);
  const Array& array = asArray(v, arrayPath);
  for (std::size_t i = 0; i < array.size(); ++i) fn(array.get(i), item(arrayPath, i));
}

std::string asString(const Var& v, const std::string& path) {
  if (!v.isString()) malformed(path, "must be a string");
  return v.extract<std::string>();
}

std::string stringField(const Object& object, const std::string& camelName, const std::string& path) {
  const Var v = member(object, camelName);
  return v.isEmpty() ? std::string() : asString(v, child(path, camelName));
}

// A whole JSON number or decimal string in [min, max]. proto3 JSON writes 64-bit
// integers as strings (JavaScript loses precision past 2^53) and accepts both.
template <class Int>
Int integerIn(const Var& v, const std::string& path) {
  Int out{};
  if (v.isString()) {
    const auto& s = v.extract<std::string>();
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) malformed(path, "must be an integer");
    return out;
  }
  if (v.isBoolean() || !v.isNumeric()) malformed(path, "must be an integer");
  try {
    if (v.isInteger()) return v.convert<Int>();  // throws RangeException when out of range
    const double d = v.convert<double>();        // 1e3 or 12.0: whole numbers in another spelling
    if (std::trunc(d) == d && d >= static_cast<double>(std::numeric_limits<Int>::min()) &&
        d < static_cast<double>(std::numeric_limits<Int>::max()))
      return static_cast<Int>(d);
  } catch (const Poco::Exception&) {
  }
  malformed(path, "is out of range or not a whole number");
}

template <class Int>
Int integerField(const Object& object, const std::string& camelName, const std::string& path) {
  const Var v = member(object, camelName);
  return v.isEmpty() ? Int{} : integerIn<Int>(v, child(path, camelName));
}

// proto3 JSON doubles: numbers, numeric strings, or "NaN" / "Infinity" / "-Infinity".
double doubleIn(const Var& v, const std::string& path) {
  if (v.isString()) {
    const auto& s = v.extract<std::string>();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
    double out = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) malformed(path, "must be a number");
    return out;
  }
  if (v.isBoolean() || !v.isNumeric()) malformed(path, "must be a number");
  return v.convert<double>();
}

// Trace and span ids are hex text in OTLP/JSON. Text that is not hex spoils this span
// only, so it is noted on the span instead of failing the request.
std::string idField(const Object& object, const std::string& camelName, const std::string& path, Span& span) {
  const std::string text = stringField(object, camelName, path);
  auto bytes = hexDecode(text);
  if (bytes) return *bytes;
  if (span.idProblem.empty()) span.idProblem = camelName + " is not hex";
  return {};
}

std::vector<KeyValue> keyValues(const Object& object, const std::string& camelName, const std::string& path);

// common.v1.AnyValue: {"stringValue"} | {"boolValue"} | {"intValue"} | {"doubleValue"} |
// {"arrayValue": {"values": [...]}} | {"kvlistValue": {"values": [...]}} | {"bytesValue": base64}
// | {} (empty). The recursion is bounded by the parser's depth limit.
AnyValue anyValue(const Var& v, const std::string& path) {
  const Object& object = asObject(v, path);
  AnyValue out;
  if (Var s = member(object, "stringValue"); !s.isEmpty()) {
    out.kind = AnyValue::Kind::String;
    out.text = asString(s, child(path, "stringValue"));
  } else if (Var b = member(object, "boolValue"); !b.isEmpty()) {
    if (!b.isBoolean()) malformed(child(path, "boolValue"), "must be true or false");
    out.kind = AnyValue::Kind::Bool;
    out.boolean = b.extract<bool>();
  } else if (Var i = member(object, "intValue"); !i.isEmpty()) {
    out.kind = AnyValue::Kind::Int;
    out.integer = integerIn<std::int64_t>(i, child(path, "intValue"));
  } else if (Var d = member(object, "doubleValue"); !d.isEmpty()) {
    out.kind = AnyValue::Kind::Double;
    out.real = doubleIn(d, child(path, "doubleValue"));
  } else if (Var a = member(object, "arrayValue"); !a.isEmpty()) {
    const std::string arrayPath = child(path, "arrayValue");
    out.kind = AnyValue::Kind::Array;
    eachElement(asObject(a, arrayPath), "values", arrayPath,
                [&](const Var& e, const std::string& p) { out.array.push_back(anyValue(e, p)); });
  } else if (Var kv = member(object, "kvlistValue"); !kv.isEmpty()) {
    const std::string listPath = child(path, "kvlistValue");
    out.kind = AnyValue::Kind::KvList;
    out.kvlist = keyValues(asObject(kv, listPath), "values", listPath);
  } else if (Var bytes = member(object, "bytesValue"); !bytes.isEmpty()) {
    const std::string bytesPath = child(path, "bytesValue");
    auto decoded = base64DecodeAnyAlphabet(asString(bytes, bytesPath));
    if (!decoded) malformed(bytesPath, "must be base64");
    out.kind = AnyValue::Kind::Bytes;
    out.text = std::move(*decoded);
  }
  return out;
}

// A repeated common.v1.KeyValue field: [{"key": "...", "value": {AnyValue}}, ...].
std::vector<KeyValue> keyValues(const Object& object, const std::string& camelName, const std::string& path) {
  std::vector<KeyValue> out;
  eachElement(object, camelName, path, [&](const Var& e, const std::string& p) {
    const Object& kv = asObject(e, p);
    KeyValue entry;
    entry.key = stringField(kv, "key", p);
    if (Var value = member(kv, "value"); !value.isEmpty()) entry.value = anyValue(value, child(p, "value"));
    out.push_back(std::move(entry));
  });
  return out;
}

Span span(const Object& o, const std::string& path) {
  Span s;
  s.traceId = idField(o, "traceId", path, s);
  s.spanId = idField(o, "spanId", path, s);
  s.parentSpanId = idField(o, "parentSpanId", path, s);
  s.traceState = stringField(o, "traceState", path);
  s.name = stringField(o, "name", path);
  s.kind = integerField<std::int32_t>(o, "kind", path);
  s.startTimeUnixNano = integerField<std::uint64_t>(o, "startTimeUnixNano", path);
  s.endTimeUnixNano = integerField<std::uint64_t>(o, "endTimeUnixNano", path);
  s.attributes = keyValues(o, "attributes", path);
  s.droppedAttributesCount = integerField<std::uint32_t>(o, "droppedAttributesCount", path);
  eachElement(o, "events", path, [&](const Var& e, const std::string& p) {
    const Object& event = asObject(e, p);
    SpanEventRecord record;
    record.timeUnixNano = integerField<std::uint64_t>(event, "timeUnixNano", p);
    record.name = stringField(event, "name", p);
    record.attributes = keyValues(event, "attributes", p);
    s.events.push_back(std::move(record));
  });
  eachElement(o, "links", path, [&](const Var& e, const std::string& p) {
    asObject(e, p);
    ++s.linkCount;
  });
  if (Var st = member(o, "status"); !st.isEmpty()) {
    const std::string statusPath = child(path, "status");
    const Object& status = asObject(st, statusPath);
    s.statusMessage = stringField(status, "message", statusPath);
    s.statusCode = integerField<std::int32_t>(status, "code", statusPath);
  }
  return s;
}

ScopeSpans scopeSpans(const Object& o, const std::string& path) {
  ScopeSpans out;
  if (Var sc = member(o, "scope"); !sc.isEmpty()) {
    const std::string scopePath = child(path, "scope");
    const Object& scope = asObject(sc, scopePath);
    out.scopeName = stringField(scope, "name", scopePath);
    out.scopeVersion = stringField(scope, "version", scopePath);
  }
  eachElement(o, "spans", path,
              [&](const Var& e, const std::string& p) { out.spans.push_back(span(asObject(e, p), p)); });
  return out;
}

ResourceSpans resourceSpans(const Object& o, const std::string& path) {
  ResourceSpans out;
  if (Var r = member(o, "resource"); !r.isEmpty()) {
    const std::string resourcePath = child(path, "resource");
    out.resourceAttributes = keyValues(asObject(r, resourcePath), "attributes", resourcePath);
  }
  eachElement(o, "scopeSpans", path,
              [&](const Var& e, const std::string& p) { out.scopeSpans.push_back(scopeSpans(asObject(e, p), p)); });
  return out;
}

}  // namespace

TraceRequest decodeTraceRequestJson(std::string_view text) {
  Var root;
  try {
    // The strict reader of request bodies (common/json_parse.h): it refuses ill-formed
    // UTF-8 and \u0000, which Poco's parser lets through to a store that cannot hold them.
    // Every level of the document is a level of recursion here and in the parser: the
    // same bound as the protobuf reader's keeps a nesting bomb off the stack. A span
    // attribute sits ten levels down, which leaves room for nested AnyValue arrays and maps.
    root = parseJson(text, ProtobufReader::kMaxNesting);
  } catch (const Poco::Exception& e) {
    throw IngestError(IngestFailure::Malformed, "The request body is not valid JSON: " + e.displayText());
  } catch (const std::exception& e) {
    throw IngestError(IngestFailure::Malformed, std::string("The request body is not valid JSON: ") + e.what());
  }
  TraceRequest request;
  eachElement(asObject(root, "the body"), "resourceSpans", "", [&](const Var& e, const std::string& p) {
    request.resourceSpans.push_back(resourceSpans(asObject(e, p), p));
  });
  return request;
}

}  // namespace aev::otlp

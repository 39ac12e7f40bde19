// ExportTraceServiceRequest from OTLP/JSON. Errors name the JSON path of the offending
// value ("resourceSpans[0].scopeSpans[0].spans[2].startTimeUnixNano") so a sender can
// find it in a large batch.
#include <Poco/Exception.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include "common/encoding.h"
#include "common/json_view.h"
#include "otlp/ingest_error.h"
#include "otlp/protobuf_reader.h"
#include "otlp/trace_decode.h"

namespace aev::otlp {

namespace {

using Poco::Dynamic::Var;
using Node = std::uint32_t;
using JsonKind = JsonView::Kind;  // not Kind: span_events.cpp's shares the otlp unity batch

// Where a value sits ("resourceSpans[0].scopeSpans[0].spans[2].startTimeUnixNano"), kept
// as links to its parents and written out only for an error message.
struct Path {
  const Path* parent = nullptr;
  std::string_view name;  // a member's name, or "" for an array element
  std::size_t index = 0;  // an array element's index
  std::string_view text;  // the whole path as given (the root: "" or "the body")

  Path child(std::string_view member) const { return {this, member, 0, {}}; }
  Path item(std::size_t i) const { return {this, {}, i, {}}; }

  std::string str() const {
    if (!parent) return std::string(text);
    std::string out = parent->str();
    if (name.empty()) return out + "[" + std::to_string(index) + "]";
    return out.empty() ? std::string(name) : out + "." + std::string(name);
  }
};

[[noreturn]] void malformed(const Path& path, const std::string& why) {
  throw IngestError(IngestFailure::Malformed, "The JSON request is malformed: " + path.str() + " " + why + ".");
}

// Whether `key` is the proto (snake_case) name of the lowerCamelCase `camel`: an
// uppercase letter is "_" and its lowercase.
bool isSnakeCaseOf(std::string_view key, std::string_view camel) {
  std::size_t k = 0;
  for (char c : camel) {
    if (c >= 'A' && c <= 'Z') {
      if (k + 2 > key.size() || key[k] != '_' || key[k + 1] != static_cast<char>(c - 'A' + 'a')) return false;
      k += 2;
    } else {
      if (k >= key.size() || key[k] != c) return false;
      ++k;
    }
  }
  return k == key.size();
}

// Reads the request from the body's JsonView: no Poco value is built but for numbers,
// which go through the same Var conversions as before so every answer stays the same.
class Reader {
 public:
  explicit Reader(const JsonView& view) : v_(view) {}

  // The value of a field by its lowerCamelCase JSON name, else by its proto (snake_case)
  // name; none when absent or null (proto3 JSON reads null as the default). Of duplicate
  // names the last counts.
  // One pass over the members for both spellings (a field that is absent, as most optional
  // ones are, cost two passes and a snake_case string before).
  std::optional<Node> member(Node object, std::string_view camelName) const {
    bool upper = false;
    for (char c : camelName) upper = upper || (c >= 'A' && c <= 'Z');
    std::optional<Node> camel, snake;
    std::string decoded;
    for (Node k = v_.firstChild(object); k != v_.endOf(object); k = v_.nextSibling(k + 1)) {
      std::string_view key;
      if (v_.node(k).verbatim) {
        key = v_.verbatimString(k);
      } else {
        decoded = v_.string(k);
        key = decoded;
      }
      if (key == camelName)
        camel = k + 1;
      else if (upper && isSnakeCaseOf(key, camelName))
        snake = k + 1;
    }
    if (camel && v_.kind(*camel) != JsonKind::Null) return camel;
    if (snake && v_.kind(*snake) != JsonKind::Null) return snake;
    return std::nullopt;
  }

  Node asObject(Node n, const Path& path) const {
    if (v_.kind(n) != JsonKind::Object) malformed(path, "must be an object");
    return n;
  }

  // Calls fn(element, elementPath) for each element of an optional array field.
  template <class Fn>
  void eachElement(Node object, std::string_view camelName, const Path& path, Fn&& fn) const {
    const auto array = member(object, camelName);
    if (!array) return;
    const Path arrayPath = path.child(camelName);
    if (v_.kind(*array) != JsonKind::Array) malformed(arrayPath, "must be an array");
    std::size_t i = 0;
    for (Node e = v_.firstChild(*array); e != v_.endOf(*array); e = v_.nextSibling(e), ++i) fn(e, arrayPath.item(i));
  }

  std::string asString(Node n, const Path& path) const {
    if (v_.kind(n) != JsonKind::String) malformed(path, "must be a string");
    return v_.string(n);
  }

  std::string stringField(Node object, std::string_view camelName, const Path& path) const {
    const auto n = member(object, camelName);
    return n ? asString(*n, path.child(camelName)) : std::string();
  }

  // A whole JSON number or decimal string in [min, max]. proto3 JSON writes 64-bit
  // integers as strings (JavaScript loses precision past 2^53) and accepts both.
  template <class Int>
  Int integerIn(Node n, const Path& path) const {
    Int out{};
    if (v_.kind(n) == JsonKind::String) {
      const auto s = v_.string(n);
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
      if (ec != std::errc() || end != s.data() + s.size() || s.empty()) malformed(path, "must be an integer");
      return out;
    }
    if (v_.kind(n) != JsonKind::Integer && v_.kind(n) != JsonKind::Number) malformed(path, "must be an integer");
    const Var v = numberOf(n);
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
  Int integerField(Node object, std::string_view camelName, const Path& path) const {
    const auto n = member(object, camelName);
    return n ? integerIn<Int>(*n, path.child(camelName)) : Int{};
  }

  // proto3 JSON doubles: numbers, numeric strings, or "NaN" / "Infinity" / "-Infinity".
  double doubleIn(Node n, const Path& path) const {
    if (v_.kind(n) == JsonKind::String) {
      const auto s = v_.string(n);
      if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
      if (s == "Infinity") return std::numeric_limits<double>::infinity();
      if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
      double out = 0;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
      if (ec != std::errc() || end != s.data() + s.size() || s.empty()) malformed(path, "must be a number");
      return out;
    }
    if (v_.kind(n) != JsonKind::Integer && v_.kind(n) != JsonKind::Number) malformed(path, "must be a number");
    return numberOf(n).convert<double>();
  }

  // Trace and span ids are hex text in OTLP/JSON. Text that is not hex spoils this span
  // only, so it is noted on the span instead of failing the request.
  std::string idField(Node object, std::string_view camelName, const Path& path, Span& span) const {
    const std::string text = stringField(object, camelName, path);
    auto bytes = hexDecode(text);
    if (bytes) return *bytes;
    if (span.idProblem.empty()) span.idProblem = std::string(camelName) + " is not hex";
    return {};
  }

  // common.v1.AnyValue: {"stringValue"} | {"boolValue"} | {"intValue"} | {"doubleValue"} |
  // {"arrayValue": {"values": [...]}} | {"kvlistValue": {"values": [...]}} | {"bytesValue": base64}
  // | {} (empty). The recursion is bounded by the parser's depth limit.
  AnyValue anyValue(Node n, const Path& path) const {
    const Node object = asObject(n, path);
    AnyValue out;
    if (auto s = member(object, "stringValue")) {
      out.kind = AnyValue::Kind::String;
      out.text = asString(*s, path.child("stringValue"));
    } else if (auto b = member(object, "boolValue")) {
      if (v_.kind(*b) != JsonKind::True && v_.kind(*b) != JsonKind::False)
        malformed(path.child("boolValue"), "must be true or false");
      out.kind = AnyValue::Kind::Bool;
      out.boolean = v_.kind(*b) == JsonKind::True;
    } else if (auto i = member(object, "intValue")) {
      out.kind = AnyValue::Kind::Int;
      out.integer = integerIn<std::int64_t>(*i, path.child("intValue"));
    } else if (auto d = member(object, "doubleValue")) {
      out.kind = AnyValue::Kind::Double;
      out.real = doubleIn(*d, path.child("doubleValue"));
    } else if (auto a = member(object, "arrayValue")) {
      const Path arrayPath = path.child("arrayValue");
      out.kind = AnyValue::Kind::Array;
      eachElement(asObject(*a, arrayPath), "values", arrayPath,
                  [&](Node e, const Path& p) { out.array.push_back(anyValue(e, p)); });
    } else if (auto kv = member(object, "kvlistValue")) {
      const Path listPath = path.child("kvlistValue");
      out.kind = AnyValue::Kind::KvList;
      out.kvlist = keyValues(asObject(*kv, listPath), "values", listPath);
    } else if (auto bytes = member(object, "bytesValue")) {
      const Path bytesPath = path.child("bytesValue");
      auto decoded = base64DecodeAnyAlphabet(asString(*bytes, bytesPath));
      if (!decoded) malformed(bytesPath, "must be base64");
      out.kind = AnyValue::Kind::Bytes;
      out.text = std::move(*decoded);
    }
    return out;
  }

  // A repeated common.v1.KeyValue field: [{"key": "...", "value": {AnyValue}}, ...].
  std::vector<KeyValue> keyValues(Node object, std::string_view camelName, const Path& path) const {
    std::vector<KeyValue> out;
    eachElement(object, camelName, path, [&](Node e, const Path& p) {
      const Node kv = asObject(e, p);
      KeyValue entry;
      entry.key = stringField(kv, "key", p);
      if (auto value = member(kv, "value")) entry.value = anyValue(*value, p.child("value"));
      out.push_back(std::move(entry));
    });
    return out;
  }

  Span span(Node o, const Path& path) const {
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
    eachElement(o, "events", path, [&](Node e, const Path& p) {
      const Node event = asObject(e, p);
      SpanEventRecord record;
      record.timeUnixNano = integerField<std::uint64_t>(event, "timeUnixNano", p);
      record.name = stringField(event, "name", p);
      record.attributes = keyValues(event, "attributes", p);
      s.events.push_back(std::move(record));
    });
    eachElement(o, "links", path, [&](Node e, const Path& p) {
      asObject(e, p);
      ++s.linkCount;
    });
    if (auto st = member(o, "status")) {
      const Path statusPath = path.child("status");
      const Node status = asObject(*st, statusPath);
      s.statusMessage = stringField(status, "message", statusPath);
      s.statusCode = integerField<std::int32_t>(status, "code", statusPath);
    }
    return s;
  }

  ScopeSpans scopeSpans(Node o, const Path& path) const {
    ScopeSpans out;
    if (auto sc = member(o, "scope")) {
      const Path scopePath = path.child("scope");
      const Node scope = asObject(*sc, scopePath);
      out.scopeName = stringField(scope, "name", scopePath);
      out.scopeVersion = stringField(scope, "version", scopePath);
    }
    eachElement(o, "spans", path, [&](Node e, const Path& p) { out.spans.push_back(span(asObject(e, p), p)); });
    return out;
  }

  ResourceSpans resourceSpans(Node o, const Path& path) const {
    ResourceSpans out;
    if (auto r = member(o, "resource")) {
      const Path resourcePath = path.child("resource");
      out.resourceAttributes = keyValues(asObject(*r, resourcePath), "attributes", resourcePath);
    }
    eachElement(o, "scopeSpans", path,
                [&](Node e, const Path& p) { out.scopeSpans.push_back(scopeSpans(asObject(e, p), p)); });
    return out;
  }

 private:
  // The Poco value parseJson gives a number: Int64 within its range, else UInt64 or double.
  Var numberOf(Node n) const {
    if (v_.kind(n) == JsonKind::Integer) return static_cast<Poco::Int64>(v_.int64(n));
    return v_.toVar(n);
  }

  const JsonView& v_;
};

}  // namespace

TraceRequest decodeTraceRequestJson(std::string_view text) {
  std::optional<JsonView> view;
  try {
    // The strict reader of request bodies (common/json_view.h, which accepts and refuses
    // what common/json_parse.h does): it refuses ill-formed UTF-8 and \u0000, which Poco's
    // parser lets through to a store that cannot hold them. Every level of the document
    // is a level of recursion here and in the parser: the same bound as the protobuf
    // reader's keeps a nesting bomb off the stack. A span attribute sits ten levels down,
    // which leaves room for nested AnyValue arrays and maps.
    view.emplace(text, ProtobufReader::kMaxNesting);
  } catch (const Poco::Exception& e) {
    throw IngestError(IngestFailure::Malformed, "The request body is not valid JSON: " + e.displayText());
  } catch (const std::exception& e) {
    throw IngestError(IngestFailure::Malformed, std::string("The request body is not valid JSON: ") + e.what());
  }
  const Reader reader(*view);
  const Path body{nullptr, {}, 0, "the body"};
  const Path root{nullptr, {}, 0, ""};
  TraceRequest request;
  reader.eachElement(reader.asObject(JsonView::kRoot, body), "resourceSpans", root, [&](Node e, const Path& p) {
    request.resourceSpans.push_back(reader.resourceSpans(reader.asObject(e, p), p));
  });
  return request;
}

}  // namespace aev::otlp

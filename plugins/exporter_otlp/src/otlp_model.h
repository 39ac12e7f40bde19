// The small part of the OTLP data model this exporter produces: resources with spans or
// log records, attributes as AnyValue trees. Both encoders (protobuf, JSON) write from it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace otlp {

struct KeyValue;

struct AnyValue {
  enum class Kind { Empty, String, Bool, Int, Double, Array, KvList };
  Kind kind = Kind::Empty;
  std::string s;
  bool b = false;
  std::int64_t i = 0;
  double d = 0;
  std::vector<AnyValue> array;
  std::vector<KeyValue> kvlist;

  static AnyValue string(std::string v) { AnyValue a; a.kind = Kind::String; a.s = std::move(v); return a; }
  static AnyValue boolean(bool v) { AnyValue a; a.kind = Kind::Bool; a.b = v; return a; }
  static AnyValue integer(std::int64_t v) { AnyValue a; a.kind = Kind::Int; a.i = v; return a; }
  static AnyValue real(double v) { AnyValue a; a.kind = Kind::Double; a.d = v; return a; }
};

struct KeyValue {
  std::string key;
  AnyValue value;
};

// Span.SpanKind and Status.StatusCode values of the OTLP protocol.
enum : int { kSpanKindInternal = 1 };
enum : int { kStatusUnset = 0, kStatusOk = 1, kStatusError = 2 };
// LogRecord.SeverityNumber values.
enum : int { kSeverityInfo = 9, kSeverityError = 17 };

struct Span {
  std::string traceId;       // 16 raw bytes
  std::string spanId;        // 8 raw bytes
  std::string parentSpanId;  // 8 raw bytes or empty
  std::string name;
  int kind = kSpanKindInternal;
  std::uint64_t startTimeUnixNano = 0;
  std::uint64_t endTimeUnixNano = 0;
  std::vector<KeyValue> attributes;
  int statusCode = kStatusUnset;
  std::string statusMessage;
};

struct LogRecord {
  std::uint64_t timeUnixNano = 0;
  std::uint64_t observedTimeUnixNano = 0;
  int severityNumber = kSeverityInfo;
  std::string severityText;
  AnyValue body;
  std::vector<KeyValue> attributes;
  std::string traceId;  // 16 raw bytes or empty
  std::string spanId;   // 8 raw bytes or empty
  std::string eventName;
};

// Events of one service.name, in batch order.
struct ResourceBatch {
  std::vector<KeyValue> resource;
  std::vector<Span> spans;
  std::vector<LogRecord> logs;
};

struct Scope {
  std::string name = "agent-events";
  std::string version = "1.0.0";
};

}  // namespace otlp

// The small part of the OTLP data model this exporter produces: resources with spans,
// log records or metrics, attributes as AnyValue trees. Both encoders (protobuf, JSON) write from it.
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

// AggregationTemporality of the OTLP metrics data model.
enum : int { kTemporalityDelta = 1 };

// NumberDataPoint: an int64 (as_int) or a double (as_double) value.
struct NumberDataPoint {
  std::vector<KeyValue> attributes;
  std::uint64_t startTimeUnixNano = 0;
  std::uint64_t timeUnixNano = 0;
  bool isDouble = false;
  std::int64_t asInt = 0;
  double asDouble = 0;
};

// HistogramDataPoint with explicit bounds: bucketCounts has explicitBounds.size() + 1
// entries; min and max are always set (a point is only made from at least one value).
struct HistogramDataPoint {
  std::vector<KeyValue> attributes;
  std::uint64_t startTimeUnixNano = 0;
  std::uint64_t timeUnixNano = 0;
  std::uint64_t count = 0;
  double sum = 0;
  std::vector<std::uint64_t> bucketCounts;
  std::vector<double> explicitBounds;
  double min = 0;
  double max = 0;
};

// A monotonic delta Sum (numberPoints) or a delta Histogram (histogramPoints).
struct Metric {
  enum class Kind { Sum, Histogram };
  std::string name;
  std::string description;
  std::string unit;
  Kind kind = Kind::Sum;
  std::vector<NumberDataPoint> numberPoints;
  std::vector<HistogramDataPoint> histogramPoints;
};

// Events of one service.name, in batch order.
struct ResourceBatch {
  std::vector<KeyValue> resource;
  std::vector<Span> spans;
  std::vector<LogRecord> logs;
  std::vector<Metric> metrics;
};

struct Scope {
  std::string name = "agent-events";
  std::string version = "1.0.0";
};

}  // namespace otlp

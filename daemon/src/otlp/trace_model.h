#pragma once
// The part of an OTLP ExportTraceServiceRequest that ingest reads, decoded from either
// encoding into one shape so the span-to-event mapping is written once. Field numbers
// and names follow opentelemetry-proto (collector/trace/v1/trace_service.proto,
// trace/v1/trace.proto, common/v1/common.proto, resource/v1/resource.proto).
#include <cstdint>
#include <string>
#include <vector>

namespace aev::otlp {

struct KeyValue;

// common.v1.AnyValue: a oneof, so exactly one member is meaningful (per `kind`).
struct AnyValue {
  enum class Kind { Empty, String, Bool, Int, Double, Bytes, Array, KvList };
  Kind kind = Kind::Empty;
  std::string text;  // String: UTF-8; Bytes: raw bytes
  bool boolean = false;
  std::int64_t integer = 0;
  double real = 0;
  std::vector<AnyValue> array;
  std::vector<KeyValue> kvlist;
};

struct KeyValue {
  std::string key;
  AnyValue value;
};

// trace.v1.Status.StatusCode
enum : int { kStatusUnset = 0, kStatusOk = 1, kStatusError = 2 };
// "ok", "error", else "unset": a status code as the stored payload and metadata name it.
const char* statusCodeName(int code);

// trace.v1.Span.Event
struct SpanEventRecord {
  std::uint64_t timeUnixNano = 0;
  std::string name;
  std::vector<KeyValue> attributes;
};

struct Span {
  std::string traceId;       // raw bytes as sent: 16 when valid
  std::string spanId;        // raw bytes as sent: 8 when valid
  std::string parentSpanId;  // raw bytes; empty for a root span
  std::string traceState;
  std::string name;
  int kind = 0;  // Span.SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer
  std::uint64_t startTimeUnixNano = 0;
  std::uint64_t endTimeUnixNano = 0;
  std::vector<KeyValue> attributes;
  std::uint32_t droppedAttributesCount = 0;
  std::vector<SpanEventRecord> events;
  std::size_t linkCount = 0;  // links are counted, not kept
  int statusCode = kStatusUnset;
  std::string statusMessage;
  // Set by the JSON decoder when an id is not hex text, which makes this one span
  // invalid rather than the whole request (protobuf ids are raw bytes and cannot be).
  std::string idProblem;
};

struct ScopeSpans {
  std::string scopeName;  // common.v1.InstrumentationScope name / version
  std::string scopeVersion;
  std::vector<Span> spans;
};

struct ResourceSpans {
  std::vector<KeyValue> resourceAttributes;
  std::vector<ScopeSpans> scopeSpans;
};

struct TraceRequest {
  std::vector<ResourceSpans> resourceSpans;

  std::size_t spanCount() const;
};

}  // namespace aev::otlp

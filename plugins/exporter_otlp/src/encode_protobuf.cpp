// Field numbers from opentelemetry-proto (collector/{trace,logs,metrics}/v1, trace/v1,
// logs/v1, metrics/v1, common/v1, resource/v1).
#include "encoders.h"
#include "protobuf_writer.h"

namespace otlp {

namespace {

using pb::Writer;

Writer anyValue(const AnyValue& v);

Writer keyValue(const KeyValue& kv) {  // KeyValue: key = 1, value = 2
  Writer w;
  w.bytesField(1, kv.key);
  w.messageField(2, anyValue(kv.value));
  return w;
}

Writer anyValue(const AnyValue& v) {
  // AnyValue oneof: string_value = 1, bool_value = 2, int_value = 3, double_value = 4,
  // array_value = 5 (ArrayValue.values = 1), kvlist_value = 6 (KeyValueList.values = 1).
  Writer w;
  switch (v.kind) {
    case AnyValue::Kind::String: w.bytesField(1, v.s); break;
    case AnyValue::Kind::Bool: w.boolField(2, v.b); break;
    case AnyValue::Kind::Int: w.int64Field(3, v.i); break;
    case AnyValue::Kind::Double: w.doubleField(4, v.d); break;
    case AnyValue::Kind::Array: {
      Writer list;
      for (const auto& item : v.array) list.messageField(1, anyValue(item));
      w.messageField(5, list);
      break;
    }
    case AnyValue::Kind::KvList: {
      Writer list;
      for (const auto& kv : v.kvlist) list.messageField(1, keyValue(kv));
      w.messageField(6, list);
      break;
    }
    case AnyValue::Kind::Empty: break;
  }
  return w;
}

Writer resource(const std::vector<KeyValue>& attributes) {  // Resource: attributes = 1
  Writer w;
  for (const auto& kv : attributes) w.messageField(1, keyValue(kv));
  return w;
}

Writer scopeMessage(const Scope& scope) {  // InstrumentationScope: name = 1, version = 2
  Writer w;
  w.stringFieldIfSet(1, scope.name);
  w.stringFieldIfSet(2, scope.version);
  return w;
}

Writer span(const Span& s) {
  Writer w;
  w.bytesField(1, s.traceId);                   // trace_id
  w.bytesField(2, s.spanId);                    // span_id
  w.stringFieldIfSet(4, s.parentSpanId);        // parent_span_id
  w.bytesField(5, s.name);                      // name
  w.varintField(6, static_cast<std::uint64_t>(s.kind));  // kind
  w.fixed64Field(7, s.startTimeUnixNano);       // start_time_unix_nano
  w.fixed64Field(8, s.endTimeUnixNano);         // end_time_unix_nano
  for (const auto& kv : s.attributes) w.messageField(9, keyValue(kv));  // attributes
  if (s.statusCode != kStatusUnset || !s.statusMessage.empty()) {
    Writer status;                              // Status: message = 2, code = 3
    status.stringFieldIfSet(2, s.statusMessage);
    status.varintField(3, static_cast<std::uint64_t>(s.statusCode));
    w.messageField(15, status);                 // status
  }
  return w;
}

Writer logRecord(const LogRecord& l) {
  Writer w;
  w.fixed64Field(1, l.timeUnixNano);            // time_unix_nano
  w.varintField(2, static_cast<std::uint64_t>(l.severityNumber));  // severity_number
  w.stringFieldIfSet(3, l.severityText);        // severity_text
  if (l.body.kind != AnyValue::Kind::Empty) w.messageField(5, anyValue(l.body));  // body
  for (const auto& kv : l.attributes) w.messageField(6, keyValue(kv));  // attributes
  w.stringFieldIfSet(9, l.traceId);             // trace_id
  w.stringFieldIfSet(10, l.spanId);             // span_id
  w.fixed64Field(11, l.observedTimeUnixNano);   // observed_time_unix_nano
  w.stringFieldIfSet(12, l.eventName);          // event_name
  return w;
}

Writer numberDataPoint(const NumberDataPoint& p) {
  Writer w;
  w.fixed64Field(2, p.startTimeUnixNano);       // start_time_unix_nano
  w.fixed64Field(3, p.timeUnixNano);            // time_unix_nano
  if (p.isDouble) w.doubleField(4, p.asDouble);  // as_double
  else w.fixed64Field(6, static_cast<std::uint64_t>(p.asInt));  // as_int (sfixed64)
  for (const auto& kv : p.attributes) w.messageField(7, keyValue(kv));  // attributes
  return w;
}

Writer histogramDataPoint(const HistogramDataPoint& p) {
  Writer w;
  w.fixed64Field(2, p.startTimeUnixNano);       // start_time_unix_nano
  w.fixed64Field(3, p.timeUnixNano);            // time_unix_nano
  w.fixed64Field(4, p.count);                   // count
  w.doubleField(5, p.sum);                      // sum (optional: always present)
  Writer buckets, bounds;                       // packed repeated fixed64 / double
  for (auto c : p.bucketCounts) buckets.rawFixed64(c);
  for (auto b : p.explicitBounds) bounds.rawDouble(b);
  w.bytesField(6, buckets.bytes());             // bucket_counts
  w.bytesField(7, bounds.bytes());              // explicit_bounds
  for (const auto& kv : p.attributes) w.messageField(9, keyValue(kv));  // attributes
  w.doubleField(11, p.min);                     // min
  w.doubleField(12, p.max);                     // max
  return w;
}

Writer metric(const Metric& m) {
  Writer w;
  w.bytesField(1, m.name);                      // name
  w.stringFieldIfSet(2, m.description);         // description
  w.stringFieldIfSet(3, m.unit);                // unit
  Writer data;
  if (m.kind == Metric::Kind::Sum) {            // Sum: data_points = 1, aggregation_temporality = 2, is_monotonic = 3
    for (const auto& p : m.numberPoints) data.messageField(1, numberDataPoint(p));
    data.varintField(2, kTemporalityDelta);
    data.boolField(3, true);
    w.messageField(7, data);                    // sum
  } else {                                      // Histogram: data_points = 1, aggregation_temporality = 2
    for (const auto& p : m.histogramPoints) data.messageField(1, histogramDataPoint(p));
    data.varintField(2, kTemporalityDelta);
    w.messageField(9, data);                    // histogram
  }
  return w;
}

}  // namespace

std::string tracesProtobuf(const std::vector<ResourceBatch>& batches, const Scope& scope) {
  Writer request;  // ExportTraceServiceRequest: resource_spans = 1
  for (const auto& b : batches) {
    Writer scopeSpans;  // ScopeSpans: scope = 1, spans = 2
    scopeSpans.messageField(1, scopeMessage(scope));
    for (const auto& s : b.spans) scopeSpans.messageField(2, span(s));
    Writer resourceSpans;  // ResourceSpans: resource = 1, scope_spans = 2
    resourceSpans.messageField(1, resource(b.resource));
    resourceSpans.messageField(2, scopeSpans);
    request.messageField(1, resourceSpans);
  }
  return request.take();
}

std::string logsProtobuf(const std::vector<ResourceBatch>& batches, const Scope& scope) {
  Writer request;  // ExportLogsServiceRequest: resource_logs = 1
  for (const auto& b : batches) {
    Writer scopeLogs;  // ScopeLogs: scope = 1, log_records = 2
    scopeLogs.messageField(1, scopeMessage(scope));
    for (const auto& l : b.logs) scopeLogs.messageField(2, logRecord(l));
    Writer resourceLogs;  // ResourceLogs: resource = 1, scope_logs = 2
    resourceLogs.messageField(1, resource(b.resource));
    resourceLogs.messageField(2, scopeLogs);
    request.messageField(1, resourceLogs);
  }
  return request.take();
}

std::string metricsProtobuf(const std::vector<ResourceBatch>& batches, const Scope& scope) {
  Writer request;  // ExportMetricsServiceRequest: resource_metrics = 1
  for (const auto& b : batches) {
    Writer scopeMetrics;  // ScopeMetrics: scope = 1, metrics = 2
    scopeMetrics.messageField(1, scopeMessage(scope));
    for (const auto& m : b.metrics) scopeMetrics.messageField(2, metric(m));
    Writer resourceMetrics;  // ResourceMetrics: resource = 1, scope_metrics = 2
    resourceMetrics.messageField(1, resource(b.resource));
    resourceMetrics.messageField(2, scopeMetrics);
    request.messageField(1, resourceMetrics);
  }
  return request.take();
}

}  // namespace otlp

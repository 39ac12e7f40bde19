// ExportTraceServiceRequest from protobuf bytes. Field numbers as in opentelemetry-proto;
// each message decoder names its fields where it reads them.
#include <bit>

#include "otlp/protobuf_reader.h"
#include "otlp/trace_decode.h"

namespace aev::otlp {

namespace {

constexpr auto kVarint = WireType::Varint;
constexpr auto kFixed64 = WireType::Fixed64;
constexpr auto kBytes = WireType::LengthDelimited;

std::vector<KeyValue> keyValueList(ProtobufReader r);
std::vector<AnyValue> arrayValues(ProtobufReader r);

// common.v1.AnyValue: oneof string_value = 1, bool_value = 2, int_value = 3,
// double_value = 4, array_value = 5, kvlist_value = 6, bytes_value = 7.
// A oneof keeps the last member sent, so each member replaces what came before.
AnyValue anyValue(ProtobufReader r) {
  AnyValue v;
  WireField f;
  while (r.next(f)) {
    const auto member = [&v](AnyValue::Kind kind) -> AnyValue& {
      v = AnyValue{};
      v.kind = kind;
      return v;
    };
    if (f.is(1, kBytes)) {
      member(AnyValue::Kind::String).text = utf8Field(f, "AnyValue.string_value");
    } else if (f.is(2, kVarint)) {
      member(AnyValue::Kind::Bool).boolean = f.scalar != 0;
    } else if (f.is(3, kVarint)) {
      // int64 is two's complement on the wire: negative numbers arrive as ten-byte varints.
      member(AnyValue::Kind::Int).integer = static_cast<std::int64_t>(f.scalar);
    } else if (f.is(4, kFixed64)) {
      member(AnyValue::Kind::Double).real = std::bit_cast<double>(f.scalar);
    } else if (f.is(5, kBytes)) {
      auto values = arrayValues(r.nested(f));
      member(AnyValue::Kind::Array).array = std::move(values);
    } else if (f.is(6, kBytes)) {
      auto values = keyValueList(r.nested(f));
      member(AnyValue::Kind::KvList).kvlist = std::move(values);
    } else if (f.is(7, kBytes)) {
      member(AnyValue::Kind::Bytes).text = std::string(f.bytes);
    }
  }
  return v;
}

// common.v1.KeyValue: key = 1, value = 2.
KeyValue keyValue(ProtobufReader r) {
  KeyValue kv;
  WireField f;
  while (r.next(f)) {
    if (f.is(1, kBytes))
      kv.key = utf8Field(f, "KeyValue.key");
    else if (f.is(2, kBytes))
      kv.value = anyValue(r.nested(f));
  }
  return kv;
}

// common.v1.ArrayValue: values = 1.
std::vector<AnyValue> arrayValues(ProtobufReader r) {
  std::vector<AnyValue> out;
  WireField f;
  while (r.next(f)) {
    if (f.is(1, kBytes)) out.push_back(anyValue(r.nested(f)));
  }
  return out;
}

// common.v1.KeyValueList: values = 1. Resource.attributes = 1 has the same shape.
std::vector<KeyValue> keyValueList(ProtobufReader r) {
  std::vector<KeyValue> out;
  WireField f;
  while (r.next(f)) {
    if (f.is(1, kBytes)) out.push_back(keyValue(r.nested(f)));
  }
  return out;
}

// trace.v1.Status: message = 2, code = 3 (1 is reserved). Decoded into the span, so
// a repeated status merges field by field, as protobuf merges messages.
void status(ProtobufReader r, Span& span) {
  WireField f;
  while (r.next(f)) {
    if (f.is(2, kBytes))
      span.statusMessage = utf8Field(f, "Status.message");
    else if (f.is(3, kVarint))
      span.statusCode = static_cast<int>(static_cast<std::int32_t>(f.scalar));
  }
}

// trace.v1.Span.Event: time_unix_nano = 1, name = 2, attributes = 3.
SpanEventRecord spanEvent(ProtobufReader r) {
  SpanEventRecord e;
  WireField f;
  while (r.next(f)) {
    if (f.is(1, kFixed64))
      e.timeUnixNano = f.scalar;
    else if (f.is(2, kBytes))
      e.name = utf8Field(f, "Span.Event.name");
    else if (f.is(3, kBytes))
      e.attributes.push_back(keyValue(r.nested(f)));
  }
  return e;
}

// trace.v1.Span: trace_id = 1, span_id = 2, trace_state = 3, parent_span_id = 4,
// name = 5, kind = 6, start_time_unix_nano = 7, end_time_unix_nano = 8, attributes = 9,
// dropped_attributes_count = 10, events = 11, links = 13, status = 15, flags = 16.
Span span(ProtobufReader r) {
  Span s;
  WireField f;
  while (r.next(f)) {
    if (f.is(1, kBytes))
      s.traceId = std::string(f.bytes);
    else if (f.is(2, kBytes))
      s.spanId = std::string(f.bytes);
    else if (f.is(3, kBytes))
      s.traceState = utf8Field(f, "Span.trace_state");
    else if (f.is(4, kBytes))
      s.parentSpanId = std::string(f.bytes);
    else if (f.is(5, kBytes))
      s.name = utf8Field(f, "Span.name");
    else if (f.is(6, kVarint))
      s.kind = static_cast<int>(static_cast<std::int32_t>(f.scalar));  // enums are int32
    else if (f.is(7, kFixed64))
      s.startTimeUnixNano = f.scalar;
    else if (f.is(8, kFixed64))
      s.endTimeUnixNano = f.scalar;
    else if (f.is(9, kBytes))
      s.attributes.push_back(keyValue(r.nested(f)));
    else if (f.is(10, kVarint))
      s.droppedAttributesCount = static_cast<std::uint32_t>(f.scalar);
    else if (f.is(11, kBytes))
      s.events.push_back(spanEvent(r.nested(f)));
    else if (f.is(13, kBytes))
      ++s.linkCount;
    else if (f.is(15, kBytes))
      status(r.nested(f), s);
    // 12 and 14 (dropped event and link counts), 16 (flags) and unknown fields: not kept.
  }
  return s;
}

// common.v1.InstrumentationScope: name = 1, version = 2.
void scope(ProtobufReader r, ScopeSpans& out) {
  WireField f;
  while (r.next(f)) {
    if (f.is(1, kBytes))
      out.scopeName = utf8Field(f, "InstrumentationScope.name");
    else if (f.is(2, kBytes))
      out.scopeVersion = utf8Field(f, "InstrumentationScope.version");
  }
}

// trace.v1.ScopeSpans: scope = 1, spans = 2, schema_url = 3 (not kept).
ScopeSpans scopeSpans(ProtobufReader r) {
  ScopeSpans out;
  WireField f;
  while (r.next(f)) {
    if (f.is(1, kBytes))
      scope(r.nested(f), out);
    else if (f.is(2, kBytes))
      out.spans.push_back(span(r.nested(f)));
  }
  return out;
}

// trace.v1.ResourceSpans: resource = 1 (resource.v1.Resource: attributes = 1),
// scope_spans = 2, schema_url = 3 (not kept).
ResourceSpans resourceSpans(ProtobufReader r) {
  ResourceSpans out;
  WireField f;
  while (r.next(f)) {
    if (f.is(1, kBytes)) {
      auto attributes = keyValueList(r.nested(f));
      out.resourceAttributes.insert(out.resourceAttributes.end(), std::make_move_iterator(attributes.begin()),
                                    std::make_move_iterator(attributes.end()));
    } else if (f.is(2, kBytes)) {
      out.scopeSpans.push_back(scopeSpans(r.nested(f)));
    }
  }
  return out;
}

}  // namespace

// collector.trace.v1.ExportTraceServiceRequest: resource_spans = 1.
TraceRequest decodeTraceRequestProtobuf(std::string_view bytes) {
  TraceRequest request;
  ProtobufReader r(bytes);
  WireField f;
  while (r.next(f)) {
    if (f.is(1, kBytes)) request.resourceSpans.push_back(resourceSpans(r.nested(f)));
  }
  return request;
}

}  // namespace aev::otlp

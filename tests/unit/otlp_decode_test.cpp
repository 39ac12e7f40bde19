// otlp/trace_decode.h and otlp/span_events.h: ExportTraceServiceRequest from protobuf
// and OTLP/JSON, and each span as an event (docs/api.md#otlp-ingest).
//
// Protobuf vectors come from a small encoder below. kProtocRequestHex pins that encoder to
// protoc itself: it is `protoc --encode=ExportTraceServiceRequest` (libprotoc 3.21.12) of
// the request described in ProtocVector, with the message definitions of
// opentelemetry-proto, and the encoder must reproduce it byte for byte.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <limits>

#include "common/encoding.h"
#include "otlp/ingest_error.h"
#include "otlp/span_events.h"
#include "otlp/trace_decode.h"

namespace aev::otlp {
namespace {

using Poco::JSON::Array;
using Poco::JSON::Object;

// ---------------------------------------------------------------- a test encoder

class Pb {
 public:
  Pb& varint(std::uint32_t field, std::uint64_t v) {
    tag(field, 0);
    raw(v);
    return *this;
  }
  Pb& fixed64(std::uint32_t field, std::uint64_t v) {
    tag(field, 1);
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>(v >> (8 * i)));
    return *this;
  }
  Pb& fixed32(std::uint32_t field, std::uint32_t v) {
    tag(field, 5);
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>(v >> (8 * i)));
    return *this;
  }
  Pb& real(std::uint32_t field, double d) {
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return fixed64(field, bits);
  }
  Pb& bytes(std::uint32_t field, std::string_view b) {
    tag(field, 2);
    raw(b.size());
    out_.append(b);
    return *this;
  }
  Pb& message(std::uint32_t field, const Pb& m) { return bytes(field, m.out_); }
  // Appends already encoded fields (unknown ones, or deliberately broken bytes).
  Pb& extra(std::string_view encodedFields) {
    out_.append(encodedFields);
    return *this;
  }
  Pb& group(std::uint32_t field, const Pb& content) {
    tag(field, 3);
    out_ += content.out_;
    tag(field, 4);
    return *this;
  }
  const std::string& str() const { return out_; }

 private:
  void tag(std::uint32_t field, int wire) { raw(static_cast<std::uint64_t>(field) << 3 | static_cast<unsigned>(wire)); }
  void raw(std::uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  std::string out_;
};

// AnyValue and KeyValue builders (field numbers of common.v1).
Pb stringValue(std::string_view s) { return Pb().bytes(1, s); }
Pb boolValue(bool b) { return Pb().varint(2, b ? 1 : 0); }
Pb intValue(std::int64_t i) { return Pb().varint(3, static_cast<std::uint64_t>(i)); }
Pb doubleValue(double d) { return Pb().real(4, d); }
Pb bytesValue(std::string_view b) { return Pb().bytes(7, b); }
Pb arrayValue(std::initializer_list<Pb> values) {
  Pb list;
  for (const auto& v : values) list.message(1, v);
  return Pb().message(5, list);
}
Pb keyValue(std::string_view key, const Pb& value) { return Pb().bytes(1, key).message(2, value); }
Pb kvlistValue(std::initializer_list<Pb> keyValues) {
  Pb list;
  for (const auto& kv : keyValues) list.message(1, kv);
  return Pb().message(6, list);
}

std::string bytesOf(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out.push_back(static_cast<char>(v));
  return out;
}

const std::string kTraceA = bytesOf({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
const std::string kSpanA = bytesOf({0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8});
const std::string kParentA = bytesOf({0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8});

std::string spanIdNumber(int n) { return bytesOf({0, 0, 0, 0, 0, 0, 0, n}); }

// A valid span: ids, a name, a start and an end; tests add fields to it.
Pb basicSpan(const std::string& name, int spanNumber) {
  return Pb()
      .bytes(1, kTraceA)
      .bytes(2, spanIdNumber(spanNumber))
      .bytes(5, name)
      .fixed64(7, 1'700'000'000'000'000'000ULL)
      .fixed64(8, 1'700'000'000'250'000'000ULL);
}

Pb resourceSpans(const Pb& resource, std::initializer_list<Pb> scopeSpans) {
  Pb rs;
  rs.message(1, resource);
  for (const auto& ss : scopeSpans) rs.message(2, ss);
  return rs;
}

Pb scopeSpans(const Pb& scope, std::initializer_list<Pb> spans) {
  Pb ss;
  ss.message(1, scope);
  for (const auto& s : spans) ss.message(2, s);
  return ss;
}

std::string request(std::initializer_list<Pb> resourceSpansList) {
  Pb req;
  for (const auto& rs : resourceSpansList) req.message(1, rs);
  return req.str();
}

// One span in one resource and scope.
std::string requestWithSpan(const Pb& span) { return request({resourceSpans(Pb(), {scopeSpans(Pb(), {span})})}); }

Object::Ptr parseObject(const std::string& json) {
  Poco::JSON::Parser parser;
  return parser.parse(json).extract<Object::Ptr>();
}

IngestError malformed(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const IngestError& e) {
    EXPECT_EQ(e.failure(), IngestFailure::Malformed) << e.what();
    return e;
  }
  ADD_FAILURE() << "expected IngestError Malformed";
  return IngestError(IngestFailure::Malformed, "");
}

// ---------------------------------------------------------------- protobuf

// protoc --encode of:
//   resource_spans {
//     resource { attributes { key: "service.name" value { string_value: "svc" } } }
//     scope_spans {
//       scope { name: "lib" version: "1.0" }
//       spans {
//         trace_id: 01..10  span_id: a1..a8  parent_span_id: b1..b8  name: "chat gpt-4"  kind: 3
//         start_time_unix_nano: 1700000000123456789  end_time_unix_nano: 1700000001623456789
//         attributes { key: "gen_ai.operation.name" value { string_value: "chat" } }
//         attributes { key: "gen_ai.usage.input_tokens" value { int_value: 12 } }
//         attributes { key: "neg" value { int_value: -5 } }
//         attributes { key: "ratio" value { double_value: 0.25 } }
//         status { code: 1 }
//       } } }
constexpr const char* kProtocRequestHex =
    "0adf010a170a150a0c736572766963652e6e616d6512050a0373766312c3010a0a0a036c69621203312e3012b4010a10010203040506"
    "0708090a0b0c0d0e0f101208a1a2a3a4a5a6a7a82208b1b2b3b4b5b6b7b82a0a63686174206770742d3430033915cd853dfe9c9717"
    "4115fced96fe9c97174a1f0a1567656e5f61692e6f7065726174696f6e2e6e616d6512060a04636861744a1f0a1967656e5f61692e"
    "75736167652e696e7075745f746f6b656e731202180c4a120a036e6567120b18fbffffffffffffffff014a120a05726174696f1209"
    "21000000000000d03f7a021801";

Pb protocVectorSpan() {
  return Pb()
      .bytes(1, kTraceA)
      .bytes(2, kSpanA)
      .bytes(4, kParentA)
      .bytes(5, "chat gpt-4")
      .varint(6, 3)
      .fixed64(7, 1700000000123456789ULL)
      .fixed64(8, 1700000001623456789ULL)
      .message(9, keyValue("gen_ai.operation.name", stringValue("chat")))
      .message(9, keyValue("gen_ai.usage.input_tokens", intValue(12)))
      .message(9, keyValue("neg", intValue(-5)))
      .message(9, keyValue("ratio", doubleValue(0.25)))
      .message(15, Pb().varint(3, 1));
}

TEST(OtlpProtobufDecode, TestEncoderMatchesProtoc) {
  const std::string ours =
      request({resourceSpans(Pb().message(1, keyValue("service.name", stringValue("svc"))),
                             {scopeSpans(Pb().bytes(1, "lib").bytes(2, "1.0"), {protocVectorSpan()})})});
  EXPECT_EQ(hexEncode(ours), kProtocRequestHex);
}

TEST(OtlpProtobufDecode, ProtocVectorDecodesFieldByField) {
  const TraceRequest req = decodeTraceRequestProtobuf(*hexDecode(kProtocRequestHex));
  ASSERT_EQ(req.resourceSpans.size(), 1u);
  const ResourceSpans& rs = req.resourceSpans[0];
  ASSERT_EQ(rs.resourceAttributes.size(), 1u);
  EXPECT_EQ(rs.resourceAttributes[0].key, "service.name");
  EXPECT_EQ(rs.resourceAttributes[0].value.kind, AnyValue::Kind::String);
  EXPECT_EQ(rs.resourceAttributes[0].value.text, "svc");
  ASSERT_EQ(rs.scopeSpans.size(), 1u);
  EXPECT_EQ(rs.scopeSpans[0].scopeName, "lib");
  EXPECT_EQ(rs.scopeSpans[0].scopeVersion, "1.0");
  ASSERT_EQ(rs.scopeSpans[0].spans.size(), 1u);
  const Span& s = rs.scopeSpans[0].spans[0];
  EXPECT_EQ(s.traceId, kTraceA);
  EXPECT_EQ(s.spanId, kSpanA);
  EXPECT_EQ(s.parentSpanId, kParentA);
  EXPECT_EQ(s.name, "chat gpt-4");
  EXPECT_EQ(s.kind, 3);
  EXPECT_EQ(s.startTimeUnixNano, 1700000000123456789ULL);
  EXPECT_EQ(s.endTimeUnixNano, 1700000001623456789ULL);
  ASSERT_EQ(s.attributes.size(), 4u);
  EXPECT_EQ(s.attributes[0].value.text, "chat");
  EXPECT_EQ(s.attributes[1].value.kind, AnyValue::Kind::Int);
  EXPECT_EQ(s.attributes[1].value.integer, 12);
  EXPECT_EQ(s.attributes[2].value.integer, -5);  // a ten-byte two's complement varint
  EXPECT_EQ(s.attributes[3].value.kind, AnyValue::Kind::Double);
  EXPECT_EQ(s.attributes[3].value.real, 0.25);
  EXPECT_EQ(s.statusCode, kStatusOk);
  EXPECT_EQ(s.statusMessage, "");
  EXPECT_EQ(req.spanCount(), 1u);
}

TEST(OtlpProtobufDecode, ProtocVectorBecomesOneEvent) {
  const SpanBatch batch = spanEvents(decodeTraceRequestProtobuf(*hexDecode(kProtocRequestHex)));
  ASSERT_EQ(batch.events.size(), 1u);
  EXPECT_TRUE(batch.rejected.empty());
  const SpanEvent& e = batch.events[0];
  EXPECT_EQ(e.identifier, "chat gpt-4");
  EXPECT_EQ(e.eventType, "agent.message");
  EXPECT_EQ(e.traceId, "0102030405060708090a0b0c0d0e0f10");
  EXPECT_EQ(e.spanId, "a1a2a3a4a5a6a7a8");
  EXPECT_EQ(e.parentSpanId, "b1b2b3b4b5b6b7b8");
  EXPECT_EQ(e.agentId, std::nullopt);
  EXPECT_EQ(e.occurredAtMicros, 1700000000123456);
  EXPECT_FALSE(e.isError);

  const auto m = parseObject(e.metadataJson);
  EXPECT_TRUE(m->get("gen_ai.usage.input_tokens").isInteger()) << e.metadataJson;  // 12, not 12.0
  EXPECT_EQ(m->getValue<Poco::Int64>("gen_ai.usage.input_tokens"), 12);
  EXPECT_EQ(m->getValue<Poco::Int64>("neg"), -5);
  EXPECT_EQ(m->getValue<double>("ratio"), 0.25);
  EXPECT_EQ(m->getValue<std::string>("gen_ai.operation.name"), "chat");
  EXPECT_EQ(m->getValue<std::string>("operation"), "chat");
  EXPECT_EQ(m->getValue<std::string>("service.name"), "svc");
  EXPECT_EQ(m->getObject("resource")->getValue<std::string>("service.name"), "svc");
  EXPECT_EQ(m->getValue<double>("duration_ms"), 1500.0);
  EXPECT_EQ(m->getValue<std::string>("status"), "ok");
  EXPECT_FALSE(m->has("tool"));

  EXPECT_EQ(e.payloadJson, R"({"name":"chat gpt-4","kind":"client","startTimeUnixNano":"1700000000123456789",)"
                           R"("endTimeUnixNano":"1700000001623456789","status":{"code":"ok"},)"
                           R"("scope":{"name":"lib","version":"1.0"},"events":[],"links":0})");
}

TEST(OtlpProtobufDecode, FullRequestWithTwoResourcesAndEveryAnyValueKind) {
  const Pb everyKind =
      basicSpan("every kind", 1)
          .message(9, keyValue("s", stringValue("text")))
          .message(9, keyValue("b", boolValue(true)))
          .message(9, keyValue("i", intValue(std::numeric_limits<std::int64_t>::min())))
          .message(9, keyValue("d", doubleValue(2.5)))
          .message(9, keyValue("bytes", bytesValue(bytesOf({0xde, 0xad, 0xbe, 0xef}))))
          .message(9, keyValue("arr", arrayValue({intValue(1), stringValue("two"), boolValue(false)})))
          .message(9,
                   keyValue("kv", kvlistValue({keyValue("inner", kvlistValue({keyValue("deep", doubleValue(1.5))}))})))
          .message(9, keyValue("empty", Pb()))
          .message(9, keyValue("nan", doubleValue(std::numeric_limits<double>::quiet_NaN())));
  const Pb alpha = Pb().message(1, keyValue("service.name", stringValue("alpha")))
                       .message(1, keyValue("deployment.environment.name", stringValue("prod")))
                       .message(1, keyValue("service.version", stringValue("1.2.3")));
  const Pb beta = Pb().message(1, keyValue("service.name", stringValue("beta")));
  const std::string body = request({
      resourceSpans(alpha, {scopeSpans(Pb().bytes(1, "scope-1"), {everyKind, basicSpan("second", 2)}),
                            scopeSpans(Pb().bytes(1, "scope-2").bytes(2, "2.0"), {basicSpan("third", 3)})}),
      resourceSpans(beta, {scopeSpans(Pb(), {basicSpan("fourth", 4)})}),
  });

  const TraceRequest req = decodeTraceRequestProtobuf(body);
  ASSERT_EQ(req.resourceSpans.size(), 2u);
  ASSERT_EQ(req.resourceSpans[0].scopeSpans.size(), 2u);
  EXPECT_EQ(req.spanCount(), 4u);
  const auto& attrs = req.resourceSpans[0].scopeSpans[0].spans[0].attributes;
  ASSERT_EQ(attrs.size(), 9u);
  using K = AnyValue::Kind;
  const std::vector<K> kinds{K::String, K::Bool, K::Int, K::Double, K::Bytes, K::Array, K::KvList, K::Empty, K::Double};
  for (std::size_t i = 0; i < kinds.size(); ++i) EXPECT_EQ(attrs[i].value.kind, kinds[i]) << attrs[i].key;
  EXPECT_EQ(attrs[4].value.text, bytesOf({0xde, 0xad, 0xbe, 0xef}));
  ASSERT_EQ(attrs[5].value.array.size(), 3u);
  EXPECT_EQ(attrs[5].value.array[1].text, "two");
  EXPECT_EQ(attrs[6].value.kvlist[0].value.kvlist[0].value.real, 1.5);

  const SpanBatch batch = spanEvents(req);
  ASSERT_EQ(batch.events.size(), 4u);
  EXPECT_EQ(batch.events[0].identifier, "every kind");
  EXPECT_EQ(batch.events[1].identifier, "second");
  EXPECT_EQ(batch.events[2].identifier, "third");
  EXPECT_EQ(batch.events[3].identifier, "fourth");
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(batch.events[i].spanId, "000000000000000" + std::to_string(i + 1));
    EXPECT_EQ(batch.events[i].eventType, "custom");
  }

  const std::string& json = batch.events[0].metadataJson;
  EXPECT_NE(json.find(R"("i":-9223372036854775808)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("empty":null)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("arr":[1,"two",false])"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("kv":{"inner":{"deep":1.5}})"), std::string::npos) << json;
  const auto m = parseObject(json);
  EXPECT_EQ(m->getValue<std::string>("s"), "text");
  EXPECT_EQ(m->getValue<bool>("b"), true);
  EXPECT_EQ(m->getValue<Poco::Int64>("i"), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(m->getValue<double>("d"), 2.5);
  EXPECT_EQ(m->getValue<std::string>("bytes"), "3q2+7w==");
  EXPECT_EQ(m->getValue<std::string>("nan"), "NaN");
  EXPECT_EQ(m->getValue<std::string>("service.name"), "alpha");
  EXPECT_EQ(m->getValue<std::string>("environment"), "prod");
  EXPECT_EQ(m->getValue<std::string>("release"), "1.2.3");
  EXPECT_EQ(m->getValue<double>("duration_ms"), 250.0);
  EXPECT_FALSE(m->has("status"));  // status unset

  EXPECT_EQ(parseObject(batch.events[2].payloadJson)->getObject("scope")->getValue<std::string>("version"), "2.0");
  EXPECT_FALSE(parseObject(batch.events[3].payloadJson)->has("scope"));  // an empty scope
  const auto fourth = parseObject(batch.events[3].metadataJson);
  EXPECT_EQ(fourth->getValue<std::string>("service.name"), "beta");
  EXPECT_FALSE(fourth->has("environment"));
  EXPECT_FALSE(fourth->has("release"));
}

TEST(OtlpProtobufDecode, UnknownFieldsOfEveryWireTypeAreSkippedAtEveryLevel) {
  const std::string junk = Pb().varint(1000, 7)
                               .fixed64(1001, 8)
                               .fixed32(1002, 9)
                               .bytes(1003, "junk")
                               .group(1004, Pb().varint(1, 1).group(2, Pb().bytes(3, "x")))
                               .str();
  const auto noisyKv = [&](std::string_view key, Pb value) {
    return Pb().extra(junk).bytes(1, key).extra(junk).message(2, value.extra(junk));
  };
  const Pb span = Pb().extra(junk)
                      .bytes(1, kTraceA)
                      .bytes(2, kSpanA)
                      .fixed32(16, 0x101)                 // flags
                      .bytes(3, "rojo=00f067aa0ba902b7")  // trace_state
                      .bytes(5, "noisy")
                      .extra(junk)
                      .fixed64(7, 2'000'000'000)
                      .fixed64(8, 3'000'000'000)
                      .message(9, noisyKv("k", stringValue("v")))
                      .varint(12, 1)  // dropped_events_count
                      .varint(14, 2)  // dropped_links_count
                      .message(11, Pb().extra(junk).bytes(2, "ev").message(3, noisyKv("n", intValue(3))))
                      .message(15, Pb().extra(junk).varint(3, 1))
                      .extra(junk);
  const Pb resource = Pb().extra(junk).message(1, noisyKv("service.name", stringValue("svc"))).varint(2, 4);
  const Pb scope = Pb().bytes(1, "lib").extra(junk).message(3, noisyKv("scope.attr", boolValue(true)));
  const Pb ss = Pb().extra(junk).message(1, scope).message(2, span).bytes(3, "https://opentelemetry.io/schemas/1.26.0");
  const Pb rs = Pb().extra(junk).message(1, resource).message(2, ss).bytes(3, "https://example/schema");
  const std::string body = Pb().extra(junk).message(1, rs).extra(junk).str();

  const SpanBatch batch = spanEvents(decodeTraceRequestProtobuf(body));
  ASSERT_EQ(batch.events.size(), 1u);
  const SpanEvent& e = batch.events[0];
  EXPECT_EQ(e.identifier, "noisy");
  EXPECT_EQ(e.occurredAtMicros, 2'000'000);
  const auto m = parseObject(e.metadataJson);
  EXPECT_EQ(m->getValue<std::string>("k"), "v");
  EXPECT_EQ(m->getValue<std::string>("service.name"), "svc");
  EXPECT_EQ(m->getValue<std::string>("status"), "ok");
  EXPECT_EQ(m->getValue<double>("duration_ms"), 1000.0);
  const auto p = parseObject(e.payloadJson);
  EXPECT_EQ(p->getObject("scope")->getValue<std::string>("name"), "lib");
  const auto event = p->getArray("events")->getObject(0);
  EXPECT_EQ(event->getValue<std::string>("name"), "ev");
  EXPECT_EQ(event->getObject("attributes")->getValue<Poco::Int64>("n"), 3);
}

TEST(OtlpProtobufDecode, KnownFieldsWithAnotherWireTypeAreSkipped) {
  // name (5) again as a varint, kind (6) as bytes, start (7) as a varint: protobuf
  // parsers treat such fields as unknown, so the earlier values stand.
  const Pb span = basicSpan("kept", 1).varint(5, 42).bytes(6, "x").varint(7, 5);
  const TraceRequest req = decodeTraceRequestProtobuf(requestWithSpan(span));
  const Span& s = req.resourceSpans[0].scopeSpans[0].spans[0];
  EXPECT_EQ(s.name, "kept");
  EXPECT_EQ(s.kind, 0);
  EXPECT_EQ(s.startTimeUnixNano, 1'700'000'000'000'000'000ULL);
}

TEST(OtlpProtobufDecode, EveryTruncationIsMalformed) {
  const std::string full = *hexDecode(kProtocRequestHex);
  for (std::size_t cut = 1; cut < full.size(); ++cut) {
    try {
      decodeTraceRequestProtobuf(std::string_view(full).substr(0, cut));
      ADD_FAILURE() << "a request cut to " << cut << " bytes decoded";
    } catch (const IngestError& e) {
      EXPECT_EQ(e.failure(), IngestFailure::Malformed);
    }
  }
}

TEST(OtlpProtobufDecode, BadWireTypeDeepInsideIsMalformed) {
  const Pb span = basicSpan("s", 1).message(9, Pb().bytes(1, "k").message(2, Pb().extra(bytesOf({0x0e, 0x00}))));
  const auto e = malformed([&] { decodeTraceRequestProtobuf(requestWithSpan(span)); });
  EXPECT_NE(std::string(e.what()).find("invalid wire type 6"), std::string::npos) << e.what();
}

TEST(OtlpProtobufDecode, NestingBombIsRefusedButReasonableNestingIsNot) {
  Pb bomb = stringValue("leaf");
  for (int i = 0; i < 200; ++i) bomb = arrayValue({bomb});
  const auto e = malformed(
      [&] { decodeTraceRequestProtobuf(requestWithSpan(basicSpan("s", 1).message(9, keyValue("deep", bomb)))); });
  EXPECT_NE(std::string(e.what()).find("nested deeper than 64"), std::string::npos) << e.what();

  Pb nested = stringValue("leaf");
  for (int i = 0; i < 10; ++i) nested = arrayValue({nested});
  const SpanBatch batch =
      spanEvents(decodeTraceRequestProtobuf(requestWithSpan(basicSpan("s", 1).message(9, keyValue("deep", nested)))));
  ASSERT_EQ(batch.events.size(), 1u);
  EXPECT_NE(batch.events[0].metadataJson.find(R"("deep":[[[[[[[[[["leaf"]]]]]]]]]])"), std::string::npos)
      << batch.events[0].metadataJson;
}

TEST(OtlpProtobufDecode, InvalidUtf8StringIsMalformed) {
  const auto e = malformed([&] { decodeTraceRequestProtobuf(requestWithSpan(basicSpan("bad \xff name", 1))); });
  EXPECT_NE(std::string(e.what()).find("Span.name is not valid UTF-8"), std::string::npos) << e.what();
}

TEST(OtlpProtobufDecode, EmptyBodyIsAnEmptyRequest) {
  EXPECT_EQ(decodeTraceRequestProtobuf("").spanCount(), 0u);
  EXPECT_TRUE(spanEvents(decodeTraceRequestProtobuf("")).events.empty());
}

// ---------------------------------------------------------------- OTLP/JSON

const char* const kJsonRequest = R"({"resourceSpans":[{
  "resource":{"attributes":[{"key":"service.name","value":{"stringValue":"web"}}]},
  "scopeSpans":[{"scope":{"name":"agents","version":"0.1"},"spans":[{
    "traceId":"5B8EFFF798038103D269B633813FC60C","spanId":"EEE19B7EC3C1B174","parentSpanId":"eee19b7ec3c1b173",
    "name":"invoke_agent planner","kind":2,
    "startTimeUnixNano":"1544712660000000000","endTimeUnixNano":1544712661000000000,
    "attributes":[
      {"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}},
      {"key":"gen_ai.agent.name","value":{"stringValue":"planner"}},
      {"key":"tokens_str","value":{"intValue":"42"}},
      {"key":"tokens_num","value":{"intValue":7}},
      {"key":"smallest","value":{"intValue":"-9223372036854775808"}},
      {"key":"ratio","value":{"doubleValue":1.5}},
      {"key":"inf","value":{"doubleValue":"Infinity"}},
      {"key":"flag","value":{"boolValue":true}},
      {"key":"raw","value":{"bytesValue":"3q2+7w=="}},
      {"key":"list","value":{"arrayValue":{"values":[{"intValue":"1"},{"stringValue":"two"}]}}},
      {"key":"map","value":{"kvlistValue":{"values":[{"key":"a","value":{"boolValue":false}}]}}},
      {"key":"nothing","value":{}}],
    "droppedAttributesCount":0,
    "events":[{"timeUnixNano":"1544712660500000000","name":"thinking",
               "attributes":[{"key":"step","value":{"intValue":"1"}}]}],
    "links":[{"traceId":"5B8EFFF798038103D269B633813FC60C","spanId":"EEE19B7EC3C1B174"}],
    "status":{"code":1},
    "flags":256,
    "someFutureField":{"ignored":[1,2,3]}
  }]}]}]})";

TEST(OtlpJsonDecode, CamelCaseRequestWithStringAndNumberInt64s) {
  const SpanBatch batch = spanEvents(decodeTraceRequestJson(kJsonRequest));
  ASSERT_EQ(batch.events.size(), 1u);
  EXPECT_TRUE(batch.rejected.empty());
  const SpanEvent& e = batch.events[0];
  EXPECT_EQ(e.identifier, "invoke_agent planner");
  EXPECT_EQ(e.traceId, "5b8efff798038103d269b633813fc60c");  // hex, lowercased
  EXPECT_EQ(e.spanId, "eee19b7ec3c1b174");
  EXPECT_EQ(e.parentSpanId, "eee19b7ec3c1b173");
  EXPECT_EQ(e.eventType, "agent.end");
  EXPECT_EQ(e.agentId, "planner");
  EXPECT_EQ(e.occurredAtMicros, 1544712660000000);  // from a string
  const auto m = parseObject(e.metadataJson);
  EXPECT_EQ(m->getValue<double>("duration_ms"), 1000.0);  // end came as a JSON number
  EXPECT_EQ(m->getValue<Poco::Int64>("tokens_str"), 42);
  EXPECT_EQ(m->getValue<Poco::Int64>("tokens_num"), 7);
  EXPECT_TRUE(m->get("tokens_str").isInteger()) << e.metadataJson;
  EXPECT_EQ(m->getValue<Poco::Int64>("smallest"), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(m->getValue<double>("ratio"), 1.5);
  EXPECT_EQ(m->getValue<std::string>("inf"), "Infinity");
  EXPECT_EQ(m->getValue<bool>("flag"), true);
  EXPECT_EQ(m->getValue<std::string>("raw"), "3q2+7w==");
  EXPECT_NE(e.metadataJson.find(R"("list":[1,"two"])"), std::string::npos) << e.metadataJson;
  EXPECT_NE(e.metadataJson.find(R"("map":{"a":false})"), std::string::npos) << e.metadataJson;
  EXPECT_NE(e.metadataJson.find(R"("nothing":null)"), std::string::npos) << e.metadataJson;
  EXPECT_EQ(m->getValue<std::string>("service.name"), "web");
  EXPECT_EQ(m->getValue<std::string>("status"), "ok");
  EXPECT_EQ(m->getValue<std::string>("operation"), "invoke_agent");
  EXPECT_EQ(
      e.payloadJson,
      R"({"name":"invoke_agent planner","kind":"server","startTimeUnixNano":"1544712660000000000",)"
      R"("endTimeUnixNano":"1544712661000000000","status":{"code":"ok"},)"
      R"("scope":{"name":"agents","version":"0.1"},)"
      R"("events":[{"name":"thinking","timeUnixNano":"1544712660500000000","attributes":{"step":1}}],"links":1})");
}

// The same document with the proto field names (snake_case) instead of lowerCamelCase.
std::string snakeCased(std::string json) {
  static const std::pair<const char*, const char*> kRenames[] = {
      {"\"resourceSpans\":", "\"resource_spans\":"},
      {"\"scopeSpans\":", "\"scope_spans\":"},
      {"\"traceId\":", "\"trace_id\":"},
      {"\"spanId\":", "\"span_id\":"},
      {"\"parentSpanId\":", "\"parent_span_id\":"},
      {"\"startTimeUnixNano\":", "\"start_time_unix_nano\":"},
      {"\"endTimeUnixNano\":", "\"end_time_unix_nano\":"},
      {"\"timeUnixNano\":", "\"time_unix_nano\":"},
      {"\"stringValue\":", "\"string_value\":"},
      {"\"intValue\":", "\"int_value\":"},
      {"\"doubleValue\":", "\"double_value\":"},
      {"\"boolValue\":", "\"bool_value\":"},
      {"\"bytesValue\":", "\"bytes_value\":"},
      {"\"arrayValue\":", "\"array_value\":"},
      {"\"kvlistValue\":", "\"kvlist_value\":"},
      {"\"droppedAttributesCount\":", "\"dropped_attributes_count\":"},
  };
  for (const auto& [from, to] : kRenames) {
    for (auto at = json.find(from); at != std::string::npos; at = json.find(from, at))
      json.replace(at, std::strlen(from), to);
  }
  return json;
}

TEST(OtlpJsonDecode, SnakeCaseNamesDecodeTheSame) {
  const std::string snake = snakeCased(kJsonRequest);
  ASSERT_EQ(snake.find("startTimeUnixNano"), std::string::npos);
  ASSERT_NE(snake.find("\"kvlist_value\":"), std::string::npos);
  const SpanBatch camelBatch = spanEvents(decodeTraceRequestJson(kJsonRequest));
  const SpanBatch snakeBatch = spanEvents(decodeTraceRequestJson(snake));
  ASSERT_EQ(snakeBatch.events.size(), 1u);
  EXPECT_EQ(snakeBatch.events[0].traceId, camelBatch.events[0].traceId);
  EXPECT_EQ(snakeBatch.events[0].parentSpanId, camelBatch.events[0].parentSpanId);
  EXPECT_EQ(snakeBatch.events[0].occurredAtMicros, camelBatch.events[0].occurredAtMicros);
  EXPECT_EQ(snakeBatch.events[0].metadataJson, camelBatch.events[0].metadataJson);
  EXPECT_EQ(snakeBatch.events[0].payloadJson, camelBatch.events[0].payloadJson);
}

TEST(OtlpJsonDecode, ProtobufAndJsonOfTheSameSpanGiveTheSameEvent) {
  const std::string json =
      R"({"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]},
    "scopeSpans":[{"scope":{"name":"lib","version":"1.0"},"spans":[{
      "traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"a1a2a3a4a5a6a7a8","parentSpanId":"b1b2b3b4b5b6b7b8",
      "name":"chat gpt-4","kind":3,"startTimeUnixNano":"1700000000123456789","endTimeUnixNano":"1700000001623456789",
      "attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},
                    {"key":"gen_ai.usage.input_tokens","value":{"intValue":"12"}},
                    {"key":"neg","value":{"intValue":"-5"}},
                    {"key":"ratio","value":{"doubleValue":0.25}}],
      "status":{"code":1}}]}]}]})";
  const SpanEvent fromJson = spanEvents(decodeTraceRequestJson(json)).events.at(0);
  const SpanEvent fromProtobuf = spanEvents(decodeTraceRequestProtobuf(*hexDecode(kProtocRequestHex))).events.at(0);
  EXPECT_EQ(fromJson.metadataJson, fromProtobuf.metadataJson);
  EXPECT_EQ(fromJson.payloadJson, fromProtobuf.payloadJson);
  EXPECT_EQ(fromJson.traceId, fromProtobuf.traceId);
  EXPECT_EQ(fromJson.occurredAtMicros, fromProtobuf.occurredAtMicros);
}

TEST(OtlpJsonDecode, NonHexIdRejectsOnlyThatSpan) {
  const SpanBatch batch = spanEvents(decodeTraceRequestJson(R"({"resourceSpans":[{"scopeSpans":[{"spans":[
      {"traceId":"zz8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"bad"},
      {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b17","name":"odd"},
      {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174",
       "parentSpanId":"","name":"good"}]}]}]})"));
  ASSERT_EQ(batch.events.size(), 1u);
  EXPECT_EQ(batch.events[0].identifier, "good");
  EXPECT_EQ(batch.events[0].parentSpanId, std::nullopt);      // "" = root
  EXPECT_EQ(batch.events[0].occurredAtMicros, std::nullopt);  // no start time
  ASSERT_EQ(batch.rejected.size(), 2u);
  EXPECT_EQ(batch.rejected[0].spanIndex, 0u);
  EXPECT_EQ(batch.rejected[0].reason, "traceId is not hex");
  EXPECT_EQ(batch.rejected[1].spanIndex, 1u);
  EXPECT_EQ(batch.rejected[1].reason, "spanId is not hex");  // an odd number of digits
}

TEST(OtlpJsonDecode, NullsAndMissingFieldsAreDefaults) {
  EXPECT_EQ(decodeTraceRequestJson("{}").spanCount(), 0u);
  EXPECT_EQ(decodeTraceRequestJson(R"({"resourceSpans":null})").spanCount(), 0u);
  EXPECT_EQ(decodeTraceRequestJson(R"({"resourceSpans":[{}]})").spanCount(), 0u);
  const TraceRequest req =
      decodeTraceRequestJson(R"({"resourceSpans":[{"resource":null,"scopeSpans":[{"scope":null,"spans":[)"
                             R"({"name":"n","parentSpanId":null,"status":null,"kind":null}]}]}]})");
  ASSERT_EQ(req.spanCount(), 1u);
  const Span& s = req.resourceSpans[0].scopeSpans[0].spans[0];
  EXPECT_EQ(s.name, "n");
  EXPECT_EQ(s.parentSpanId, "");
  EXPECT_EQ(s.kind, 0);
  EXPECT_EQ(s.statusCode, kStatusUnset);
}

TEST(OtlpJsonDecode, MalformedDocumentsNameTheOffendingPath) {
  const auto why = [](const std::string& json) {
    return std::string(malformed([&] { decodeTraceRequestJson(json); }).what());
  };
  EXPECT_NE(why("not json").find("not valid JSON"), std::string::npos);
  EXPECT_NE(why("[]").find("the body must be an object"), std::string::npos);
  EXPECT_NE(why(R"({"resourceSpans":{}})").find("resourceSpans must be an array"), std::string::npos);
  EXPECT_NE(why(R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"name":5}]}]}]})")
                .find("resourceSpans[0].scopeSpans[0].spans[0].name must be a string"),
            std::string::npos);
  EXPECT_NE(why(R"({"resourceSpans":[{"scopeSpans":[{"spans":[7]}]}]})").find("spans[0] must be an object"),
            std::string::npos);
  const auto attribute = [&](const std::string& value) {
    return why(R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"k","value":)" + value +
               "}]}]}]}]}");
  };
  EXPECT_NE(attribute(R"({"intValue":"12abc"})").find("spans[0].attributes[0].value.intValue must be an integer"),
            std::string::npos);
  EXPECT_NE(attribute(R"({"intValue":1.5})").find("not a whole number"), std::string::npos);
  EXPECT_NE(attribute(R"({"intValue":"9223372036854775808"})").find("must be an integer"), std::string::npos);
  EXPECT_NE(attribute(R"({"boolValue":"yes"})").find("boolValue must be true or false"), std::string::npos);
  EXPECT_NE(attribute(R"({"doubleValue":"fast"})").find("doubleValue must be a number"), std::string::npos);
  EXPECT_NE(attribute(R"({"bytesValue":"***"})").find("bytesValue must be base64"), std::string::npos);
  EXPECT_NE(attribute(R"({"arrayValue":[1]})").find("arrayValue must be an object"), std::string::npos);
  EXPECT_NE(why(R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"startTimeUnixNano":"-1"}]}]}]})")
                .find("startTimeUnixNano must be an integer"),
            std::string::npos);
  EXPECT_NE(why(R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"kind":"SPAN_KIND_SERVER"}]}]}]})")
                .find("kind must be an integer"),
            std::string::npos);
}

TEST(OtlpJsonDecode, WholeNumbersInOtherSpellingsAreIntegers) {
  const TraceRequest req = decodeTraceRequestJson(
      R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"startTimeUnixNano":1e9,"kind":2.0,
          "attributes":[{"key":"k","value":{"intValue":-3.0}}]}]}]}]})");
  const Span& s = req.resourceSpans[0].scopeSpans[0].spans[0];
  EXPECT_EQ(s.startTimeUnixNano, 1'000'000'000u);
  EXPECT_EQ(s.kind, 2);
  EXPECT_EQ(s.attributes[0].value.integer, -3);
}

TEST(OtlpJsonDecode, NestingBombsAreRefused) {
  malformed([] { decodeTraceRequestJson(std::string(100000, '[')); });
  std::string deep = R"({"stringValue":"leaf"})";
  for (int i = 0; i < 40; ++i) deep = R"({"arrayValue":{"values":[)" + deep + "]}}";
  malformed([&] {
    decodeTraceRequestJson(R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"k","value":)" + deep +
                           "}]}]}]}]}");
  });
}

}  // namespace
}  // namespace aev::otlp

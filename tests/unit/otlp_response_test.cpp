// otlp/export_response.h, otlp/encoding.h, otlp/trace_ingest.h: response bodies in the
// request's encoding and the whole decode path. The protobuf expectations are
// `protoc --encode` (libprotoc 3.21.12) output of ExportTraceServiceResponse and
// google.rpc.Status with the field numbers of opentelemetry-proto and googleapis.
#include <Poco/DeflatingStream.h>
#include <gtest/gtest.h>

#include <sstream>

#include "common/encoding.h"
#include "otlp/trace_ingest.h"

namespace aev::otlp {
namespace {

TEST(OtlpResponse, FullSuccessIsAnEmptyMessage) {
  EXPECT_EQ(exportTraceResponse(Encoding::Protobuf), "");
  EXPECT_EQ(exportTraceResponse(Encoding::Json), "{}");
  EXPECT_EQ(exportTraceResponse(Encoding::Json, 0, ""), "{}");
}

TEST(OtlpResponse, PartialSuccess) {
  // protoc: partial_success { rejected_spans: 2 error_message: "bad ids" }
  EXPECT_EQ(hexEncode(exportTraceResponse(Encoding::Protobuf, 2, "bad ids")), "0a0b0802120762616420696473");
  EXPECT_EQ(exportTraceResponse(Encoding::Json, 2, "bad ids"),
            R"({"partialSuccess":{"rejectedSpans":"2","errorMessage":"bad ids"}})");
  EXPECT_EQ(exportTraceResponse(Encoding::Json, 5), R"({"partialSuccess":{"rejectedSpans":"5"}})");
  // A warning with nothing rejected: rejected_spans stays at its default and is left out.
  EXPECT_EQ(exportTraceResponse(Encoding::Json, 0, "slow down"), R"({"partialSuccess":{"errorMessage":"slow down"}})");
  EXPECT_EQ(hexEncode(exportTraceResponse(Encoding::Protobuf, 0, "w")), "0a03120177");
  EXPECT_EQ(exportTraceResponse(Encoding::Json, 1, "say \"no\"\n"),
            R"({"partialSuccess":{"rejectedSpans":"1","errorMessage":"say \"no\"\n"}})");
}

TEST(OtlpResponse, RpcStatus) {
  // protoc: google.rpc.Status { code: 3 message: "bad" }
  EXPECT_EQ(hexEncode(rpcStatus(Encoding::Protobuf, 3, "bad")), "08031203626164");
  EXPECT_EQ(rpcStatus(Encoding::Json, 3, "bad"), R"({"code":3,"message":"bad"})");
  EXPECT_EQ(rpcStatus(Encoding::Json, 3, "a \"quoted\" word"), R"({"code":3,"message":"a \"quoted\" word"})");
  EXPECT_EQ(rpcStatus(Encoding::Json, 0, ""), "{}");
  EXPECT_EQ(rpcStatus(Encoding::Protobuf, 0, ""), "");
}

TEST(OtlpResponse, ErrorBodyFromAnIngestError) {
  const IngestError tooLarge(IngestFailure::TooLarge, "too big");
  EXPECT_EQ(errorBody(Encoding::Json, tooLarge), R"({"code":8,"message":"too big"})");
  const IngestError malformed(IngestFailure::Malformed, "bad");
  EXPECT_EQ(hexEncode(errorBody(Encoding::Protobuf, malformed)), "08031203626164");
  EXPECT_EQ(IngestError(IngestFailure::UnsupportedEncoding, "").rpcCode(), 3);
  EXPECT_EQ(IngestError(IngestFailure::CorruptCompression, "").httpStatus(), 400);
}

TEST(OtlpResponse, EncodingFromContentType) {
  EXPECT_EQ(encodingForContentType("application/x-protobuf"), Encoding::Protobuf);
  EXPECT_EQ(encodingForContentType("application/json"), Encoding::Json);
  EXPECT_EQ(encodingForContentType("Application/JSON; charset=utf-8"), Encoding::Json);
  EXPECT_EQ(encodingForContentType(" application/x-protobuf ;foo=bar"), Encoding::Protobuf);
  EXPECT_EQ(encodingForContentType("text/plain"), std::nullopt);
  EXPECT_EQ(encodingForContentType("application/grpc"), std::nullopt);
  EXPECT_EQ(encodingForContentType(""), std::nullopt);
  EXPECT_STREQ(contentTypeOf(Encoding::Protobuf), "application/x-protobuf");
  EXPECT_STREQ(contentTypeOf(Encoding::Json), "application/json");
}

TEST(OtlpTraceIngest, GzippedJsonEndToEnd) {
  const std::string json = R"({"resourceSpans":[{"scopeSpans":[{"spans":[
      {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"one",
       "startTimeUnixNano":"2000"},
      {"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0000000000000000","name":"two"}]}]}]})";
  std::ostringstream out;
  Poco::DeflatingOutputStream deflater(out, Poco::DeflatingStreamBuf::STREAM_GZIP);
  deflater << json;
  deflater.close();

  const SpanBatch batch = decodeTraceExport(out.str(), "gzip", Encoding::Json, 1 << 20);
  ASSERT_EQ(batch.events.size(), 1u);
  EXPECT_EQ(batch.events[0].identifier, "one");
  EXPECT_EQ(batch.events[0].occurredAtMicros, 2);
  ASSERT_EQ(batch.rejected.size(), 1u);
  EXPECT_EQ(
      exportTraceResponse(Encoding::Json, static_cast<std::int64_t>(batch.rejected.size()), batch.rejectionMessage()),
      R"({"partialSuccess":{"rejectedSpans":"1","errorMessage":"1 span was rejected: span 1: spanId is all zeros"}})");
}

TEST(OtlpTraceIngest, ProtobufBodyThatIsNotProtobufIsA400) {
  try {
    decodeTraceExport(std::string("\x0f\x00", 2), "", Encoding::Protobuf, 1 << 20);
    FAIL() << "expected IngestError";
  } catch (const IngestError& e) {
    EXPECT_EQ(e.httpStatus(), 400);
    EXPECT_EQ(errorBody(Encoding::Json, e).rfind(R"({"code":3,"message":"The protobuf request is malformed: )", 0), 0u)
        << errorBody(Encoding::Json, e);
  }
}

}  // namespace
}  // namespace aev::otlp

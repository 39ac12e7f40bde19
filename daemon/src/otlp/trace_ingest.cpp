#include "otlp/trace_ingest.h"

#include "otlp/duplicate_spans.h"
#include "otlp/gzip_body.h"
#include "otlp/trace_decode.h"

namespace aev::otlp {

namespace {

std::string channelAttributeOf(const std::vector<KeyValue>& resourceAttributes) {
  for (const auto& kv : resourceAttributes) {
    if (kv.key != kChannelAttribute) continue;
    if (kv.value.kind == AnyValue::Kind::String) return kv.value.text;
    if (kv.value.kind == AnyValue::Kind::Int) return std::to_string(kv.value.integer);
    return "?";
  }
  return "";
}

}  // namespace

TraceExport decodeTraceExport(std::string body, std::string_view contentEncoding, Encoding encoding,
                              std::size_t maxBytes, SpanTexts texts) {
  const std::string decoded = decodeContentEncoding(std::move(body), contentEncoding, maxBytes);
  TraceRequest request =
      encoding == Encoding::Protobuf ? decodeTraceRequestProtobuf(decoded) : decodeTraceRequestJson(decoded);
  // One resource at a time, so each accepted span is paired with its resource's channel;
  // rejected spans keep their index among all spans of the request.
  TraceExport out;
  std::size_t spansBefore = 0;
  for (auto& resource : request.resourceSpans) {
    const auto channel = channelAttributeOf(resource.resourceAttributes);
    TraceRequest one;
    one.resourceSpans.push_back(std::move(resource));
    auto batch = spanEvents(one, texts);
    for (auto& rejected : batch.rejected) {
      rejected.spanIndex += spansBefore;
      out.rejected.push_back(std::move(rejected));
    }
    for (auto& event : batch.events) {
      out.events.push_back(std::move(event));
      out.resourceChannels.push_back(channel);
    }
    spansBefore += one.spanCount();
  }
  markDuplicateLlmSpans(out.events);  // two instrumentations of one call count once
  return out;
}

std::string errorBody(Encoding encoding, const IngestError& error) {
  return rpcStatus(encoding, error.rpcCode(), error.what());
}

}  // namespace aev::otlp

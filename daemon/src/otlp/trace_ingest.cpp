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
  auto request = std::make_shared<TraceRequest>(encoding == Encoding::Protobuf ? decodeTraceRequestProtobuf(decoded)
                                                                               : decodeTraceRequestJson(decoded));
  // One resource at a time, so each accepted span is paired with its resource's channel;
  // rejected spans keep their index among all spans of the request.
  TraceExport out;
  std::size_t index = 0;
  for (const auto& resource : request->resourceSpans) {
    const auto channel = channelAttributeOf(resource.resourceAttributes);
    appendSpanEvents(resource, texts, index, out);
    out.resourceChannels.resize(out.events.size(), channel);
  }
  markDuplicateLlmSpans(out.events);  // two instrumentations of one call count once
  out.request = std::move(request);
  return out;
}

std::string errorBody(Encoding encoding, const IngestError& error) {
  return rpcStatus(encoding, error.rpcCode(), error.what());
}

}  // namespace aev::otlp

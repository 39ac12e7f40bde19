#include "otlp/trace_ingest.h"

#include "otlp/gzip_body.h"
#include "otlp/trace_decode.h"

namespace aev::otlp {

SpanBatch decodeTraceExport(std::string body, std::string_view contentEncoding, Encoding encoding,
                            std::size_t maxBytes) {
  const std::string decoded = decodeContentEncoding(std::move(body), contentEncoding, maxBytes);
  const TraceRequest request =
      encoding == Encoding::Protobuf ? decodeTraceRequestProtobuf(decoded) : decodeTraceRequestJson(decoded);
  return spanEvents(request);
}

std::string errorBody(Encoding encoding, const IngestError& error) {
  return rpcStatus(encoding, error.rpcCode(), error.what());
}

}  // namespace aev::otlp

// libFuzzer target for the OTLP/HTTP protobuf decoder (ExportTraceServiceRequest) and the
// wire-format reader under it. Untrusted bytes from any OTLP client: the decoder may
// refuse them only with IngestError (a 400), never another exception (a 500) or a crash,
// and whatever it accepts must hold the invariants the span mapping relies on: strings
// declared UTF-8 by the protocol are valid UTF-8.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.h"
#include "otlp/ingest_error.h"
#include "otlp/trace_decode.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    auto request = aev::otlp::decodeTraceRequestProtobuf(bytes);
    aev::fuzz::checkTraceRequest(request);
  } catch (const aev::otlp::IngestError&) {
  }
  return 0;
}

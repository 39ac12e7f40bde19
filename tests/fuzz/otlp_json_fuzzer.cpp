// libFuzzer target for the OTLP/HTTP JSON decoder (ExportTraceServiceRequest in the
// OTLP/JSON mapping). As for protobuf: refusal only as IngestError, no crash, and the
// decoded strings valid UTF-8. otlp_json.dict holds the mapping's keys.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.h"
#include "otlp/ingest_error.h"
#include "otlp/trace_decode.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto request = aev::otlp::decodeTraceRequestJson(text);
    aev::fuzz::checkTraceRequest(request);
  } catch (const aev::otlp::IngestError&) {
  }
  return 0;
}

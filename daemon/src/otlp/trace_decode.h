#pragma once
// Decoding an ExportTraceServiceRequest from the two OTLP/HTTP encodings. A body that is
// not a request at all throws IngestError Malformed (the whole request is refused with
// 400); problems that concern one span only (ids, name) are left for the span mapping
// to reject that span alone.
#include <string_view>

#include "otlp/trace_model.h"

namespace aev::otlp {

// application/x-protobuf. Unknown fields of every wire type are skipped, as protobuf
// requires; a known field arriving with another wire type is skipped as unknown too.
TraceRequest decodeTraceRequestProtobuf(std::string_view bytes);

// application/json, the OTLP/JSON mapping: lowerCamelCase keys (snake_case accepted
// too, although the OTLP specification asks senders not to use it), trace and span ids
// as hex, 64-bit integers as decimal strings or numbers, enums as integers, unknown keys
// ignored, null treated as absent.
TraceRequest decodeTraceRequestJson(std::string_view text);

}  // namespace aev::otlp

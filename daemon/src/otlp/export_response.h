#pragma once
// OTLP/HTTP response bodies, in the request's encoding.
//
// Success: collector.trace.v1.ExportTraceServiceResponse { partial_success = 1 }, with
// ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2 }. A full
// success leaves partial_success unset: an empty protobuf message, `{}` in JSON.
//
// Failure (any 4xx/5xx): google.rpc.Status { int32 code = 1; string message = 2;
// repeated Any details = 3 } (details not sent).
//
// The JSON forms follow the proto3 JSON mapping: lowerCamelCase names, int64 as a decimal
// string, fields at their default value left out.
#include <cstdint>
#include <string>
#include <string_view>

#include "otlp/encoding.h"

namespace aev::otlp {

std::string exportTraceResponse(Encoding encoding, std::int64_t rejectedSpans = 0, std::string_view errorMessage = {});

std::string rpcStatus(Encoding encoding, int code, std::string_view message);

}  // namespace aev::otlp

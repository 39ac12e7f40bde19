#pragma once
// The whole OTLP/HTTP traces ingest decode, for the POST /v1/traces route:
//
//   auto encoding = otlp::encodingForContentType(contentType);       // nullopt → 415
//   try {
//     otlp::SpanBatch batch = otlp::decodeTraceExport(body, contentEncoding, *encoding, maxBodyBytes);
//     ... store batch.events (each → NewEvent, source "otlp"), count refusals ...
//     respond 200, contentTypeOf(*encoding),
//             exportTraceResponse(*encoding, rejected, batch.rejectionMessage() / own reasons)
//   } catch (const otlp::IngestError& e) {
//     respond e.httpStatus(), contentTypeOf(*encoding), otlp::errorBody(*encoding, e)
//   }
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "otlp/encoding.h"
#include "otlp/export_response.h"
#include "otlp/ingest_error.h"
#include "otlp/span_events.h"

namespace aev::otlp {

// The resource attribute that names the channel a resource's spans go to, when the request
// names none (docs/api.md#otlp-ingest).
inline constexpr const char* kChannelAttribute = "agent_events.channel_id";

// The spans of a request, and for each accepted one the value of its resource's
// kChannelAttribute as text ("" when the resource has none; a value that is neither a
// string nor an integer is kept as "?" so it reads as no channel id).
struct TraceExport : SpanBatch {
  std::vector<std::string> resourceChannels;  // parallel to events
  // The decoded request, alive as long as this export (which the route keeps until its
  // events are published), so the events can read its attributes in place instead of copies.
  std::shared_ptr<const TraceRequest> request;
};

// Inflates (per Content-Encoding, with maxBytes before and after), decodes and maps the
// spans. Throws IngestError for a body that is too large, undecodable or not a request;
// per-span problems come back in SpanBatch::rejected. `texts`: as spanEvents.
TraceExport decodeTraceExport(std::string body, std::string_view contentEncoding, Encoding encoding,
                              std::size_t maxBytes, SpanTexts texts = SpanTexts::Condensed);

// The google.rpc.Status body for an IngestError.
std::string errorBody(Encoding encoding, const IngestError& error);

}  // namespace aev::otlp

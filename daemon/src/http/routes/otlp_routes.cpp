// OTLP/HTTP traces ingest (docs/api.md#otlp-ingest): POST /v1/traces, protobuf or JSON, gzip
// accepted. /v1/* follows the OTLP/HTTP specification, not docs/api.md#errors: errors are a
// google.rpc.Status in the request's encoding, refused spans a partial_success.
#include <Poco/JSON/Parser.h>
#include <spdlog/spdlog.h>

#include <charconv>

#include "auth/authenticator.h"
#include "common/exceptions.h"
#include "common/text.h"
#include "events/event_service.h"
#include "events/publisher.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/router.h"
#include "otlp/trace_ingest.h"

namespace aev::http {

namespace {

constexpr std::size_t kMaxShortString = 256;  // identifier and agentId, as on POST /event

// google.rpc.Code for an HTTP status of ours.
int rpcCodeOf(int status) {
  switch (status) {
    case 400: case 413: case 415: case 422: return 3;  // INVALID_ARGUMENT
    case 401: return 16;                                // UNAUTHENTICATED
    case 403: return 7;                                 // PERMISSION_DENIED
    case 404: return 5;                                 // NOT_FOUND
    case 429: return 8;                                 // RESOURCE_EXHAUSTED
    case 503: return 14;                                // UNAVAILABLE
    default: return 13;                                 // INTERNAL
  }
}

Response statusResponse(otlp::Encoding encoding, int status, int code, const std::string& message) {
  return Response::text(status, otlp::contentTypeOf(encoding), otlp::rpcStatus(encoding, code, message));
}

std::int64_t channelOf(const Request& req) {
  std::string text = req.header("x-channel-id");
  if (text.empty()) text = req.queryParam("channel_id").value_or("");
  std::int64_t id = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || id <= 0)
    throw errors::badRequest("Name the channel to ingest into with header x-channel-id (or ?channel_id=).");
  return id;
}

// A span as an event to publish, or its refusal: the same size limits as POST /event.
events::Publisher::Item toSubmission(otlp::SpanEvent&& span, const auth::Principal& p, std::int64_t channelId) {
  if (utf8Length(span.identifier) > kMaxShortString)
    return errors::validation({}, "span name longer than 256 characters");
  if (span.agentId && utf8Length(*span.agentId) > kMaxShortString)
    return errors::validation({}, "gen_ai.agent.name longer than 256 characters");
  events::Submission s;
  s.location = "span";
  auto& e = s.event;
  e.orgId = *p.orgId;
  e.channelId = channelId;
  e.source = "otlp";
  e.identifier = std::move(span.identifier);
  e.agentId = std::move(span.agentId);
  e.eventType = std::move(span.eventType);
  e.traceId = std::move(span.traceId);
  e.spanId = std::move(span.spanId);
  e.parentSpanId = std::move(span.parentSpanId);
  e.occurredAt = span.occurredAtMicros;
  if (p.isUser())
    e.userId = p.userId;
  else
    e.apiKeyId = p.apiKeyId;
  s.metadata = std::move(span.metadata);  // as the mapping built them: nothing parsed again
  s.payloadIs(std::move(span.payload));
  e.payloadJson = std::move(span.payloadJson);
  e.metadataJson = std::move(span.metadataJson);
  return s;
}

// What partial_success.error_message says of a refused span: a bad field by its location
// (telemetry's problems), anything else (moderation, spend, quota) by its detail.
std::string reasonOf(const ApiError& refusal) {
  if (refusal.slug() == "validation" && !refusal.fieldErrors().empty())
    return refusal.fieldErrors().front().location + " " + refusal.fieldErrors().front().message;
  return refusal.detail();
}

// The span's own faults (422: sizes, tags, moderation) are named before the store's
// refusals (spend, quota), whatever their order.
std::string firstReason(const std::vector<events::Publisher::Result>& results) {
  for (bool own : {true, false})
    for (const auto& r : results)
      if (const auto* refusal = std::get_if<ApiError>(&r); refusal && (!own || refusal->status() == 422))
        return reasonOf(*refusal);
  return "";
}

Response ingest(AppContext& ctx, Request& req, otlp::Encoding encoding) {
  auto p = ctx.authenticator->userOrApiKey(credentialsOf(req), "publish");
  p.requireOrg();
  const auto channelId = channelOf(req);
  ctx.events->channel(*p.orgId, channelId);  // another organization's channel reads as missing
  auto batch = otlp::decodeTraceExport(std::move(req.body), req.header("content-encoding"), encoding,
                                       ctx.maxBodyBytes);
  std::vector<events::Publisher::Item> items;
  items.reserve(batch.events.size());
  for (auto& span : batch.events) items.push_back(toSubmission(std::move(span), p, channelId));
  const auto results =
      items.empty() ? std::vector<events::Publisher::Result>{} : ctx.publisher->publishBatch(std::move(items));
  auto rejected = static_cast<std::int64_t>(batch.rejected.size());
  for (const auto& r : results) rejected += std::holds_alternative<ApiError>(r) ? 1 : 0;
  std::string reason = batch.rejectionMessage();
  if (reason.empty()) reason = firstReason(results);
  return Response::text(200, otlp::contentTypeOf(encoding), otlp::exportTraceResponse(encoding, rejected, reason));
}

}  // namespace

void registerOtlpRoutes(Router& router, AppContext& ctx) {
  router.add(
      "POST", "/v1/traces",
      [&ctx](Request& req) {
        const auto encoding = otlp::encodingForContentType(req.header("content-type"));
        if (!encoding)
          return statusResponse(otlp::Encoding::Json, 415, 3,
                                "Content-Type must be application/x-protobuf or application/json.");
        try {
          return ingest(ctx, req, *encoding);
        } catch (const otlp::IngestError& e) {
          return Response::text(e.httpStatus(), otlp::contentTypeOf(*encoding), otlp::errorBody(*encoding, e));
        } catch (const ApiError& e) {
          // A missing channel is bad data for OTLP (docs/api.md#otlp-ingest): 400, not 404.
          const int status = e.status() == 404 ? 400 : e.status();
          auto r = statusResponse(*encoding, status, rpcCodeOf(status), e.detail());
          for (const auto& [name, value] : e.headers()) r.headers.emplace_back(name, value);
          return r;
        } catch (const std::exception& e) {
          spdlog::error("OTLP ingest failed: {}", describeException(e));
          return statusResponse(*encoding, 500, 13, "internal error");
        }
      },
      "OTLP/HTTP traces (protobuf or JSON, gzip): each span becomes an event (x-channel-id; API key with publish).",
      "otlp");
}

}  // namespace aev::http

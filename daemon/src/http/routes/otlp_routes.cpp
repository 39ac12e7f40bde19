// OTLP/HTTP traces ingest (docs/api.md#otlp-ingest): POST /v1/traces, protobuf or JSON, gzip
// accepted. /v1/* follows the OTLP/HTTP specification, not docs/api.md#errors: errors are a
// google.rpc.Status in the request's encoding, refused spans a partial_success.
#include <Poco/JSON/Parser.h>
#include <spdlog/spdlog.h>

#include <charconv>

#include "auth/authenticator.h"
#include "common/clock.h"
#include "common/exceptions.h"
#include "common/text.h"
#include "events/event_service.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/router.h"
#include "moderation/moderator.h"
#include "otlp/trace_ingest.h"
#include "telemetry/extractor.h"

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

Poco::JSON::Object::Ptr parseObject(const std::string& json) {
  return Poco::JSON::Parser().parse(json).extract<Poco::JSON::Object::Ptr>();
}

// A span as an event to publish (moderated: `screening` keeps the verdict), or the
// reason it is refused (a moderation block included).
std::variant<events::NewEvent, std::string> toEvent(const AppContext& ctx, otlp::SpanEvent&& span,
                                                    const auth::Principal& p, std::int64_t channelId,
                                                    std::int64_t now, moderation::Screening& screening) {
  if (utf8Length(span.identifier) > kMaxShortString) return std::string("span name longer than 256 characters");
  if (span.agentId && utf8Length(*span.agentId) > kMaxShortString)
    return std::string("gen_ai.agent.name longer than 256 characters");
  events::NewEvent e;
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
  e.receivedAt = now;
  if (p.isUser())
    e.userId = p.userId;
  else
    e.apiKeyId = p.apiKeyId;
  auto payload = parseObject(span.payloadJson);
  auto metadata = parseObject(span.metadataJson);
  auto problems = ctx.telemetry->apply(e, payload, metadata, "span");
  if (!problems.empty()) return problems.front().location + " " + problems.front().message;
  e.payloadJson = std::move(span.payloadJson);
  e.metadataJson = std::move(span.metadataJson);
  if (ctx.moderator) {
    try {
      screening = ctx.moderator->screen(e, payload, metadata, "span");
    } catch (const ApiError& blocked) {
      return blocked.detail();  // counted in partial_success.rejected_spans
    }
  }
  return e;
}

Response ingest(AppContext& ctx, Request& req, otlp::Encoding encoding) {
  auto p = ctx.authenticator->userOrApiKey(credentialsOf(req), "publish");
  p.requireOrg();
  const auto channelId = channelOf(req);
  ctx.events->channel(*p.orgId, channelId);  // another organization's channel reads as missing
  auto batch = otlp::decodeTraceExport(std::move(req.body), req.header("content-encoding"), encoding,
                                       ctx.maxBodyBytes);
  std::int64_t rejected = static_cast<std::int64_t>(batch.rejected.size());
  std::string reason = batch.rejectionMessage();
  const auto now = clock::nowMicros();
  std::vector<events::EventService::BatchItem> items;
  items.reserve(batch.events.size());
  std::vector<moderation::Screening> screenings;  // one per item
  screenings.reserve(batch.events.size());
  for (auto& span : batch.events) {
    moderation::Screening screening;
    auto converted = toEvent(ctx, std::move(span), p, channelId, now, screening);
    if (auto* event = std::get_if<events::NewEvent>(&converted)) {
      items.emplace_back(std::move(*event));
      screenings.push_back(std::move(screening));
    } else {
      ++rejected;
      if (reason.empty()) reason = std::get<std::string>(converted);
    }
  }
  if (!items.empty()) {
    auto results = ctx.events->publishBatch(std::move(items));
    std::vector<const moderation::Screening*> screened;
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (const auto* err = std::get_if<ApiError>(&results[i])) {
        ++rejected;
        if (reason.empty()) reason = err->detail();
      } else {
        screenings[i].eventId = std::get<events::StoredEvent>(results[i]).id;
      }
      screened.push_back(&screenings[i]);
    }
    if (ctx.moderator) ctx.moderator->record(screened);
  }
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

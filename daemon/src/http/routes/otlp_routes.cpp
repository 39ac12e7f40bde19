// OTLP/HTTP traces ingest (docs/api.md#otlp-ingest): POST /v1/traces (and its Langfuse alias
// /api/public/otel/v1/traces), protobuf or JSON, gzip
// accepted. /v1/* follows the OTLP/HTTP specification, not docs/api.md#errors: errors are a
// google.rpc.Status in the request's encoding, refused spans a partial_success.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <spdlog/spdlog.h>

#include <charconv>
#include <set>

#include "auth/api_key_service.h"
#include "auth/authenticator.h"
#include "common/exceptions.h"
#include "common/text.h"
#include "events/event_service.h"
#include "events/publisher.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/render.h"
#include "http/router.h"
#include "ingest/problem_log.h"
#include "otlp/trace_ingest.h"

namespace aev::http {

namespace {

constexpr std::size_t kMaxShortString = 256;  // identifier and agentId, as on POST /event
constexpr const char* kNoChannelSlug = "no-channel";  // the 400 naming the three channel sources

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

// A channel id as text, or 400 naming where it came from.
std::int64_t channelIdFrom(const std::string& text, const std::string& source) {
  std::int64_t id = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc() || ptr != text.data() + text.size() || id <= 0)
    throw errors::badRequest(source + " must be a channel id (a positive integer).");
  return id;
}

// The channel of each accepted span (docs/api.md#otlp-ingest): the request's x-channel-id /
// ?channel_id=, else its resource's agent_events.channel_id, else the API key's default
// channel. A span with none refuses the whole request, naming the three; so does a
// channel that is not one of the organization's (checked once per channel).
std::vector<std::int64_t> channelsOf(AppContext& ctx, const Request& req, const auth::Principal& p,
                                     const otlp::TraceExport& batch) {
  std::optional<std::int64_t> requested;
  if (auto header = req.header("x-channel-id"); !header.empty())
    requested = channelIdFrom(header, "x-channel-id");
  else if (auto query = req.queryParam("channel_id"))
    requested = channelIdFrom(*query, "channel_id");
  std::optional<std::optional<std::int64_t>> keyDefault;  // read once, when a span needs it
  std::vector<std::int64_t> out;
  out.reserve(batch.events.size());
  for (const auto& attribute : batch.resourceChannels) {
    if (requested) {
      out.push_back(*requested);
    } else if (!attribute.empty()) {
      out.push_back(channelIdFrom(attribute, std::string("The resource attribute ") + otlp::kChannelAttribute));
    } else {
      if (!keyDefault)
        keyDefault.emplace(p.isUser() ? std::nullopt : ctx.apiKeys->defaultChannel(*p.orgId, p.apiKeyId));
      if (!*keyDefault)
        throw ApiError(400, kNoChannelSlug, "Bad Request",
                       std::string("Name the channel to ingest into: header x-channel-id (or ?channel_id=), "
                                   "the resource attribute ") +
                           otlp::kChannelAttribute + ", or the API key's defaultChannelId.");
      out.push_back(**keyDefault);
    }
  }
  std::set<std::int64_t> checked;
  if (requested && checked.insert(*requested).second) ctx.events->channel(*p.orgId, *requested);
  for (auto id : out)
    if (checked.insert(id).second) ctx.events->channel(*p.orgId, id);  // another organization's reads as missing
  return out;
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
  // As the mapping wrote them (SpanTexts::Deferred): the payload as text, the metadata flat
  // over the decoded request (which ingest() keeps until the batch is published), whose text
  // the publisher writes once, after it has moved the messages out of it into the payload's
  // text. No object is built unless moderation reads the metadata or the payload.
  s.flatMetadata = std::move(span.flatMetadata);
  e.payloadJson = std::move(span.payloadJson);
  s.payloadInTextOrder = true;
  s.textsFromObjects = true;
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

JsonObject problemJson(const store::IngestProblemRecord& problem) {
  auto obj = newObject();
  obj->set("id", idString(problem.id));
  obj->set("orgId", idString(problem.orgId));
  setTimestamp(obj, "occurredAt", problem.occurredAt);
  obj->set("route", problem.route);
  obj->set("status", problem.status);
  obj->set("reason", problem.reason);
  std::string phrase = problem.reason;
  for (auto r : ingest::allRefusals())
    if (ingest::codeOf(r) == problem.reason) phrase = std::string(ingest::phraseOf(r));
  obj->set("reasonText", phrase);
  obj->set("detail", problem.detail);
  if (problem.apiKeyId)
    obj->set("apiKeyId", idString(*problem.apiKeyId));
  else
    obj->set("apiKeyId", Poco::Dynamic::Var());
  obj->set("rejectedSpans", problem.rejectedSpans);
  return obj;
}

// What an export got to before it was answered: who sent it, the step it reached, and
// the refusal (ingest/refusal.h) when it was refused whole or in part.
struct Attempt {
  enum class Step { Authenticating, Decoding, ResolvingChannels, Publishing };
  Step step = Step::Authenticating;
  std::optional<std::int64_t> orgId;
  std::optional<std::int64_t> apiKeyId;
  std::optional<ingest::Refusal> refusal;
  int status = 200;
  std::string detail;
  std::int64_t rejectedSpans = 0;
};

ingest::Refusal refusalOf(const ApiError& e, Attempt::Step step) {
  if (e.slug() == kNoChannelSlug) return ingest::Refusal::NoChannel;
  switch (e.status()) {
    case 401:
      return ingest::Refusal::Unauthenticated;
    case 403:
      return ingest::Refusal::Forbidden;
    case 404:
      return ingest::Refusal::UnknownChannel;
    case 413:
      return ingest::Refusal::TooLarge;
    case 415:
      return ingest::Refusal::UnsupportedMediaType;
    case 429:
      return ingest::Refusal::RateLimited;
    default:
      break;
  }
  if (step == Attempt::Step::Authenticating) return ingest::Refusal::Unauthenticated;  // e.g. x-tenant-id, two keys
  if (step == Attempt::Step::ResolvingChannels) return ingest::Refusal::UnknownChannel;
  return ingest::Refusal::Malformed;
}

ingest::Refusal refusalOf(const otlp::IngestError& e) {
  switch (e.failure()) {
    case otlp::IngestFailure::TooLarge:
      return ingest::Refusal::TooLarge;
    case otlp::IngestFailure::UnsupportedEncoding:
      return ingest::Refusal::UnsupportedMediaType;
    case otlp::IngestFailure::CorruptCompression:
    case otlp::IngestFailure::Malformed:
      return ingest::Refusal::Malformed;
  }
  return ingest::Refusal::Malformed;
}

Response ingest(AppContext& ctx, Request& req, otlp::Encoding encoding, const auth::Principal& p, Attempt& attempt) {
  attempt.step = Attempt::Step::Decoding;
  auto batch = otlp::decodeTraceExport(std::move(req.body), req.header("content-encoding"), encoding, ctx.maxBodyBytes,
                                       otlp::SpanTexts::Deferred);
  attempt.step = Attempt::Step::ResolvingChannels;
  const auto channels = channelsOf(ctx, req, p, batch);
  attempt.step = Attempt::Step::Publishing;
  std::vector<events::Publisher::Item> items;
  items.reserve(batch.events.size());
  for (std::size_t i = 0; i < batch.events.size(); ++i)
    items.push_back(toSubmission(std::move(batch.events[i]), p, channels[i]));
  const auto results =
      items.empty() ? std::vector<events::Publisher::Result>{} : ctx.publisher->publishBatch(std::move(items));
  std::int64_t refusedByStore = 0;
  for (const auto& r : results) refusedByStore += std::holds_alternative<ApiError>(r) ? 1 : 0;
  const auto rejected = static_cast<std::int64_t>(batch.rejected.size()) + refusedByStore;
  std::string reason = batch.rejectionMessage();
  if (reason.empty()) reason = firstReason(results);
  if (rejected > 0) {
    attempt.refusal = batch.rejected.empty() ? ingest::Refusal::SpansRefused : ingest::Refusal::SpansInvalid;
    attempt.rejectedSpans = rejected;
    attempt.detail = reason;
  }
  return Response::text(200, otlp::contentTypeOf(encoding), otlp::exportTraceResponse(encoding, rejected, reason));
}

Response answer(AppContext& ctx, Request& req, Attempt& attempt) {
  const auto encoding = otlp::encodingForContentType(req.header("content-type"));
  const auto answerEncoding = encoding.value_or(otlp::Encoding::Json);
  const auto refuse = [&](ingest::Refusal refusal, int status, const std::string& detail) {
    attempt.refusal = refusal;
    attempt.status = status;
    attempt.detail = detail;
  };
  try {
    // Credentials first, so that even a wrong Content-Type is told to the organization.
    auto p = ctx.authenticator->userOrApiKey(credentialsOf(req, auth::KeyForms::WithBasic), "publish");
    attempt.orgId = p.requireOrg();
    if (!p.isUser()) attempt.apiKeyId = p.apiKeyId;
    if (!encoding) {
      const std::string detail = "Content-Type must be application/x-protobuf or application/json.";
      refuse(ingest::Refusal::UnsupportedMediaType, 415, detail);
      return statusResponse(otlp::Encoding::Json, 415, 3, detail);
    }
    return ingest(ctx, req, *encoding, p, attempt);
  } catch (const otlp::IngestError& e) {
    refuse(refusalOf(e), e.httpStatus(), e.what());
    return Response::text(e.httpStatus(), otlp::contentTypeOf(answerEncoding), otlp::errorBody(answerEncoding, e));
  } catch (const ApiError& e) {
    // A missing channel is bad data for OTLP (docs/api.md#otlp-ingest): 400, not 404.
    const int status = e.status() == 404 ? 400 : e.status();
    if (status < 500) refuse(refusalOf(e, attempt.step), status, e.detail());
    auto r = statusResponse(answerEncoding, status, rpcCodeOf(status), e.detail());
    for (const auto& [name, value] : e.headers()) r.headers.emplace_back(name, value);
    return r;
  } catch (const std::exception& e) {
    spdlog::error("OTLP ingest failed: {}", describeException(e));
    return statusResponse(answerEncoding, 500, 13, "internal error");
  }
}

}  // namespace

void registerOtlpRoutes(Router& router, AppContext& ctx) {
  auto handler = [&ctx](Request& req) {
    Attempt attempt;
    const auto route = req.path;
    auto r = answer(ctx, req, attempt);
    if (attempt.refusal)
      ctx.ingestProblems->record({*attempt.refusal, attempt.status, attempt.detail, route, attempt.orgId,
                                  attempt.apiKeyId, req.clientAddress, attempt.rejectedSpans});
    return r;
  };
  const std::string summary =
      "OTLP/HTTP traces (protobuf or JSON, gzip): each span becomes an event. Channel: x-channel-id, the resource "
      "attribute agent_events.channel_id or the API key's defaultChannelId; API key with publish (also as "
      "Authorization: Basic).";
  router.add("POST", "/v1/traces", handler, summary, "otlp");
  router.add(
      "GET", "/ingest/problems",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->userOrApiKey(credentialsOf(req), "read");
        const auto page = queryInt(req.queryParam("page"), "page", 1, 1, 1000000000);
        const auto limit = queryInt(req.queryParam("limit"), "limit", 20, 1, 100);
        auto result = ctx.ingestProblems->list(p.requireOrg(), page, limit);
        auto obj = withSchema(req.baseUrl, "IngestProblemList");
        Poco::JSON::Array::Ptr data = new Poco::JSON::Array;
        for (const auto& problem : result.data) data->add(problemJson(problem));
        obj->set("data", data);
        obj->set("meta", pageMeta(result.total, page, limit));
        return Response::json(200, obj);
      },
      "The organization's most recent refused OTLP exports (the newest 100 are kept), newest first.", "otlp");
  router.document("GET", "/ingest/problems",
                  {{"page", "integer", "1-based page, default 1", {}, false},
                   {"limit", "integer", "1 to 100, default 20", {}, false}},
                  "IngestProblemList");
  router.documentAccess("GET", "/ingest/problems", "read");
  // The Langfuse SDKs' exporter path: the same route, so only the base URL changes.
  router.add("POST", "/api/public/otel/v1/traces", handler, summary + " Alias of /v1/traces (Langfuse SDKs).", "otlp");
}

}  // namespace aev::http

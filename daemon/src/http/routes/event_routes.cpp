// Publishing, listing and streaming events (docs/api.md#streaming-and-resume).
#include <Poco/JSON/Array.h>
#include <spdlog/spdlog.h>

#include "auth/authenticator.h"
#include "auth/stream_tokens.h"
#include "common/clock.h"
#include "common/encoding.h"
#include "common/exceptions.h"
#include "common/text.h"
#include "events/event_service.h"
#include "events/publisher.h"
#include "http/body.h"
#include "http/context.h"
#include "http/credentials.h"
#include "http/event_body.h"
#include "http/problem.h"
#include "http/render.h"
#include "http/router.h"
#include "stream/hub.h"
#include "stream/sse_frame.h"

namespace aev::http {

namespace {

constexpr std::int64_t kReplayPage = 500;
constexpr std::size_t kMaxBatch = 1000;

auth::Principal publisher(AppContext& ctx, const Request& req) {
  auto p = ctx.authenticator->userOrApiKey(credentialsOf(req), "publish");
  p.requireOrg();
  return p;
}

Response eventResponse(int status, const events::StoredEvent& e) {
  Response r;
  r.status = status;
  r.body = events::toJson(e);
  return r;
}

store::EventFilter filterFrom(const Request& req) {
  store::EventFilter f;
  f.agentId = req.queryFilter("agent_id");
  f.eventType = req.queryFilter("event_type");
  f.traceId = req.queryFilter("trace_id");
  f.endUser = req.queryFilter("user");
  return f;
}

// The opaque position of GET /event/{channelId}/list's cursor paging: the sequence of the
// last event shown, which events published later never move.
constexpr std::string_view kCursorTag = "seq:";

std::string cursorOf(std::int64_t seq) { return base64UrlEncode(std::string(kCursorTag) + std::to_string(seq)); }

std::int64_t seqOfCursor(const std::string& cursor) {
  auto text = base64DecodeAnyAlphabet(cursor);
  std::optional<std::int64_t> seq;
  if (text && text->starts_with(kCursorTag)) seq = parseInt64(std::string_view(*text).substr(kCursorTag.size()));
  if (!seq || *seq <= 0)
    throw errors::invalidField("query.cursor", "is not a cursor of this list (meta.nextCursor)", cursor);
  return *seq;
}

// A filter sent under its camelCase name (what the seed system's SDK sends) or the
// snake_case one of the streams; both at once must agree.
std::optional<std::string> listFilter(const Request& req, const std::string& camel, const std::string& snake) {
  auto a = req.queryFilter(camel);
  auto b = req.queryFilter(snake);
  if (a && b && *a != *b)
    throw errors::invalidField("query." + camel, "differs from " + snake + "; send one of them", *a);
  return a ? a : b;
}

store::EventListQuery listQueryOf(const Request& req) {
  store::EventListQuery q;
  q.filter.traceId = listFilter(req, "traceId", "trace_id");
  q.filter.agentId = listFilter(req, "agentId", "agent_id");
  q.filter.eventType = listFilter(req, "eventType", "event_type");
  q.filter.endUser = req.queryFilter("user");
  if (q.filter.eventType && !events::isEventType(*q.filter.eventType))
    throw errors::invalidField("query.eventType", "is not an event type (docs/api.md#events)", *q.filter.eventType);
  q.since = queryTime(req.queryParam("since"), "since");
  q.until = queryTime(req.queryParam("until"), "until");
  q.limit = queryInt(req.queryParam("limit"), "limit", 20, 1, 100);
  const auto cursor = req.queryFilter("cursor");
  if (cursor && req.queryParam("page"))
    throw errors::invalidField("query.page", "pages by page or by cursor, not both", *req.queryParam("page"));
  if (cursor) {
    q.beforeSeq = seqOfCursor(*cursor);
  } else {
    const auto page = queryInt(req.queryParam("page"), "page", 1, 1, 1000000000);
    q.offset = (page - 1) * q.limit;
  }
  return q;
}

std::optional<std::int64_t> lastEventIdOf(const Request& req) {
  auto text = req.header("last-event-id");
  if (text.empty()) text = req.queryParam("last_event_id").value_or("");
  return stream::parseLastEventId(text);  // -1: present but not an id of ours, answered with a reset
}

void writeAll(Poco::Net::StreamSocket& socket, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    int n = socket.sendBytes(bytes.data() + sent, static_cast<int>(bytes.size() - sent));
    if (n <= 0) throw std::runtime_error("subscriber went away during replay");
    sent += static_cast<std::size_t>(n);
  }
}

Response subscribe(AppContext& ctx, Request& req, std::optional<std::string> identifier) {
  const auto channelId = pathId(req.param("channelId"), "Channel");
  stream::Hub::Owner owner;
  if (auto token = req.queryParam("stream_token"); token && !token->empty()) {
    auto grant = ctx.streamTokens->verify(*token);
    if (!grant) throw errors::unauthorized("The stream token is invalid or expired.");
    if (grant->channelId != channelId) throw errors::forbidden("The stream token is for another channel.");
    auto issuer = ctx.authenticator->streamTokenIssuer(grant->orgId, grant->userId, grant->apiKeyId);
    owner = {grant->orgId, issuer.userId, issuer.apiKeyId};
  } else {
    auto p = ctx.authenticator->userOrApiKey(credentialsOf(req), "subscribe");
    owner = {p.requireOrg(), p.userId, p.apiKeyId};
  }
  const auto orgId = owner.orgId;
  ctx.events->channel(orgId, channelId);  // 404 before any stream starts
  auto filter = filterFrom(req);
  filter.identifier = std::move(identifier);
  const auto lastEventId = lastEventIdOf(req);
  ctx.hub->checkRoom(orgId);  // a full hub or organization is a problem answer, not a 200 that closes

  Response r;
  r.status = 200;
  r.contentType = "text/event-stream";
  r.takeover = [&ctx, owner, orgId, channelId, filter, lastEventId](Poco::Net::StreamSocket& socket) {
    auto sub = ctx.hub->reserve(channelId, filter, owner);
    try {
      socket.setSendTimeout(Poco::Timespan(10, 0));
      auto resume = ctx.events->resumePoint(orgId, channelId, lastEventId);
      std::string head = "retry: 3000\n\n";
      if (resume.resetTo) {
        head += "event: reset\nid: " + std::to_string(*resume.resetTo) +
                "\ndata: {\"reason\":\"unknown_last_event_id\",\"resumeFrom\":" + std::to_string(*resume.resetTo) +
                "}\n\n";
      }
      writeAll(socket, head);
      std::int64_t after = resume.afterSeq;
      for (;;) {
        auto page = ctx.events->replay(orgId, channelId, after, filter, kReplayPage);
        if (page.empty()) break;
        std::string bytes;
        for (const auto& e : page) bytes += stream::Hub::frameOf(e);
        writeAll(socket, bytes);
        after = page.back().seq;
        if (static_cast<std::int64_t>(page.size()) < kReplayPage) break;
      }
      ctx.hub->activate(sub, socket, after);
    } catch (const std::exception& e) {
      ctx.hub->cancel(sub);
      socket.close();
      spdlog::debug("stream set-up on channel {} ended: {}", channelId, describeException(e));
    }
  };
  return r;
}

}  // namespace

void registerEventRoutes(Router& router, AppContext& ctx) {
  router.add(
      "POST", "/event",
      [&ctx](Request& req) {
        auto p = publisher(ctx, req);
        const auto body = req.jsonObjectView();
        auto pending = ctx.publisher->publish(readEvent(body, JsonView::kRoot, "body", p, "api"));
        // Answered from the commit's completion: no request thread waits for the fsync.
        Response r;
        r.deferred = [pending = std::move(pending)](Response::Complete complete) mutable {
          pending.write([complete = std::move(complete)](events::StoredEvent* stored, std::exception_ptr failure) {
            if (!stored) return complete(failure);
            auto answer = eventResponse(201, *stored);
            complete(&answer);
          });
        };
        return r;
      },
      "Publish an event (Bearer, or API key with `publish`); 201 once it is durable.", "events");

  router.add(
      "POST", "/events/batch",
      [&ctx](Request& req) {
        auto p = publisher(ctx, req);
        const auto body = req.jsonObjectView();
        const auto list = body.member(JsonView::kRoot, "events");
        if (!list || body.kind(*list) != JsonView::Kind::Array)
          throw errors::invalidField("body.events", "must be an array of events");
        const std::size_t count = body.node(*list).count;
        if (count > kMaxBatch)
          throw errors::invalidField("body.events", "must hold at most 1000 events", std::to_string(count));
        std::vector<events::Publisher::Item> items;
        items.reserve(count);
        std::size_t i = 0;
        for (auto element = body.firstChild(*list); element != body.endOf(*list);
             element = body.nextSibling(element), ++i) {
          const std::string loc = "body.events[" + std::to_string(i) + "]";
          try {
            if (body.kind(element) != JsonView::Kind::Object) throw errors::invalidField(loc, "must be an object");
            items.emplace_back(readEvent(body, element, loc, p, "batch"));
          } catch (const ApiError& refused) {
            items.emplace_back(refused);
          }
        }
        const auto results = ctx.publisher->publishBatch(std::move(items));
        // Each result is the stored event, or the problem (with its status) that refused it.
        std::string out = "{\"results\":[";
        out.reserve(512 * results.size());
        std::size_t stored = 0;
        for (std::size_t k = 0; k < results.size(); ++k) {
          if (k) out += ',';
          if (const auto* e = std::get_if<events::StoredEvent>(&results[k])) {
            out += events::toJson(*e);
            ++stored;
          } else {
            out += stringify(problemBody(std::get<ApiError>(results[k]), req.path));
          }
        }
        out +=
            "],\"stored\":" + std::to_string(stored) + ",\"failed\":" + std::to_string(results.size() - stored) + "}";
        Response r;
        r.status = 200;
        r.body = std::move(out);
        return r;
      },
      "Publish up to 1000 events; one result per event, in order: the stored event or a problem.", "events");

  router.add(
      "GET", "/event/:channelId/list",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->userOrApiKey(credentialsOf(req), "read");
        const auto channelId = pathId(req.param("channelId"), "Channel");
        auto query = listQueryOf(req);
        auto result = ctx.events->list(p.requireOrg(), channelId, query);
        auto meta = pageMeta(result.total, result.page, result.limit);
        if (result.nextCursorSeq)
          meta->set("nextCursor", cursorOf(*result.nextCursorSeq));
        else
          meta->set("nextCursor", Poco::Dynamic::Var());
        Response r;
        r.body = "{\"data\":" + eventsJsonArray(result.data) + ",\"meta\":" + stringify(meta) + "}";
        return r;
      },
      "Events of a channel, newest first, filtered (traceId, eventType, agentId, since, until), by page or cursor.",
      "events");

  router.add(
      "GET", "/channel/:channelId/subscribe", [&ctx](Request& req) { return subscribe(ctx, req, std::nullopt); },
      "Stream a channel's events as text/event-stream (filters agent_id, event_type, trace_id; Last-Event-ID "
      "resume).",
      "events");

  router.add(
      "GET", "/channel/:channelId/:eventIdentifier/subscribe",
      [&ctx](Request& req) { return subscribe(ctx, req, req.param("eventIdentifier")); },
      "Stream a channel's events with one identifier.", "events");

  router.add(
      "POST", "/stream-tokens",
      [&ctx](Request& req) {
        auto p = ctx.authenticator->userOrApiKey(credentialsOf(req), "subscribe");
        BodyReader body(req.jsonBody());
        auto channelId = body.id("channelId", true);
        body.done();
        const auto orgId = p.requireOrg();
        ctx.events->channel(orgId, *channelId);
        auto [token, grant] = ctx.streamTokens->issue(orgId, *channelId, p.userId, p.apiKeyId);
        auto obj = newObject();
        obj->set("token", token);
        setTimestamp(obj, "expiresAt", grant.expiresAt);
        return Response::json(201, obj);
      },
      "A short-lived token for EventSource (?stream_token=), bound to one channel.", "events");
}

}  // namespace aev::http

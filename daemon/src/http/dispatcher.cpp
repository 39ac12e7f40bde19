#include "http/dispatcher.h"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPResponse.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <ctime>
#include <mutex>
#include <random>
#include <set>

#include "common/crypto.h"
#include "common/encoding.h"
#include "common/metrics.h"
#include "http/compression.h"
#include "http/problem.h"
#include "http/request_target.h"
#include "http/storable_text.h"
#include "ingest/problem_log.h"

namespace aev::http {

namespace {

std::string requestIdFrom(std::string_view sent) {
  bool ok = !sent.empty() && sent.size() <= 128 &&
            std::all_of(sent.begin(), sent.end(), [](char c) { return c > 32 && c < 127; });
  if (ok) return std::string(sent);
  // 96 bits from a per-thread generator seeded once from the OS: ids only need to be
  // unique and unguessable in practice, and a getrandom call per request showed in profiles.
  thread_local std::mt19937_64 generator([] {
    auto seed = crypto::randomBytes(sizeof(std::uint64_t) * 4);
    std::seed_seq seq(seed.begin(), seed.end());
    return std::mt19937_64(seq);
  }());
  const std::uint64_t bits[2] = {generator(), generator()};
  return hexEncode(std::string_view(reinterpret_cast<const char*>(bits), 12));
}

// The counters are looked up once: the metrics registry's mutex stays off the request path.
std::atomic<std::int64_t>& requestsCounter(int status) {
  static std::array<std::atomic<std::int64_t>*, 6> counters = [] {
    std::array<std::atomic<std::int64_t>*, 6> c{};
    for (int k = 1; k <= 5; ++k)
      c[static_cast<std::size_t>(k)] =
          &Metrics::instance().counter("agent_events_http_requests_total{status=\"" + std::to_string(k) + "xx\"}");
    return c;
  }();
  const int k = std::clamp(status / 100, 1, 5);
  return *counters[static_cast<std::size_t>(k)];
}

// RFC 9110 §5.6.7 IMF-fixdate, formatted once a second per thread.
const std::string& httpDate() {
  thread_local std::time_t cachedSecond = 0;
  thread_local std::string cached;
  const std::time_t now = std::time(nullptr);
  if (now != cachedSecond) {
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    cached = buf;
    cachedSecond = now;
  }
  return cached;
}

void appendHeader(std::string& out, std::string_view name, std::string_view value) {
  out.append(name);
  out.append(": ");
  out.append(value);
  out.append("\r\n");
}

// A GET's query parameters are its filters: one the route does not know would otherwise be
// ignored and answer unfiltered data (docs/api.md#errors). The route's documented
// parameters (RouteInfo::query, which also feed /openapi.json) are the ones it knows; the
// console's web files take none of interest and are left alone.
void refuseUnknownQueryParams(const RouteInfo& route, const Request& req) {
  if ((route.method != "GET" && route.method != "HEAD") || route.tag == "console" || req.query.empty()) return;
  std::vector<FieldError> unknown;
  for (const auto& [name, value] : req.query) {
    const bool known =
        std::any_of(route.query.begin(), route.query.end(), [&](const auto& q) { return q.name == name; });
    if (known ||
        std::any_of(unknown.begin(), unknown.end(), [&](const auto& u) { return u.location == "query." + name; }))
      continue;
    std::string accepted;
    for (const auto& q : route.query) accepted += (accepted.empty() ? "" : ", ") + q.name;
    unknown.push_back({"query." + name,
                       accepted.empty() ? "is not a parameter of this route, which takes none"
                                        : "is not a parameter of this route; it takes " + accepted,
                       isStorableText(value) ? value : std::string()});
  }
  if (unknown.empty()) return;
  const std::string detail = "Unknown query parameter: " + unknown.front().location.substr(6) + ".";
  throw errors::validation(std::move(unknown), detail);
}

}  // namespace

void Dispatcher::handle(WireRequest&& wire, const Peer& peer, Exchange& out) const {
  Request& req = out.request;
  req.requestId = requestIdFrom(wire.header("x-request-id"));
  req.method = std::move(wire.method);
  req.clientAddress = peer.address;
  req.fromLoopback = peer.loopback;
  out.headOnly = req.method == "HEAD";
  out.keepAlive = wire.keepAlive;
  out.http10 = wire.versionMinor == 0;
  try {
    const auto& target = wire.target;
    req.path = target.substr(0, target.find_first_of("?#"));  // the problem's `instance` if parsing fails
    auto parsed = parseRequestTarget(target);
    req.path = std::move(parsed.path);
    req.query = std::move(parsed.query);
    for (auto& [k, v] : wire.headers) {
      if (!isStorableText(v)) throw unstorableText(v, "The " + k + " header");
      req.headers[k] = std::move(v);  // the last of a repeated field wins
    }
    req.body = std::move(wire.body);
    // Links name http.public_url, else the request's Host, which the parser admitted only
    // as a host[:port] (so no path, quote or second host can ride along); a request
    // without one (HTTP/1.0, or an empty Host) gets links relative to this server.
    const auto host = req.header("host");
    req.baseUrl = !options_.publicUrl.empty() ? options_.publicUrl : host.empty() ? std::string() : "http://" + host;
    out.response = dispatch(req);
  } catch (...) {
    out.response = responseForFailure(std::current_exception(), req);
  }
  try {
    compressForClient(req, out.response);  // on this request's thread, not the server's loop
  } catch (const std::exception& e) {
    spdlog::warn("request {}: answer sent uncompressed: {}", req.requestId, e.what());
  }
}

void Dispatcher::reject(int status, const std::string& detail, const std::string& partialTarget, const Peer& peer,
                        Exchange& out) const {
  out.request.requestId = requestIdFrom({});
  out.request.method = "-";
  out.request.path = partialTarget.substr(0, partialTarget.find_first_of("?#"));
  out.request.clientAddress = peer.address;
  ApiError error = status == 413   ? errors::payloadTooLarge(detail)
                   : status == 400 ? errors::badRequest(detail)
                                   : ApiError(status, status == 431 ? "header-fields-too-large" : "bad-request",
                                              Poco::Net::HTTPResponse::getReasonForStatus(
                                                  static_cast<Poco::Net::HTTPResponse::HTTPStatus>(status)),
                                              detail);
  out.response = problemResponse(error, out.request.path);
  // An OTLP export refused before any route saw it still counts (docs/api.md#ingest-problems).
  if (status == 413 && ingest::isExportPath(out.request.path)) ingest::countRefusal(ingest::Refusal::TooLarge);
}

Response Dispatcher::dispatch(Request& req) const {
  if (req.method == "OPTIONS" && !req.header("origin").empty()) return preflight(req);
  auto match = router_.match(req.method, req.path);
  if (!match.handler) {
    if (!match.allowedMethods.empty()) throw errors::methodNotAllowed(match.allowedMethods);
    throw ApiError(404, "not-found", "Not Found", "No route for " + req.method + " " + req.path);
  }
  for (const auto& [name, value] : match.params)
    if (!isStorableText(value)) throw unstorableText(value, "The path segment {" + name + "}");
  req.pathParams = std::move(match.params);
  // The document is the contract: a handler that reads a JSON body its route does not
  // declare is a documentation defect, logged once per route (the contract test fails
  // on the line). Checked whether the handler answers or throws.
  struct BodyCheck {
    const Request& req;
    const RouteInfo* info;
    ~BodyCheck() {
      if (req.jsonBodyRead && info && info->requestSchema.empty() && info->requestMediaTypes.empty())
        reportUndeclaredBody(*info);
    }
  } check{req, match.info};
  auto response = (*match.handler)(req);
  // After the handler, so credentials and path ids are judged first (a 401, 403 or 404 as
  // for any request); a GET changes nothing, so its answer is only dropped.
  if (match.info && response.status < 300) refuseUnknownQueryParams(*match.info, req);
  return response;
}

void Dispatcher::reportUndeclaredBody(const RouteInfo& info) {
  static std::mutex mutex;
  static std::set<std::string> reported;
  std::lock_guard lock(mutex);
  if (reported.insert(info.method + " " + info.pathTemplate).second)
    spdlog::warn("contract: {} {} reads a JSON body that /openapi.json does not declare (set its requestSchema)",
                 info.method, info.pathTemplate);
}

bool Dispatcher::originAllowed(const std::string& origin) const {
  for (const auto& o : options_.corsOrigins)
    if (o == "*" || o == origin) return true;
  return false;
}

Response Dispatcher::preflight(const Request& req) const {
  Response r = Response::noContent();
  if (originAllowed(req.header("origin"))) {
    r.headers.emplace_back("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
    r.headers.emplace_back("Access-Control-Allow-Headers",
                           "Authorization, Content-Type, X-API-Key, X-Tenant-Id, X-Request-Id, Last-Event-ID");
    r.headers.emplace_back("Access-Control-Max-Age", "600");
  }
  return r;
}

std::string Dispatcher::serialize(const Exchange& x, bool keepAlive) const {
  const auto& resp = x.response;
  const auto& req = x.request;
  std::string out;
  out.reserve(256 + (x.headOnly || resp.takeover ? 0 : resp.body.size()));
  out.append("HTTP/1.1 ");
  out.append(std::to_string(resp.status));
  out.push_back(' ');
  out.append(
      Poco::Net::HTTPResponse::getReasonForStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(resp.status)));
  out.append("\r\n");
  appendHeader(out, "Date", httpDate());
  appendHeader(out, "Server", "agent-eventsd");
  appendHeader(out, "X-Request-Id", req.requestId);
  auto origin = req.header("origin");
  if (!origin.empty() && originAllowed(origin)) {
    appendHeader(out, "Access-Control-Allow-Origin", origin);
    appendHeader(out, "Vary", "Origin");
    appendHeader(out, "Access-Control-Expose-Headers", "X-Request-Id, Retry-After");
  }
  for (const auto& [k, v] : resp.headers) appendHeader(out, k, v);
  if (!resp.contentType.empty()) appendHeader(out, "Content-Type", resp.contentType);
  if (resp.takeover) {
    // A stream: no length, no chunking; the connection is the stream's until it ends.
    appendHeader(out, "Cache-Control", "no-cache");
    appendHeader(out, "X-Accel-Buffering", "no");
    appendHeader(out, "Connection", "close");
    out.append("\r\n");
    return out;
  }
  // RFC 9110 §8.6: no Content-Length in a 1xx or 204, nor in a 304 (where it would have
  // to be the length of the 200 it stands for).
  if (resp.status >= 200 && resp.status != 204 && resp.status != 304)
    appendHeader(out, "Content-Length", std::to_string(resp.body.size()));
  if (!keepAlive)
    appendHeader(out, "Connection", "close");
  else if (x.http10)
    appendHeader(out, "Connection", "Keep-Alive");
  out.append("\r\n");
  if (!x.headOnly) out.append(resp.body);
  return out;
}

void Dispatcher::logAccess(const Exchange& x) const {
  const double millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - x.started).count();
  requestsCounter(x.response.status).fetch_add(1, std::memory_order_relaxed);
  const auto& req = x.request;
  // Query strings are never logged: stream tokens travel there (docs/api.md#streaming-and-resume).
  // The systemd watchdog's own probe (app/self_probe.cpp), every few seconds, would drown
  // the log: it is a debug line when it succeeds.
  if (x.response.status == 200 && req.path == "/healthz" && req.header("user-agent") == "agent-eventsd-watchdog") {
    spdlog::debug("access request_id={} method={} path={} status={} duration_ms={:.2f} client={} (watchdog probe)",
                  req.requestId, req.method, req.path, x.response.status, millis, req.clientAddress);
    return;
  }
  if (x.response.takeover)
    spdlog::info("access request_id={} method={} path={} status={} stream=open client={}", req.requestId, req.method,
                 req.path, x.response.status, req.clientAddress);
  else
    spdlog::info("access request_id={} method={} path={} status={} duration_ms={:.2f} bytes={} client={}",
                 req.requestId, req.method, req.path, x.response.status, millis, x.response.body.size(),
                 req.clientAddress);
}

}  // namespace aev::http

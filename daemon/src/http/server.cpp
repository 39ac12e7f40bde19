#include "http/server.h"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/StreamCopier.h>
#include <Poco/String.h>
#include <Poco/URI.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <istream>
#include <thread>

#include "common/crypto.h"
#include "common/exceptions.h"
#include "common/metrics.h"
#include "http/problem.h"

namespace aev::http {

namespace {

std::string requestIdFrom(const Poco::Net::HTTPServerRequest& req) {
  auto sent = req.get("X-Request-Id", "");
  bool ok = !sent.empty() && sent.size() <= 128 &&
            std::all_of(sent.begin(), sent.end(), [](char c) { return c > 32 && c < 127; });
  if (ok) return sent;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  for (unsigned char b : crypto::randomBytes(12)) {
    id += kHex[b >> 4];
    id += kHex[b & 0xF];
  }
  return id;
}

// Reads at most limit+1 bytes so an oversized body is detected without buffering it.
bool readBody(std::istream& in, std::size_t limit, std::string& out) {
  char buf[16384];
  while (in) {
    in.read(buf, sizeof buf);
    auto n = static_cast<std::size_t>(in.gcount());
    if (n == 0) break;
    if (out.size() + n > limit) return false;
    out.append(buf, n);
  }
  return true;
}

std::string statusClass(int status) { return std::to_string(status / 100) + "xx"; }

// The target's path as sent, still percent-encoded. The router splits it at '/' and
// decodes each segment once; a path decoded before that had "%25" decoded twice (a 500
// for a trace id holding '%') and "%2F" turned into a separator. Logs and problem
// `instance`s show it encoded too, so a "%0A" cannot forge a log line.
std::string rawPathOf(const std::string& target, const Poco::URI& parsed) {
  if (!target.empty() && target.front() == '/') return target.substr(0, target.find_first_of("?#"));
  std::string encoded;  // absolute-form target (RFC 9112 §3.2.2): re-encode the parsed path
  Poco::URI::encode(parsed.getPath(), "?#", encoded);
  return encoded;
}

class RequestHandler : public Poco::Net::HTTPRequestHandler {
 public:
  RequestHandler(const ServerOptions& options, const Router& router) : options_(options), router_(router) {}

  void handleRequest(Poco::Net::HTTPServerRequest& preq, Poco::Net::HTTPServerResponse& presp) override {
    const auto started = std::chrono::steady_clock::now();
    Request req;
    req.requestId = requestIdFrom(preq);
    req.method = preq.getMethod();
    Response resp;
    try {
      const auto& target = preq.getURI();
      req.path = target.substr(0, target.find_first_of("?#"));  // the problem's `instance` if parsing fails
      Poco::URI uri;
      try {
        uri = Poco::URI(target);
        for (const auto& [k, v] : uri.getQueryParameters()) req.query.emplace(k, v);
      } catch (const Poco::SyntaxException&) {
        throw errors::badRequest("The request target is not a valid URI (a '%' must start a %XX escape).");
      }
      req.path = rawPathOf(target, uri);
      for (const auto& [k, v] : preq) req.headers[Poco::toLower(k)] = v;
      req.clientAddress = preq.clientAddress().host().toString();
      req.fromLoopback = preq.clientAddress().host().isLoopback();
      req.baseUrl = !options_.publicUrl.empty() ? options_.publicUrl : "http://" + preq.getHost();
      resp = dispatch(preq, req);
    } catch (const ApiError& e) {
      resp = problemResponse(e, req.path);
    } catch (const std::exception& e) {
      resp = internalError(req, describeException(e));
    }
    write(preq, presp, req, resp, started);
  }

 private:
  Response dispatch(Poco::Net::HTTPServerRequest& preq, Request& req) {
    if (preq.hasContentLength() && preq.getContentLength64() > static_cast<Poco::Int64>(options_.maxBodyBytes)) {
      tooLarge_ = true;
      throw errors::payloadTooLarge("The body exceeds " + std::to_string(options_.maxBodyBytes) + " bytes.");
    }
    // RFC 9112 §6.3: a request with neither Content-Length nor Transfer-Encoding has no
    // body. Poco would read such a body (of an OPTIONS preflight, say) until the peer
    // closes or the 30 s timeout passes.
    const bool hasBody = preq.hasContentLength() || preq.getChunkedTransferEncoding();
    if (hasBody && !readBody(preq.stream(), options_.maxBodyBytes, req.body)) {
      tooLarge_ = true;
      throw errors::payloadTooLarge("The body exceeds " + std::to_string(options_.maxBodyBytes) + " bytes.");
    }
    if (req.method == "OPTIONS" && !req.header("origin").empty()) return preflight(req);
    auto match = router_.match(req.method, req.path);
    if (!match.handler) {
      if (!match.allowedMethods.empty()) throw errors::methodNotAllowed(match.allowedMethods);
      throw ApiError(404, "not-found", "Not Found", "No route for " + req.method + " " + req.path);
    }
    req.pathParams = std::move(match.params);
    try {
      return (*match.handler)(req);
    } catch (const ApiError&) {
      throw;
    } catch (const std::exception& e) {
      return internalError(req, describeException(e));
    }
  }

  Response internalError(const Request& req, const std::string& what) {
    // The cause goes to the log with the request id; the client gets no SQL or trace.
    spdlog::error("request {} {} {} failed: {}", req.requestId, req.method, req.path, what);
    return problemResponse(
        ApiError(500, "internal", "Internal Server Error", "An internal error occurred; request id " + req.requestId),
        req.path);
  }

  bool originAllowed(const std::string& origin) const {
    for (const auto& o : options_.corsOrigins)
      if (o == "*" || o == origin) return true;
    return false;
  }

  Response preflight(const Request& req) {
    Response r = Response::noContent();
    if (originAllowed(req.header("origin"))) {
      r.headers.emplace_back("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
      r.headers.emplace_back("Access-Control-Allow-Headers",
                             "Authorization, Content-Type, X-API-Key, X-Tenant-Id, X-Request-Id, Last-Event-ID");
      r.headers.emplace_back("Access-Control-Max-Age", "600");
    }
    return r;
  }

  void write(Poco::Net::HTTPServerRequest& preq, Poco::Net::HTTPServerResponse& presp, const Request& req,
             const Response& resp, std::chrono::steady_clock::time_point started) {
    presp.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(resp.status));
    presp.set("X-Request-Id", req.requestId);
    auto origin = req.header("origin");
    if (!origin.empty() && originAllowed(origin)) {
      presp.set("Access-Control-Allow-Origin", origin);
      presp.set("Vary", "Origin");
      presp.set("Access-Control-Expose-Headers", "X-Request-Id, Retry-After");
    }
    for (const auto& [k, v] : resp.headers) presp.set(k, v);
    if (tooLarge_) presp.setKeepAlive(false);  // the rest of the body was not read
    if (!resp.contentType.empty()) presp.setContentType(resp.contentType);
    if (resp.takeover) {
      handOver(preq, presp, req, resp);
      return;
    }
    presp.setContentLength64(static_cast<Poco::Int64>(resp.body.size()));
    try {
      auto& out = presp.send();
      if (preq.getMethod() != "HEAD") out.write(resp.body.data(), static_cast<std::streamsize>(resp.body.size()));
      out.flush();
    } catch (const std::exception& e) {
      spdlog::debug("request {}: client went away: {}", req.requestId, e.what());
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    Metrics::instance().add("agent_events_http_requests_total{status=\"" + statusClass(resp.status) + "\"}");
    // Query strings are never logged: stream tokens travel there (decisions §5).
    spdlog::info("access request_id={} method={} path={} status={} duration_ms={:.2f} bytes={} client={}",
                 req.requestId, req.method, req.path, resp.status, ms, resp.body.size(), req.clientAddress);
  }

  // Head only, then the socket leaves Poco's connection loop (send → flush → detach,
  // the sequence ARCHITECTURE.md records; without flush the head is lost).
  void handOver(Poco::Net::HTTPServerRequest& preq, Poco::Net::HTTPServerResponse& presp, const Request& req,
                const Response& resp) {
    presp.setKeepAlive(false);
    presp.setChunkedTransferEncoding(false);
    presp.set("Cache-Control", "no-cache");
    presp.set("X-Accel-Buffering", "no");
    Metrics::instance().add("agent_events_http_requests_total{status=\"2xx\"}");
    spdlog::info("access request_id={} method={} path={} status={} stream=open client={}", req.requestId, req.method,
                 req.path, resp.status, req.clientAddress);
    try {
      presp.send().flush();
      auto socket = dynamic_cast<Poco::Net::HTTPServerRequestImpl&>(preq).detachSocket();
      resp.takeover(socket);
    } catch (const std::exception& e) {
      spdlog::info("stream {} ended during set-up: {}", req.requestId, describeException(e));
    }
  }

  const ServerOptions& options_;
  const Router& router_;
  bool tooLarge_ = false;
};

class HandlerFactory : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  HandlerFactory(const ServerOptions& options, std::shared_ptr<Router> router)
      : options_(options), router_(std::move(router)) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest&) override {
    return new RequestHandler(options_, *router_);
  }

 private:
  const ServerOptions& options_;
  std::shared_ptr<Router> router_;
};

}  // namespace

Server::Server(ServerOptions options, std::shared_ptr<Router> router)
    : options_(std::move(options)), router_(std::move(router)) {}

Server::~Server() { stop(); }

void Server::start() {
  Poco::Net::SocketAddress address(options_.host, static_cast<Poco::UInt16>(options_.port));
  // Poco 1.11's bind(address, true) also sets SO_REUSEPORT, which would let a second
  // daemon share a busy port silently; ask for SO_REUSEADDR only.
  Poco::Net::ServerSocket socket;
  socket.bind(address, true, false);
  socket.listen(1024);
  auto params = new Poco::Net::HTTPServerParams;
  params->setMaxThreads(options_.maxThreads);
  params->setMaxQueued(options_.maxQueued);
  params->setKeepAlive(true);
  params->setKeepAliveTimeout(Poco::Timespan(options_.keepAliveTimeoutSeconds, 0));
  params->setTimeout(Poco::Timespan(30, 0));
  params->setServerName("agent-eventsd");
  // A private pool: the default pool caps at 16 threads whatever maxThreads says.
  pool_ = std::make_unique<Poco::ThreadPool>(2, options_.maxThreads, 60);
  server_ = std::make_unique<Poco::Net::HTTPServer>(new HandlerFactory(options_, router_), *pool_, socket, params);
  server_->start();
}

void Server::stop() {
  if (!server_) return;
  // stopAll(false) closes the listening socket and tells each connection to end after
  // the request it is serving; wait (bounded) for them before the stores are closed.
  server_->stopAll(false);
  for (int i = 0; i < 200 && server_->currentConnections() > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  server_.reset();
  pool_->joinAll();
  pool_.reset();
}

int Server::port() const { return server_ ? server_->port() : options_.port; }

}  // namespace aev::http

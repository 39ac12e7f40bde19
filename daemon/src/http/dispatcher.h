#pragma once
// From a parsed request to the bytes of its answer, with no sockets involved: builds the
// http::Request (request id, path and query, headers, client address), runs the router,
// renders errors as problem+json, answers CORS preflights, stamps X-Request-Id and CORS
// headers, serializes the response and writes the access-log line. The front end
// (http/server.cpp) owns the connections and calls this on the thread that read them.
#include <chrono>
#include <string>

#include "http/request.h"
#include "http/request_parser.h"
#include "http/router.h"
#include "http/server_options.h"

namespace aev::http {

struct Peer {
  std::string address;
  bool loopback = false;
};

// One request and its answer, as the connection writes them.
struct Exchange {
  Request request;
  Response response;
  bool headOnly = false;  // HEAD: no body bytes
  bool keepAlive = true;  // what the client asked for (the server may still close)
  bool http10 = false;    // an HTTP/1.0 client: keep-alive is said explicitly
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};

class Dispatcher {
 public:
  Dispatcher(const ServerOptions& options, const Router& router) : options_(options), router_(router) {}

  // Runs the route; never throws (failures become problem responses).
  void handle(WireRequest&& wire, const Peer& peer, Exchange& out) const;
  // The answer to a request that could not be parsed (the connection closes after it).
  void reject(int status, const std::string& detail, const std::string& partialTarget, const Peer& peer,
              Exchange& out) const;

  // Status line, headers and (unless HEAD or a takeover) the body. keepAlive decides the
  // Connection header; a takeover's head never carries a length.
  std::string serialize(const Exchange& x, bool keepAlive) const;
  // One access-log line (with the time since x.started) and the request counter.
  void logAccess(const Exchange& x) const;

 private:
  Response dispatch(Request& req) const;
  // Logs, once per route, that a handler read a JSON body its documentation omits.
  static void reportUndeclaredBody(const RouteInfo& info);
  Response preflight(const Request& req) const;
  bool originAllowed(const std::string& origin) const;

  const ServerOptions& options_;
  const Router& router_;
};

}  // namespace aev::http

#pragma once
// The only place that touches Poco's HTTP server classes: it turns a Poco request into
// an http::Request, runs the router, renders errors as problem+json, enforces the body
// limit, stamps X-Request-Id and CORS headers, and writes one access-log line.
#include <Poco/Net/HTTPServer.h>
#include <Poco/ThreadPool.h>

#include <memory>
#include <string>
#include <vector>

#include "http/router.h"

namespace aev::http {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;
  int maxThreads = 32;
  int maxQueued = 1024;
  int keepAliveTimeoutSeconds = 5;
  std::size_t maxBodyBytes = 1 << 20;
  std::string publicUrl;                 // overrides the Host-derived base URL for $schema links
  std::vector<std::string> corsOrigins;  // exact origins; "*" allows any
};

class Server {
 public:
  Server(ServerOptions options, std::shared_ptr<Router> router);
  ~Server();
  void start();
  // Stops accepting, lets in-flight requests finish (up to the grace period).
  void stop();
  int port() const;

 private:
  ServerOptions options_;
  std::shared_ptr<Router> router_;
  std::unique_ptr<Poco::ThreadPool> pool_;
  std::unique_ptr<Poco::Net::HTTPServer> server_;
};

}  // namespace aev::http

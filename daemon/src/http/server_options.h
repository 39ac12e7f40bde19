#pragma once
// Settings of the HTTP front end (http.* in the configuration).
#include <cstddef>
#include <string>
#include <vector>

namespace aev::http {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;
  int maxThreads = 32;         // threads that parse and run requests (each waits in epoll when idle)
  int maxConnections = 10000;  // open request connections (SSE streams are the hub's, not counted)
  int keepAliveTimeoutSeconds = 5;
  int requestTimeoutSeconds = 30;   // a request must arrive whole within this (slow-header defence)
  int deferredTimeoutSeconds = 30;  // a deferred answer (a publish's commit) not given by then: 503
  std::size_t maxBodyBytes = 1 << 20;
  std::string publicUrl;                 // overrides the Host-derived base URL for $schema links
  std::vector<std::string> corsOrigins;  // exact origins; "*" allows any
};

}  // namespace aev::http

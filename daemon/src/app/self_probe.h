#pragma once
// The watchdog's proof of life: the daemon asks itself GET /healthz over loopback, which
// only answers when the listener accepts and a request thread is free to run a handler.
// A thread that merely pinged systemd would keep a daemon alive whose front end is
// wedged.
#include <chrono>
#include <string>

namespace aev::app {

// The address to probe for a server bound to `bindHost`: the loopback of the same
// family for a wildcard bind (0.0.0.0, ::, empty), else the bound address itself.
std::string probeHostFor(const std::string& bindHost);

// True when GET /healthz on host:port answers 200 within `timeout`, or 503 from the
// connection cap (http.max_connections): a daemon full of subscribers is busy, not
// wedged, and restarting it would cut every stream it serves.
bool answersHealthCheck(const std::string& host, int port, std::chrono::milliseconds timeout);

}  // namespace aev::app

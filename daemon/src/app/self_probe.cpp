#include "app/self_probe.h"

#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/Timespan.h>

#include <string_view>

namespace aev::app {

std::string probeHostFor(const std::string& bindHost) {
  if (bindHost.empty() || bindHost == "0.0.0.0" || bindHost == "*") return "127.0.0.1";
  if (bindHost == "::" || bindHost == "[::]") return "::1";
  return bindHost;
}

bool answersHealthCheck(const std::string& host, int port, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const Poco::Timespan span(static_cast<long>(timeout.count() / 1000),
                            static_cast<long>(timeout.count() % 1000) * 1000);
  try {
    Poco::Net::StreamSocket socket;
    socket.connect(Poco::Net::SocketAddress(host, static_cast<Poco::UInt16>(port)), span);
    socket.setSendTimeout(span);
    socket.setReceiveTimeout(span);
    // The User-Agent lets the access log tell the probe from a client.
    const std::string_view request =
        "GET /healthz HTTP/1.1\r\nHost: localhost\r\nUser-Agent: agent-eventsd-watchdog\r\nConnection: close\r\n\r\n";
    if (socket.sendBytes(request.data(), static_cast<int>(request.size())) != static_cast<int>(request.size()))
      return false;
    // Only the status line matters: "HTTP/1.1 200 " (or 503 at the connection cap).
    std::string head;
    char buffer[256];
    while (head.size() < 12 && std::chrono::steady_clock::now() < deadline) {
      const int n = socket.receiveBytes(buffer, sizeof buffer);
      if (n <= 0) break;
      head.append(buffer, static_cast<std::size_t>(n));
    }
    if (head.size() < 12 || head.compare(0, 5, "HTTP/") != 0) return false;
    return head.compare(8, 4, " 200") == 0 || head.compare(8, 4, " 503") == 0;
  } catch (const Poco::Exception&) {
    return false;  // refused, timed out or reset: not alive as far as a client can tell
  }
}

}  // namespace aev::app

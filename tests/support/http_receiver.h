#pragma once
// A small HTTP server in the test process on a free loopback port: the receiver of the
// daemon's outbound requests (webhooks, exports). Every request is recorded (path,
// lower-cased headers, body, arrival time); the answer comes from a function the test
// sets, so one receiver can answer 500, sleep past a timeout, send Retry-After or
// redirect.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace Poco::Net {
class HTTPServer;
}

namespace aev::testing {

struct ReceivedRequest {
  std::string method;
  std::string path;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  std::chrono::steady_clock::time_point at;
  std::string header(const std::string& lowerName) const;
};

struct Reply {
  int status = 200;
  std::string body = "ok";
  std::vector<std::pair<std::string, std::string>> headers;
  std::chrono::milliseconds delay{0};  // slept before answering
};

class HttpReceiver {
 public:
  using Responder = std::function<Reply(const ReceivedRequest& request, std::size_t index /*0-based*/)>;

  HttpReceiver();  // answers 200 "ok" until respond() is called
  ~HttpReceiver();
  HttpReceiver(const HttpReceiver&) = delete;
  HttpReceiver& operator=(const HttpReceiver&) = delete;

  int port() const { return port_; }
  std::string url(const std::string& path = "/hook") const;
  void respond(Responder responder);

  std::vector<ReceivedRequest> requests() const;
  std::size_t count() const;
  // Waits until at least n requests arrived; false on timeout.
  bool waitFor(std::size_t n, std::chrono::milliseconds timeout) const;

  // What the server's threads share with the receiver. They hold it by shared_ptr: a
  // request still being served when the receiver goes (the daemon keeps retrying) must
  // not touch freed memory. The destructor waits for responders that are running.
  struct State;

 private:
  std::shared_ptr<State> state_;
  int port_ = 0;
  std::unique_ptr<Poco::Net::HTTPServer> server_;
};

}  // namespace aev::testing

#include "support/http_receiver.h"

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/StreamCopier.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace aev::testing {

struct HttpReceiver::State {
  std::mutex mutex;
  std::condition_variable arrived;
  std::condition_variable idle;
  std::vector<ReceivedRequest> requests;
  Responder responder;
  int busy = 0;  // responders running now
  bool closed = false;

  Reply handle(ReceivedRequest request) {
    Responder current;
    std::size_t index;
    {
      std::lock_guard lock(mutex);
      if (closed) return Reply{503, "closed", {}, std::chrono::milliseconds(0)};
      current = responder;
      index = requests.size();
      requests.push_back(request);
      ++busy;
    }
    Reply reply;
    try {
      if (current) reply = current(request, index);
    } catch (...) {
      reply = Reply{500, "responder threw", {}, std::chrono::milliseconds(0)};
    }
    {
      std::lock_guard lock(mutex);
      --busy;
    }
    idle.notify_all();
    arrived.notify_all();
    return reply;
  }
};

namespace {

class Handler : public Poco::Net::HTTPRequestHandler {
 public:
  explicit Handler(std::shared_ptr<HttpReceiver::State> state) : state_(std::move(state)) {}
  void handleRequest(Poco::Net::HTTPServerRequest& req, Poco::Net::HTTPServerResponse& resp) override {
    ReceivedRequest r;
    r.method = req.getMethod();
    r.path = req.getURI();
    for (const auto& [name, value] : req) {
      std::string lower = name;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      r.headers[lower] = value;
    }
    Poco::StreamCopier::copyToString(req.stream(), r.body);
    r.at = std::chrono::steady_clock::now();
    Reply reply = state_->handle(std::move(r));
    if (reply.delay.count() > 0) std::this_thread::sleep_for(reply.delay);
    try {
      resp.setStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(reply.status));
      for (const auto& [name, value] : reply.headers) resp.set(name, value);
      resp.setContentType("text/plain");
      resp.setContentLength(static_cast<std::streamsize>(reply.body.size()));
      resp.send() << reply.body;
    } catch (...) {
      // The client gave up (a timeout test) or the receiver closed: nothing to answer.
    }
  }

 private:
  std::shared_ptr<HttpReceiver::State> state_;
};

class Factory : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit Factory(std::shared_ptr<HttpReceiver::State> state) : state_(std::move(state)) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest&) override {
    return new Handler(state_);
  }

 private:
  std::shared_ptr<HttpReceiver::State> state_;
};

}  // namespace

std::string ReceivedRequest::header(const std::string& lowerName) const {
  auto it = headers.find(lowerName);
  return it == headers.end() ? std::string() : it->second;
}

HttpReceiver::HttpReceiver() : state_(std::make_shared<State>()) {
  Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
  port_ = socket.address().port();
  auto* params = new Poco::Net::HTTPServerParams;
  params->setMaxThreads(16);
  params->setKeepAlive(true);
  server_ = std::make_unique<Poco::Net::HTTPServer>(new Factory(state_), socket, params);
  server_->start();
}

HttpReceiver::~HttpReceiver() {
  {
    // No responder (which may reference the test's locals) runs after this returns.
    std::unique_lock lock(state_->mutex);
    state_->closed = true;
    state_->responder = nullptr;
    state_->idle.wait(lock, [&] { return state_->busy == 0; });
  }
  server_->stopAll(true);
}

std::string HttpReceiver::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

void HttpReceiver::respond(Responder responder) {
  std::lock_guard lock(state_->mutex);
  state_->responder = std::move(responder);
}

std::vector<ReceivedRequest> HttpReceiver::requests() const {
  std::lock_guard lock(state_->mutex);
  return state_->requests;
}

std::size_t HttpReceiver::count() const {
  std::lock_guard lock(state_->mutex);
  return state_->requests.size();
}

bool HttpReceiver::waitFor(std::size_t n, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(state_->mutex);
  return state_->arrived.wait_for(lock, timeout, [&] { return state_->requests.size() >= n; });
}

}  // namespace aev::testing

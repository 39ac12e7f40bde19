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
#include <thread>

namespace aev::testing {

namespace {

class Handler : public Poco::Net::HTTPRequestHandler {
 public:
  explicit Handler(HttpReceiver& owner) : owner_(owner) {}
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
    Reply reply = owner_.handle(std::move(r));
    if (reply.delay.count() > 0) std::this_thread::sleep_for(reply.delay);
    resp.setStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(reply.status));
    for (const auto& [name, value] : reply.headers) resp.set(name, value);
    resp.setContentType("text/plain");
    resp.setContentLength(static_cast<std::streamsize>(reply.body.size()));
    try {
      resp.send() << reply.body;
    } catch (...) {
      // The client gave up (a timeout test): nothing to answer.
    }
  }

 private:
  HttpReceiver& owner_;
};

class Factory : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit Factory(HttpReceiver& owner) : owner_(owner) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest&) override {
    return new Handler(owner_);
  }

 private:
  HttpReceiver& owner_;
};

}  // namespace

std::string ReceivedRequest::header(const std::string& lowerName) const {
  auto it = headers.find(lowerName);
  return it == headers.end() ? std::string() : it->second;
}

HttpReceiver::HttpReceiver() {
  Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
  port_ = socket.address().port();
  auto* params = new Poco::Net::HTTPServerParams;
  params->setMaxThreads(16);
  params->setKeepAlive(true);
  server_ = std::make_unique<Poco::Net::HTTPServer>(new Factory(*this), socket, params);
  server_->start();
}

HttpReceiver::~HttpReceiver() { server_->stopAll(true); }

std::string HttpReceiver::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

void HttpReceiver::respond(Responder responder) {
  std::lock_guard lock(mutex_);
  responder_ = std::move(responder);
}

Reply HttpReceiver::handle(ReceivedRequest request) {
  Reply reply;
  Responder responder;
  std::size_t index;
  {
    std::lock_guard lock(mutex_);
    responder = responder_;
    index = requests_.size();
    requests_.push_back(request);
  }
  if (responder) reply = responder(request, index);
  arrived_.notify_all();
  return reply;
}

std::vector<ReceivedRequest> HttpReceiver::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

std::size_t HttpReceiver::count() const {
  std::lock_guard lock(mutex_);
  return requests_.size();
}

bool HttpReceiver::waitFor(std::size_t n, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return arrived_.wait_for(lock, timeout, [&] { return requests_.size() >= n; });
}

}  // namespace aev::testing

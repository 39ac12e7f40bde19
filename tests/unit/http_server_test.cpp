// The HTTP front end in process, with routes of the test's own: deferred answers given
// from another thread, and a deferred answer that never comes (503 at the deadline; the
// late completion then changes nothing).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

#include "http/router.h"
#include "http/server.h"

namespace {

using namespace std::chrono_literals;
using aev::http::Request;
using aev::http::Response;

// Sends one request on a fresh connection and reads until the server closes it or the
// timeout passes: the raw answer.
std::string exchange(int port, const std::string& request, std::chrono::milliseconds timeout = 5s) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return "connect failed";
  }
  ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string answer;
  const auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
    char buf[4096];
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    answer.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return answer;
}

class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto router = std::make_shared<aev::http::Router>();
    router->add(
        "GET", "/later",
        [](Request&) {
          Response r;
          r.deferred = [](Response::Complete complete) {
            std::thread([complete] {
              std::this_thread::sleep_for(50ms);
              Response answer = Response::text(200, "text/plain", "given later");
              complete(&answer);
            }).detach();
          };
          return r;
        },
        "answered from another thread", "test");
    router->add(
        "GET", "/never",
        [this](Request&) {
          Response r;
          r.deferred = [this](Response::Complete complete) {
            std::lock_guard lock(mutex_);
            kept_ = std::move(complete);  // never called in time
          };
          return r;
        },
        "never answered", "test");
    router->add(
        "GET", "/refused",
        [](Request&) {
          Response r;
          r.deferred = [](Response::Complete) { throw std::runtime_error("could not start"); };
          return r;
        },
        "fails to start", "test");
    aev::http::ServerOptions options;
    options.port = 0;
    options.maxThreads = 2;
    options.deferredTimeoutSeconds = 1;
    server_ = std::make_unique<aev::http::Server>(options, router);
    server_->start();
  }
  void TearDown() override { server_.reset(); }

  std::mutex mutex_;
  Response::Complete kept_;
  std::unique_ptr<aev::http::Server> server_;
};

TEST_F(HttpServerTest, DeferredAnswerIsWrittenByTheCompletion) {
  auto answer = exchange(server_->port(), "GET /later HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(answer.rfind("HTTP/1.1 200", 0), 0u) << answer;
  EXPECT_NE(answer.find("\r\n\r\ngiven later"), std::string::npos) << answer;
}

TEST_F(HttpServerTest, DeferredThatFailsToStartIsA500) {
  auto answer = exchange(server_->port(), "GET /refused HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(answer.rfind("HTTP/1.1 500", 0), 0u) << answer;
  EXPECT_NE(answer.find("application/problem+json"), std::string::npos) << answer;
}

TEST_F(HttpServerTest, DeferredAnswerThatNeverComesIs503AndALateOneChangesNothing) {
  const auto started = std::chrono::steady_clock::now();
  auto answer = exchange(server_->port(), "GET /never HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(answer.rfind("HTTP/1.1 503", 0), 0u) << answer;
  EXPECT_NE(answer.find("Retry-After: 1"), std::string::npos) << answer;
  EXPECT_GE(took, 900ms);
  EXPECT_LT(took, 3s);
  Response::Complete late;
  {
    std::lock_guard lock(mutex_);
    late = kept_;
  }
  ASSERT_TRUE(late);
  Response ignored = Response::text(200, "text/plain", "too late");
  late(&ignored);  // the connection is gone: nothing may be written or freed twice
  auto next = exchange(server_->port(), "GET /later HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(next.rfind("HTTP/1.1 200", 0), 0u) << next;
}

TEST_F(HttpServerTest, StopWaitsForOwedAnswersThenReturns) {
  // A request whose answer is owed while the server stops: the client gets the 503 of
  // the deadline (or the answer), and stop() returns.
  std::string answer;
  std::thread client([&] { answer = exchange(server_->port(), "GET /never HTTP/1.1\r\nHost: t\r\n\r\n", 10s); });
  std::this_thread::sleep_for(200ms);
  const auto started = std::chrono::steady_clock::now();
  server_->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  client.join();
  EXPECT_EQ(answer.rfind("HTTP/1.1 503", 0), 0u) << answer;
  EXPECT_NE(answer.find("Connection: close"), std::string::npos) << answer;
}

}  // namespace

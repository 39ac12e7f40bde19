// The daemon under systemd's service-manager protocol (sd_notify), checked with a real
// notification socket in place of systemd: READY=1 once it serves, WATCHDOG=1 while a
// request to itself is answered (also at the connection cap), STOPPING=1 on SIGTERM.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/api_fixture.h"
#include "support/backend.h"

namespace aev::testing {
namespace {

using namespace std::chrono_literals;

// What systemd would bind: a Unix datagram socket named by NOTIFY_SOCKET.
class NotifySocket {
 public:
  explicit NotifySocket(std::string path) : path_(std::move(path)) {
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw std::runtime_error("socket: " + std::string(std::strerror(errno)));
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path_.size() >= sizeof addr.sun_path) throw std::runtime_error("notify socket path too long: " + path_);
    std::memcpy(addr.sun_path, path_.c_str(), path_.size() + 1);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
      throw std::runtime_error("bind " + path_ + ": " + std::strerror(errno));
  }
  ~NotifySocket() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }
  NotifySocket(const NotifySocket&) = delete;
  NotifySocket& operator=(const NotifySocket&) = delete;

  // Messages received until `until` returns true for one of them or `timeout` passes.
  template <typename Stop>
  std::vector<std::string> receiveUntil(std::chrono::milliseconds timeout, Stop until) {
    std::vector<std::string> got;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return got;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return got;
      char buf[4096];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) continue;
      got.emplace_back(buf, static_cast<std::size_t>(n));
      if (until(got.back())) return got;
    }
  }

 private:
  std::string path_;
  int fd_ = -1;
};

bool has(const std::string& message, const std::string& line) {
  return ("\n" + message + "\n").find("\n" + line + "\n") != std::string::npos;
}

std::size_t countWith(const std::vector<std::string>& messages, const std::string& line) {
  std::size_t n = 0;
  for (const auto& m : messages) n += has(m, line) ? 1 : 0;
  return n;
}

std::string joined(const std::vector<std::string>& messages) {
  std::string out;
  for (const auto& m : messages) out += "[" + m + "] ";
  return out;
}

// A client connection that only holds a slot of http.max_connections.
struct HeldConnection {
  explicit HeldConnection(int port) {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) throw std::runtime_error("connect");
  }
  ~HeldConnection() { ::close(fd); }
  int fd = -1;
};

// SQLite only: the protocol does not depend on the store.
class ServiceManagerProtocol : public ::testing::Test {
 protected:
  void SetUp() override {
    if (currentBackend() != Backend::SQLite) GTEST_SKIP() << "store-independent; runs with --backend=sqlite";
  }
};

TEST_F(ServiceManagerProtocol, ReadyThenWatchdogThenStopping) {
  TempDir dir("aev-notify");
  NotifySocket systemd(dir.file("notify"));
  DaemonOptions options;
  options.databaseUrl = "";
  // WatchdogSec=0.6s: a probe and a WATCHDOG=1 every 200 ms.
  options.env = {{"NOTIFY_SOCKET", dir.file("notify")}, {"WATCHDOG_USEC", "600000"}};
  DaemonProcess daemon(options);
  daemon.start();

  auto start = systemd.receiveUntil(5s, [](const std::string& m) { return has(m, "READY=1"); });
  ASSERT_FALSE(start.empty()) << "no READY=1; log:\n" << daemon.logTail();
  EXPECT_TRUE(has(start.back(), "READY=1")) << joined(start);
  EXPECT_NE(start.back().find("STATUS=listening on port " + std::to_string(daemon.port())), std::string::npos)
      << start.back();

  std::size_t pings = 0;
  auto beats = systemd.receiveUntil(10s, [&](const std::string& m) { return has(m, "WATCHDOG=1") && ++pings == 3; });
  EXPECT_EQ(countWith(beats, "WATCHDOG=1"), 3u) << joined(beats) << "\n" << daemon.logTail();
  EXPECT_EQ(countWith(beats, "STOPPING=1"), 0u) << joined(beats);
  // The probe's own requests are debug lines, never info lines of the access log.
  std::istringstream log(daemon.log());
  for (std::string line; std::getline(log, line);) {
    if (line.find("path=/healthz") != std::string::npos) {
      EXPECT_NE(line.find(" debug ["), std::string::npos) << line;
    }
  }

  ::kill(daemon.pid(), SIGTERM);
  auto stop = systemd.receiveUntil(10s, [](const std::string& m) { return has(m, "STOPPING=1"); });
  ASSERT_FALSE(stop.empty()) << "no STOPPING=1; log:\n" << daemon.logTail();
  EXPECT_TRUE(has(stop.back(), "STOPPING=1")) << joined(stop);
  const auto status = daemon.stop();
  EXPECT_TRUE(status.exited && status.code == 0) << status.describe();
}

TEST_F(ServiceManagerProtocol, AtTheConnectionCapTheWatchdogStillHearsFromIt) {
  TempDir dir("aev-notify");
  NotifySocket systemd(dir.file("notify"));
  DaemonOptions options;
  options.databaseUrl = "";
  options.config = {{"http.max_connections", "4"}, {"http.keepalive_timeout_seconds", "60"}};
  options.env = {{"NOTIFY_SOCKET", dir.file("notify")}, {"WATCHDOG_USEC", "600000"}};
  DaemonProcess daemon(options);
  daemon.start();
  ASSERT_FALSE(systemd.receiveUntil(5s, [](const std::string& m) { return has(m, "READY=1"); }).empty());

  // Busy, not wedged: every slot held by a client, the probe gets the cap's 503.
  std::vector<std::unique_ptr<HeldConnection>> held;
  for (int i = 0; i < 6; ++i) held.push_back(std::make_unique<HeldConnection>(daemon.port()));
  std::this_thread::sleep_for(300ms);
  std::size_t pings = 0;
  auto beats = systemd.receiveUntil(10s, [&](const std::string& m) { return has(m, "WATCHDOG=1") && ++pings == 3; });
  EXPECT_EQ(countWith(beats, "WATCHDOG=1"), 3u) << joined(beats) << "\n" << daemon.logTail();
  EXPECT_EQ(daemon.log().find("did not answer"), std::string::npos) << daemon.logTail();
}

TEST_F(ServiceManagerProtocol, OutsideSystemdNothingIsSentAndNoProbeRuns) {
  DaemonOptions options;
  options.databaseUrl = "";
  DaemonProcess daemon(options);
  daemon.start();
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(daemon.log().find("systemd watchdog"), std::string::npos) << daemon.logTail();
  const auto status = daemon.stop();
  EXPECT_TRUE(status.exited && status.code == 0) << status.describe();
}

}  // namespace
}  // namespace aev::testing

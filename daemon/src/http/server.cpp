#include "http/server.h"

#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/Net/StreamSocketImpl.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <spdlog/spdlog.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "common/blocking_hint.h"
#include "common/errors.h"
#include "common/exceptions.h"
#include "http/problem.h"

namespace aev::http {

namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
constexpr int kSendTimeoutMs = 30'000;  // a client that reads nothing for this long is dropped
constexpr int kLingerMs = 1'000;        // after an error answer: drain what the client still sends
constexpr std::size_t kLingerBytes = 4 << 20;

std::int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
constexpr std::int64_t kNsPerSecond = 1'000'000'000;

// Writes all of data to a non-blocking socket, waiting for room when the kernel buffer is full.
bool sendAll(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd, POLLOUT, 0};
      int r;
      do r = ::poll(&p, 1, kSendTimeoutMs);
      while (r < 0 && errno == EINTR);
      if (r <= 0 || (p.revents & (POLLERR | POLLHUP | POLLNVAL))) return false;
      continue;
    }
    return false;
  }
  return true;
}

Peer peerOf(const sockaddr_storage& sa) {
  Peer p;
  char text[INET6_ADDRSTRLEN] = {};
  if (sa.ss_family == AF_INET) {
    const auto& in = reinterpret_cast<const sockaddr_in&>(sa);
    ::inet_ntop(AF_INET, &in.sin_addr, text, sizeof text);
    p.loopback = (ntohl(in.sin_addr.s_addr) >> 24) == 127;
  } else if (sa.ss_family == AF_INET6) {
    const auto& in6 = reinterpret_cast<const sockaddr_in6&>(sa);
    ::inet_ntop(AF_INET6, &in6.sin6_addr, text, sizeof text);
    p.loopback = IN6_IS_ADDR_LOOPBACK(&in6.sin6_addr) ||
                 (IN6_IS_ADDR_V4MAPPED(&in6.sin6_addr) && in6.sin6_addr.s6_addr[12] == 127);
  }
  p.address = text;
  return p;
}

std::runtime_error socketError(const std::string& what) {
  return std::runtime_error(what + ": " + std::strerror(errno));
}

}  // namespace

struct Server::Connection {
  // Who may touch it: the thread that took its event (kOwned), nobody while it waits in
  // epoll (kArmed), or the thread that takes the event the reaper's shutdown raises
  // (kReaping). The state shares one atomic word with the armed connection's deadline, so
  // the reaper's compare-and-swap can only succeed on the deadline it judged expired.
  enum : std::uint64_t { kArmed = 0, kOwned = 1, kReaping = 2, kStateBits = 3 };

  Connection(int f, Peer p, const ParserLimits& limits) : fd(f), peer(std::move(p)), parser(limits) {}

  int fd;
  Peer peer;
  std::string in;
  std::size_t pos = 0;  // bytes of `in` consumed by the parser
  std::string out;      // an answer (or what is left of it) to write
  std::size_t outPos = 0;
  bool closeAfterWrite = false;
  RequestParser parser;
  bool continueSent = false;
  std::int64_t requestStart = 0;            // when the current request's first byte arrived; 0: none yet
  std::atomic<std::uint64_t> word{kOwned};  // (deadline in steady-clock ms) << 2 | state

  void armUntil(std::int64_t deadlineNs) {
    word.store(static_cast<std::uint64_t>(deadlineNs / 1'000'000) << 2 | kArmed, std::memory_order_release);
  }
  // The thread that took the connection's event: false if the reaper got there first.
  bool take() {
    auto v = word.load(std::memory_order_acquire);
    while ((v & kStateBits) == kArmed)
      if (word.compare_exchange_weak(v, kOwned, std::memory_order_acquire)) return true;
    return false;
  }
  bool reapIfExpired(std::int64_t nowNs) {
    auto v = word.load(std::memory_order_acquire);
    if ((v & kStateBits) != kArmed || static_cast<std::int64_t>(v >> 2) > nowNs / 1'000'000) return false;
    return word.compare_exchange_strong(v, (v & ~std::uint64_t{kStateBits}) | kReaping, std::memory_order_acq_rel);
  }
};

Server::Server(ServerOptions options, std::shared_ptr<Router> router)
    : options_(std::move(options)), router_(std::move(router)), dispatcher_(options_, *router_) {}

Server::~Server() { stop(); }

void Server::start() {
  Poco::Net::SocketAddress address(options_.host, static_cast<Poco::UInt16>(options_.port));
  listen_ = ::socket(address.af(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (listen_ < 0) throw socketError("socket");
  // SO_REUSEADDR only: SO_REUSEPORT would let a second daemon share a busy port silently.
  int one = 1;
  ::setsockopt(listen_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(listen_, address.addr(), address.length()) != 0)
    throw socketError("cannot listen on " + address.toString());
  if (::listen(listen_, 4096) != 0) throw socketError("listen on " + address.toString());
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  ::getsockname(listen_, reinterpret_cast<sockaddr*>(&bound), &len);
  boundPort_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6&>(bound).sin6_port
                                                 : reinterpret_cast<sockaddr_in&>(bound).sin_port);

  epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
  wake_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (epoll_ < 0 || wake_ < 0) throw socketError("epoll");
  epoll_event ev{};
  ev.events = EPOLLIN;  // level-triggered and never read: once written, every thread sees it
  ev.data.ptr = &wake_;
  ::epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &ev);
  ev.events = EPOLLIN | EPOLLONESHOT;
  ev.data.ptr = &listen_;
  ::epoll_ctl(epoll_, EPOLL_CTL_ADD, listen_, &ev);

  const int n = std::max(1, options_.maxThreads);
  gate_ = std::make_unique<WaiterGate>(std::min(n, WaiterGate::coresAvailable()));
  for (int i = 0; i < n; ++i) threads_.emplace_back([this] { run(); });
  reaper_ = std::thread([this] { reap(); });
}

void Server::stop() {
  if (threads_.empty()) return;
  stopping_ = true;
  ::epoll_ctl(epoll_, EPOLL_CTL_DEL, listen_, nullptr);  // no new connections
  std::uint64_t one = 1;
  [[maybe_unused]] auto w = ::write(wake_, &one, sizeof one);
  gate_->stop();  // parked threads leave at once
  // Threads finish the request they are on (answering it with Connection: close), then leave.
  for (auto& t : threads_) t.join();
  threads_.clear();
  // Answers still owed by commits in flight (the event writer stops after the server):
  // given by their completions, or the 503 of their deadline.
  bool owed = false;
  const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(options_.deferredTimeoutSeconds + 5);
  for (;;) {
    expireOwed(nowNs());
    std::unique_lock lock(deferredMutex_);
    if (deferredDone_.wait_for(lock, std::chrono::milliseconds(100), [&] { return owed_.empty(); })) break;
    if (std::chrono::steady_clock::now() > giveUp) {
      owed = true;
      spdlog::warn("stopping with {} deferred answer(s) still owed; their connections are left open", owed_.size());
      break;
    }
  }
  { std::lock_guard lock(reaperMutex_); }
  reaperWake_.notify_all();
  reaper_.join();
  if (!owed) {
    for (auto* c : connections_) {  // idle keep-alive connections
      ::close(c->fd);
      delete c;
    }
    connections_.clear();
  }
  ::close(listen_);
  ::close(epoll_);
  ::close(wake_);
}

void Server::run() {
  pthread_setname_np(pthread_self(), "aev-http");  // for top, perf and bench/
  BlockingHint::setHandler([](void* gate) { static_cast<WaiterGate*>(gate)->blocking(); }, gate_.get());
  epoll_event ev;
  for (;;) {
    if (!gate_->enter()) return;  // stopping
    // One event at a time: a thread that took several would serve them one after another
    // while other threads sleep.
    const int n = ::epoll_wait(epoll_, &ev, 1, -1);
    gate_->leave();
    if (n <= 0) continue;  // EINTR
    if (ev.data.ptr == &wake_) return;
    if (ev.data.ptr == &listen_) {
      acceptReady();
      continue;
    }
    auto* c = static_cast<Connection*>(ev.data.ptr);
    if (!c->take()) {
      destroy(c, false);  // the reaper shut it down
      continue;
    }
    serve(c);
  }
}

void Server::acceptReady() {
  bool exhausted = false;
  for (int i = 0; i < 256; ++i) {
    sockaddr_storage sa{};
    socklen_t len = sizeof sa;
    const int fd = ::accept4(listen_, reinterpret_cast<sockaddr*>(&sa), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        spdlog::warn("accept failed: {}; retrying shortly", std::strerror(errno));
        exhausted = true;
      }
      break;  // EAGAIN: nothing more queued
    }
    std::size_t open;
    {
      std::lock_guard lock(connectionsMutex_);
      open = connections_.size();
    }
    if (open >= static_cast<std::size_t>(options_.maxConnections)) {
      static constexpr std::string_view kBusy =
          "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      [[maybe_unused]] auto w = ::send(fd, kBusy.data(), kBusy.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      ::close(fd);
      continue;
    }
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ParserLimits limits;
    limits.maxBodyBytes = options_.maxBodyBytes;
    auto* c = new Connection(fd, peerOf(sa), limits);
    {
      std::lock_guard lock(connectionsMutex_);
      connections_.insert(c);
    }
    c->armUntil(nowNs() + options_.keepAliveTimeoutSeconds * kNsPerSecond);
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLONESHOT;
    ev.data.ptr = c;
    if (::epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &ev) != 0) {
      unregister(c);
      ::close(fd);
      delete c;
    }
  }
  // Out of descriptors: the listener stays readable; wait a little instead of spinning (C9).
  if (exhausted) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (stopping_) return;
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLONESHOT;
  ev.data.ptr = &listen_;
  ::epoll_ctl(epoll_, EPOLL_CTL_MOD, listen_, &ev);
}

void Server::serve(Connection* c) {
  thread_local std::string scratch(kReadChunk, '\0');
  if (c->outPos < c->out.size() && !deliver(c)) return;  // woken by EPOLLOUT
  for (;;) {
    switch (c->parser.parse(c->in, c->pos)) {
      case RequestParser::State::kComplete: {
        auto wire = c->parser.take();
        if (c->pos == c->in.size()) {
          c->in.clear();
          c->pos = 0;
        }
        if (!answer(c, std::move(wire))) return;
        continue;
      }
      case RequestParser::State::kError:
        answerRejected(c);
        return;
      case RequestParser::State::kIncomplete:
        break;
    }
    if (c->parser.headComplete() && c->parser.current().expectContinue && !c->continueSent) {
      c->continueSent = true;
      if (!sendAll(c->fd, "HTTP/1.1 100 Continue\r\n\r\n")) return destroy(c, false);
    }
    if (c->pos > 0) {  // keep only the unparsed tail
      c->in.erase(0, c->pos);
      c->pos = 0;
    }
    const ssize_t n = ::recv(c->fd, scratch.data(), scratch.size(), 0);
    if (n > 0) {
      c->in.append(scratch.data(), static_cast<std::size_t>(n));
      if (!c->requestStart) c->requestStart = nowNs();
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !stopping_) return arm(c, EPOLLIN);
    return destroy(c, false);  // closed by the peer, a socket error, or an idle connection at shutdown
  }
}

bool Server::answer(Connection* c, WireRequest&& wire) {
  Exchange x;
  dispatcher_.handle(std::move(wire), c->peer, x);
  if (x.response.takeover) return handOver(c, x);
  if (x.response.deferred) return defer(c, std::move(x));
  queueAnswer(c, x);
  return deliver(c);
}

// A deferred answer: whoever settles it first, the completion or the reaper's timeout,
// answers on the connection; the other finds it settled and touches nothing but this.
struct Server::Owed {
  std::atomic<bool> settled{false};
  Connection* c;
  Exchange exchange;
  std::int64_t deadlineNs;
};

// The connection belongs to the completion until it has written the answer; this thread
// goes back to epoll at once.
bool Server::defer(Connection* c, Exchange&& x) {
  auto start = std::move(x.response.deferred);
  x.response.deferred = nullptr;
  auto owed = std::make_shared<Owed>();
  owed->c = c;
  owed->exchange = std::move(x);
  owed->deadlineNs = nowNs() + options_.deferredTimeoutSeconds * kNsPerSecond;
  {
    std::lock_guard lock(deferredMutex_);
    owed_.insert(owed);
  }
  // A completion that comes after the timeout returns before touching the server, which
  // may be gone by then.
  auto complete = [this, owed](Response::Outcome outcome) {
    if (owed->settled.exchange(true)) return;
    settle(owed, std::move(outcome));
  };
  try {
    start(complete);
  } catch (...) {
    complete(std::current_exception());
  }
  return false;
}

void Server::settle(const std::shared_ptr<Owed>& owed, Response::Outcome outcome) {
  auto& x = owed->exchange;
  if (auto* r = std::get_if<Response*>(&outcome))
    x.response = std::move(**r);
  else
    x.response = responseForFailure(std::get<std::exception_ptr>(outcome), x.request);
  Connection* c = owed->c;
  queueAnswer(c, x);
  // A pipelined request already read needs a thread: EPOLLOUT fires at once.
  if (deliver(c)) arm(c, c->pos < c->in.size() ? EPOLLIN | EPOLLOUT : EPOLLIN);
  std::lock_guard lock(deferredMutex_);
  owed_.erase(owed);
  if (owed_.empty()) deferredDone_.notify_all();
}

// Answers 503 for deferred answers past their deadline (a store that stopped committing):
// the client is told, and its connection is freed; the late completion then does nothing.
void Server::expireOwed(std::int64_t now) {
  std::vector<std::shared_ptr<Owed>> expired;
  {
    std::lock_guard lock(deferredMutex_);
    for (const auto& owed : owed_)
      if (owed->deadlineNs <= now) expired.push_back(owed);
  }
  for (const auto& owed : expired) {
    if (owed->settled.exchange(true)) continue;
    spdlog::warn("request {}: no answer after {} s; 503", owed->exchange.request.requestId,
                 options_.deferredTimeoutSeconds);
    settle(owed, std::make_exception_ptr(errors::unavailable(
                     "The answer did not come in time; the request may or may not have taken effect.", 1)));
  }
}

void Server::queueAnswer(Connection* c, const Exchange& x) {
  const bool keep = x.keepAlive && !stopping_;
  c->out = dispatcher_.serialize(x, keep);
  c->outPos = 0;
  c->closeAfterWrite = !keep;
  dispatcher_.logAccess(x);
  c->continueSent = false;
  c->requestStart = c->pos < c->in.size() ? nowNs() : 0;  // a pipelined request has begun
}

// Writes what the socket takes of the queued answer without waiting. True: all written
// and the connection stays open, still the caller's; false: the connection waits for
// EPOLLOUT (armed) or is gone.
bool Server::deliver(Connection* c) {
  while (c->outPos < c->out.size()) {
    const ssize_t n = ::send(c->fd, c->out.data() + c->outPos, c->out.size() - c->outPos, MSG_NOSIGNAL);
    if (n > 0) {
      c->outPos += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      arm(c, EPOLLOUT);
      return false;
    }
    destroy(c, false);
    return false;
  }
  c->out.clear();
  c->outPos = 0;
  if (c->closeAfterWrite) {
    destroy(c, false);
    return false;
  }
  return true;
}

bool Server::answerRejected(Connection* c) {
  Exchange x;
  dispatcher_.reject(c->parser.errorStatus(), c->parser.errorDetail(), c->parser.current().target, c->peer, x);
  sendAll(c->fd, dispatcher_.serialize(x, false));
  dispatcher_.logAccess(x);
  destroy(c, /*linger=*/true);  // the rest of the request was not read
  return false;
}

// Head only, then the socket leaves this server for the stream hub (blocking mode, as the
// takeover's replay writes expect; the hub makes it non-blocking again).
bool Server::handOver(Connection* c, Exchange& x) {
  const bool sent = sendAll(c->fd, dispatcher_.serialize(x, false));
  dispatcher_.logAccess(x);
  const int fd = c->fd;
  ::epoll_ctl(epoll_, EPOLL_CTL_DEL, fd, nullptr);
  unregister(c);
  delete c;
  if (!sent) {
    ::close(fd);
    return false;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  try {
    Poco::Net::StreamSocket socket(new Poco::Net::StreamSocketImpl(fd));  // owns fd from here on
    x.response.takeover(socket);
  } catch (const std::exception& e) {
    spdlog::info("stream {} ended during set-up: {}", x.request.requestId, describeException(e));
  }
  return false;
}

void Server::arm(Connection* c, std::uint32_t events) {
  const bool writing = c->outPos < c->out.size();
  const bool partial = c->pos < c->in.size() || c->parser.started();
  // Armed first, then re-registered: once epoll_ctl runs, another thread may own (or free)
  // the connection, so nothing of it is read after armUntil (its release store).
  const int fd = c->fd;
  c->armUntil(writing   ? nowNs() + kSendTimeoutMs * 1'000'000LL
              : partial ? c->requestStart + options_.requestTimeoutSeconds * kNsPerSecond
                        : nowNs() + options_.keepAliveTimeoutSeconds * kNsPerSecond);
  epoll_event ev{};
  ev.events = events | EPOLLONESHOT;
  ev.data.ptr = c;
  ::epoll_ctl(epoll_, EPOLL_CTL_MOD, fd, &ev);
}

void Server::destroy(Connection* c, bool linger) {
  if (linger) {
    // Closing with unread bytes makes the kernel send RST, which can discard the answer
    // before the client reads it: half-close, then drain (bounded) until the client closes.
    ::shutdown(c->fd, SHUT_WR);
    thread_local std::string sink(kReadChunk, '\0');
    std::size_t drained = 0;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(kLingerMs);
    while (drained < kLingerBytes) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()).count();
      if (left <= 0) break;
      pollfd p{c->fd, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left)) <= 0) break;
      const ssize_t n = ::recv(c->fd, sink.data(), sink.size(), 0);
      if (n <= 0 && !(n < 0 && (errno == EINTR || errno == EAGAIN))) break;
      if (n > 0) drained += static_cast<std::size_t>(n);
    }
  }
  unregister(c);
  ::close(c->fd);
  delete c;
}

void Server::unregister(Connection* c) {
  std::lock_guard lock(connectionsMutex_);
  connections_.erase(c);
}

void Server::reap() {
  pthread_setname_np(pthread_self(), "aev-http-reaper");
  std::unique_lock wait(reaperMutex_);
  while (!stopping_) {
    reaperWake_.wait_for(wait, std::chrono::milliseconds(500));
    const auto now = nowNs();
    expireOwed(now);
    std::lock_guard lock(connectionsMutex_);
    // Only a connection waiting in epoll: shutting it down raises its event, and the
    // thread that takes it frees it (a connection a thread owns is that thread's).
    for (auto* c : connections_)
      if (c->reapIfExpired(now)) ::shutdown(c->fd, SHUT_RDWR);
  }
}

}  // namespace aev::http

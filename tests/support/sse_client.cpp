#include "support/sse_client.h"

#include <Poco/NumberParser.h>
#include <Poco/String.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace aev::testing {

using Clock = std::chrono::steady_clock;

// ---------------------------------------------------------------- SseMessage

std::int64_t SseMessage::numericId() const {
  if (!id) throw std::runtime_error("SSE message without id: " + raw);
  std::size_t used = 0;
  std::int64_t v = 0;
  try {
    v = std::stoll(*id, &used);
  } catch (...) {
    used = 0;
  }
  if (used == 0 || used != id->size()) throw std::runtime_error("SSE id is not a decimal number: " + raw);
  return v;
}

Poco::JSON::Object::Ptr SseMessage::json() const {
  Poco::Dynamic::Var v;
  try {
    v = parseJson(data);
  } catch (const std::exception& e) {
    throw std::runtime_error("SSE data is not JSON (" + std::string(e.what()) + "): " + data);
  }
  if (v.type() != typeid(Poco::JSON::Object::Ptr)) throw std::runtime_error("SSE data is not a JSON object: " + data);
  return v.extract<Poco::JSON::Object::Ptr>();
}

// ---------------------------------------------------------------- SseParser

void SseParser::feed(std::string_view bytes) {
  for (char c : bytes) {
    raw_ += c;
    if (afterCR_) {
      afterCR_ = false;
      if (c == '\n') continue;  // the LF of a CRLF
    }
    if (c == '\r' || c == '\n') {
      afterCR_ = c == '\r';
      std::string l;
      l.swap(line_);
      line(l);
      continue;
    }
    line_ += c;
  }
}

void SseParser::line(const std::string& l) {
  if (l.empty()) {  // dispatch
    if (hasData_) {
      SseMessage m;
      m.event = event_;
      m.id = id_;
      m.data = data_;
      if (!m.data.empty() && m.data.back() == '\n') m.data.pop_back();
      m.dataLines = dataLines_;
      m.raw = raw_;
      messages.push_back(std::move(m));
      ++dispatched;
    }
    raw_.clear();
    event_.clear();
    id_.reset();
    data_.clear();
    dataLines_ = 0;
    hasData_ = false;
    return;
  }
  if (l[0] == ':') {
    comments.push_back(l.substr(1));
    return;
  }
  std::string field = l, value;
  if (auto colon = l.find(':'); colon != std::string::npos) {
    field = l.substr(0, colon);
    value = l.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.erase(0, 1);
  }
  if (field == "event") {
    event_ = value;
  } else if (field == "data") {
    data_ += value;
    data_ += '\n';
    ++dataLines_;
    hasData_ = true;
  } else if (field == "id") {
    if (value.find('\0') == std::string::npos) {
      id_ = value;
      lastEventId = value;
    }
  } else if (field == "retry") {
    retries.push_back(value);
  }
}

// ---------------------------------------------------------------- SseStream

SseStream::SseStream(std::string host, int port) : host_(std::move(host)), port_(port) {}

SseStream::~SseStream() {
  if (fd_ >= 0) ::close(fd_);
}

void SseStream::start(const std::string& path, const Headers& headers, int receiveBuffer, const std::string& method) {
  if (state_ != State::Idle) throw std::logic_error("SseStream::start called twice");
  path_ = path;
  response_.method = method;
  response_.path = path;
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::runtime_error(std::string("socket(): ") + std::strerror(errno));
  if (receiveBuffer > 0) ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, sizeof receiveBuffer);
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port_));
  if (::inet_pton(AF_INET, host_.c_str(), &addr.sin_addr) != 1)
    throw std::runtime_error("SseStream: not an IPv4 address: " + host_);

  std::string req = method + " " + path + " HTTP/1.1\r\nHost: " + host_ + ":" + std::to_string(port_) + "\r\n";
  bool hasAccept = false;
  for (const auto& [k, v] : headers) {
    req += k + ": " + v + "\r\n";
    hasAccept |= Poco::icompare(k, "Accept") == 0;
  }
  if (!hasAccept) req += "Accept: text/event-stream\r\n";
  req += "\r\n";
  pendingOut_ = std::move(req);

  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    state_ = State::Head;
    onWritable();
  } else if (errno == EINPROGRESS) {
    state_ = State::Connecting;
  } else {
    state_ = State::Connecting;
    fail(std::string("connect: ") + std::strerror(errno));
  }
}

void SseStream::fail(const std::string& why) {
  if (state_ == State::Closed) return;
  state_ = State::Closed;
  closeReason_ = why;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void SseStream::close() { fail("closed by the client"); }

bool SseStream::onWritable() {
  if (state_ == State::Closed) return false;
  if (state_ == State::Connecting) {
    int err = 0;
    socklen_t len = sizeof err;
    ::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err == EINPROGRESS || err == EALREADY) return true;
    if (err != 0) {
      fail(std::string("connect: ") + std::strerror(err));
      return false;
    }
    state_ = State::Head;
  }
  while (!pendingOut_.empty()) {
    const ssize_t n = ::send(fd_, pendingOut_.data(), pendingOut_.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      pendingOut_.erase(0, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    fail(std::string("send: ") + std::strerror(errno));
    return false;
  }
  return true;
}

bool SseStream::isEventStream() const {
  return Poco::toLower(response_.header("Content-Type")).rfind("text/event-stream", 0) == 0;
}

void SseStream::parseHead() {
  const auto end = headBuf_.find("\r\n\r\n");
  std::istringstream lines(headBuf_.substr(0, end));
  std::string line;
  std::getline(lines, line);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.rfind("HTTP/1.", 0) != 0 || line.size() < 12) {
    fail("not an HTTP response: " + line);
    return;
  }
  response_.status = Poco::NumberParser::parse(line.substr(9, 3));
  response_.reason = line.size() > 13 ? line.substr(13) : "";
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    response_.headers.emplace_back(line.substr(0, colon), Poco::trim(line.substr(colon + 1)));
  }
  if (auto cl = response_.header("Content-Length"); !cl.empty()) contentLength_ = std::stoull(cl);
  headDone_ = true;
  state_ = State::Body;
  std::string rest = headBuf_.substr(end + 4);
  headBuf_.clear();
  if (!rest.empty()) {
    body_ += rest;
    if (isEventStream()) parser_.feed(rest);
  }
}

bool SseStream::onReadable() {
  if (state_ == State::Closed) return false;
  if (state_ == State::Connecting && !onWritable()) return false;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::recv(fd_, buf, sizeof buf, MSG_DONTWAIT);
    if (n > 0) {
      std::string_view bytes(buf, static_cast<std::size_t>(n));
      if (!headDone_) {
        headBuf_.append(bytes);
        if (headBuf_.find("\r\n\r\n") != std::string::npos) parseHead();
        if (state_ == State::Closed) return false;
      } else {
        body_.append(bytes);
        if (isEventStream()) parser_.feed(bytes);
      }
      if (headDone_ && !isEventStream() && contentLength_ && body_.size() >= *contentLength_) {
        fail("complete");
        return false;
      }
      continue;
    }
    if (n == 0) {
      fail("eof");
      return false;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
    fail(std::string("recv: ") + std::strerror(errno));
    return false;
  }
}

bool SseStream::waitIo(Clock::time_point deadline) {
  if (state_ == State::Closed || state_ == State::Idle) return false;
  const auto now = Clock::now();
  if (now >= deadline) return false;
  const int ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count()) + 1;
  pollfd p{};
  p.fd = fd_;
  p.events = static_cast<short>(POLLIN | (wantsWrite() ? POLLOUT : 0));
  const int r = ::poll(&p, 1, ms);
  if (r < 0) return errno == EINTR;
  if (r == 0) return false;
  if (p.revents & (POLLOUT | POLLERR | POLLHUP)) onWritable();
  if (state_ != State::Closed && (p.revents & (POLLIN | POLLERR | POLLHUP | POLLRDHUP))) onReadable();
  return true;
}

bool SseStream::waitHead(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!headDone_) {
    if (!waitIo(deadline) && (state_ == State::Closed || Clock::now() >= deadline)) break;
  }
  return headDone_;
}

std::optional<SseMessage> SseStream::next(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (!parser_.messages.empty()) {
      auto m = std::move(parser_.messages.front());
      parser_.messages.pop_front();
      return m;
    }
    if (state_ == State::Closed) return std::nullopt;
    if (!waitIo(deadline) && Clock::now() >= deadline) return std::nullopt;
  }
}

std::vector<SseMessage> SseStream::take(std::size_t n, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  std::vector<SseMessage> out;
  while (out.size() < n) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    auto m = next(std::max(left, std::chrono::milliseconds(0)));
    if (!m) break;
    out.push_back(std::move(*m));
  }
  return out;
}

bool SseStream::waitUntil(const std::function<bool()>& pred, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (pred()) return true;
    if (state_ == State::Closed) return pred();
    if (!waitIo(deadline) && Clock::now() >= deadline) return pred();
  }
}

bool SseStream::waitClosed(std::chrono::milliseconds timeout) {
  return waitUntil([this] { return state_ == State::Closed; }, timeout);
}

HttpResult SseStream::readResponse(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  waitHead(timeout);
  if (headDone_ && !isEventStream()) {
    waitUntil([this] { return contentLength_ && body_.size() >= *contentLength_; },
              std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
  }
  HttpResult r = response_;
  r.body = body_;
  return r;
}

std::string SseStream::describe() const {
  std::string s = response_.method + " " + path_ + " → ";
  s += headDone_ ? std::to_string(response_.status) : std::string("(no response head)");
  s += ", " + std::to_string(parser_.dispatched) + " message(s)";
  s += state_ == State::Closed ? ", closed (" + closeReason_ + ")" : ", open";
  const std::string b = body_.size() > 1500 ? "…" + body_.substr(body_.size() - 1500) : body_;
  if (!b.empty()) s += ", body: " + b;
  return s;
}

// ---------------------------------------------------------------- SsePool

SsePool::~SsePool() {
  streams_.clear();
  if (epollFd_ >= 0) ::close(epollFd_);
}

void SsePool::watch(SseStream& s, bool add) {
  if (s.fd() < 0) return;
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | (s.wantsWrite() ? EPOLLOUT : 0u);
  ev.data.ptr = &s;
  ::epoll_ctl(epollFd_, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, s.fd(), &ev);
}

void SsePool::pumpOnce(int waitMs) {
  if (epollFd_ < 0) epollFd_ = ::epoll_create1(EPOLL_CLOEXEC);
  epoll_event events[512];
  const int n = ::epoll_wait(epollFd_, events, 512, waitMs);
  for (int i = 0; i < n; ++i) {
    auto* s = static_cast<SseStream*>(events[i].data.ptr);
    const bool wanted = s->wantsWrite();
    if (events[i].events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) s->onWritable();
    if (!s->closed() && (events[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP | EPOLLRDHUP))) s->onReadable();
    // Closing the socket removed it from the epoll set; otherwise stop asking for
    // writability once the request is out.
    if (!s->closed() && wanted != s->wantsWrite()) watch(*s, false);
  }
}

std::string SsePool::open(std::size_t count, const std::string& path, const Headers& headers,
                          std::size_t maxInFlight, std::chrono::milliseconds timeout) {
  if (epollFd_ < 0) epollFd_ = ::epoll_create1(EPOLL_CLOEXEC);
  const auto deadline = Clock::now() + timeout;
  const std::size_t first = streams_.size();
  auto ready = [](const SseStream& s) { return s.headReceived() && !s.parser().retries.empty(); };
  std::size_t readyCount = 0;
  std::size_t checkedUpTo = first;  // streams before this index are ready
  while (readyCount < count) {
    // Start new ones while few are in flight.
    while (streams_.size() - first < count && (streams_.size() - first) - readyCount < maxInFlight) {
      auto s = std::make_unique<SseStream>(host_, port_);
      try {
        s->start(path, headers);
      } catch (const std::exception& e) {
        return "stream #" + std::to_string(streams_.size() - first) + " could not start: " + e.what();
      }
      if (s->closed()) return "stream #" + std::to_string(streams_.size() - first) + ": " + s->describe();
      watch(*s, true);
      streams_.push_back(std::move(s));
    }
    if (Clock::now() >= deadline) break;
    pumpOnce(50);
    readyCount = checkedUpTo - first;
    for (std::size_t i = checkedUpTo; i < streams_.size(); ++i) {
      auto& s = *streams_[i];
      if (s.headReceived() && s.status() != 200)
        return "stream #" + std::to_string(i - first) + " was refused: " + s.describe();
      if (s.closed() && !ready(s))
        return "stream #" + std::to_string(i - first) + " closed before it was set up: " + s.describe();
      if (ready(s)) {
        ++readyCount;
        if (i == checkedUpTo) ++checkedUpTo;
      }
    }
  }
  if (readyCount < count)
    return std::to_string(readyCount) + " of " + std::to_string(count) + " streams were set up within " +
           std::to_string(timeout.count()) + " ms";
  return "";
}

bool SsePool::pumpUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  if (epollFd_ < 0) epollFd_ = ::epoll_create1(EPOLL_CLOEXEC);
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (done()) return true;
    const auto now = Clock::now();
    if (now >= deadline) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    pumpOnce(static_cast<int>(std::min<long long>(left + 1, 100)));
  }
}

// ---------------------------------------------------------------- limits

rlim_t raiseFileLimit(rlim_t want) {
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0) return 0;
  const rlim_t target = lim.rlim_max == RLIM_INFINITY ? want : std::min(want, lim.rlim_max);
  if (lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur >= target) return lim.rlim_cur;
  lim.rlim_cur = target;
  if (::setrlimit(RLIMIT_NOFILE, &lim) != 0) {
    ::getrlimit(RLIMIT_NOFILE, &lim);
  }
  return lim.rlim_cur;
}

}  // namespace aev::testing

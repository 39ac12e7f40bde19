#include "stream/hub.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <spdlog/spdlog.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>

#include "common/errors.h"
#include "common/metrics.h"
#include "events/event.h"

namespace aev::stream {

namespace {
constexpr std::size_t kMaxIov = 64;
constexpr std::size_t kMaxSendBytes = 64 * 1024;
// A round looks for newly committed events after this many subscribers: often enough
// that the rest of a 1,000-subscriber round gets them in the same send, rarely enough
// that the check (one atomic load) costs nothing.
constexpr std::size_t kInboxCheckEvery = 16;
// ... and yields the core after this many (about 0.4 ms of sends at 1,000 subscribers):
// the publish path (HTTP thread, writer) shares the core with the hub, and without a
// yield the next publish waits for the end of the hub's time slice before it can even
// commit, so the round cannot pick it up. sched_yield() returns at once when nothing
// else is runnable.
constexpr std::size_t kYieldEvery = 64;

const std::shared_ptr<const std::string>& keepAliveFrame() {
  static const auto frame = std::make_shared<const std::string>(": keep-alive\n\n");
  return frame;
}
}  // namespace

// Hub::frameOf is in sse_frame.cpp, beside the other bytes a subscriber exchanges.

Hub::Hub(HubOptions options) : options_(options) {}

Hub::~Hub() { stop(); }

void Hub::start() {
  epollFd_ = ::epoll_create1(EPOLL_CLOEXEC);
  wakeFd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (epollFd_ < 0 || wakeFd_ < 0) throw std::runtime_error("stream hub: epoll/eventfd failed");
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = wakeFd_;
  ::epoll_ctl(epollFd_, EPOLL_CTL_ADD, wakeFd_, &ev);
  running_ = true;
  thread_ = std::thread([this] { run(); });
}

void Hub::stop() {
  if (!running_.exchange(false)) return;
  wake();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  dirty_.clear();  // nothing more is sent; spares closeLocked() its search of the list
  std::vector<SubscriptionId> ids;
  for (const auto& [id, _] : subscribers_) ids.push_back(id);
  for (auto id : ids) closeLocked(id);
  ::close(epollFd_);
  ::close(wakeFd_);
}

void Hub::wake() {
  std::uint64_t one = 1;
  [[maybe_unused]] auto n = ::write(wakeFd_, &one, sizeof one);
}

void Hub::checkRoomLocked(std::int64_t orgId) const {
  if (subscribers_.size() >= options_.maxSubscribers)
    throw errors::unavailable("The stream hub is at its subscriber limit.", 5);
  const auto org = streamsPerOrg_.find(orgId);
  if (org != streamsPerOrg_.end() && org->second >= options_.maxSubscribersPerOrg) {
    throw errors::tooManyRequests("This organization already holds " + std::to_string(org->second) +
                                      " open streams, its limit (stream.max_subscribers_per_org); close one first.",
                                  5);
  }
}

void Hub::checkRoom(std::int64_t orgId) const {
  std::lock_guard lock(mutex_);
  checkRoomLocked(orgId);
}

Hub::SubscriptionId Hub::reserve(std::int64_t channelId, store::EventFilter filter, Owner owner) {
  if (watcher_) watcher_->holding(channelId);
  std::lock_guard lock(mutex_);
  try {
    checkRoomLocked(owner.orgId);
  } catch (...) {
    if (watcher_) watcher_->released(channelId);
    throw;
  }
  ++streamsPerOrg_[owner.orgId];
  auto s = std::make_unique<Subscriber>();
  s->id = nextId_++;
  s->channelId = channelId;
  s->filter = std::move(filter);
  s->owner = owner;
  s->lastWrite = std::chrono::steady_clock::now();
  auto* raw = s.get();
  subscribers_[raw->id] = std::move(s);
  auto& list = byChannel_[channelId];
  if (list.empty()) {
    std::lock_guard inboxLock(inboxMutex_);
    listenedChannels_.insert(channelId);
  }
  raw->channelSlot = list.size();
  list.push_back(raw);
  Metrics::instance()
      .counter("agent_events_stream_subscribers", "Open or starting SSE streams.")
      .store(static_cast<std::int64_t>(subscribers_.size()), std::memory_order_relaxed);
  return raw->id;
}

void Hub::activate(SubscriptionId id, Poco::Net::StreamSocket socket, std::int64_t replayedSeq) {
  std::lock_guard lock(mutex_);
  auto it = subscribers_.find(id);
  if (it == subscribers_.end()) {  // its channel was deleted meanwhile
    socket.close();
    return;
  }
  auto& s = *it->second;
  s.socket = socket;
  s.fd = socket.impl()->sockfd();
  s.lastSeq = replayedSeq;
  // Drop what the replay already delivered.
  std::deque<Frame> keep;
  std::size_t bytes = 0;
  for (auto& f : s.queue)
    if (f.seq > replayedSeq) {
      bytes += f.bytes->size();
      keep.push_back(std::move(f));
    }
  s.queue.swap(keep);
  s.queuedBytes = bytes;
  if (!s.queue.empty()) s.lastSeq = s.queue.back().seq;
  socket.setBlocking(false);
  int sndbuf = options_.socketSendBuffer;
  ::setsockopt(s.fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
  int one = 1;
  ::setsockopt(s.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  s.active = true;
  s.lastWrite = std::chrono::steady_clock::now();
  byFd_[s.fd] = &s;
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP;
  ev.data.fd = s.fd;
  ::epoll_ctl(epollFd_, EPOLL_CTL_ADD, s.fd, &ev);
  Metrics::instance().add("agent_events_stream_subscribers_opened_total");
  if (s.doomed) doomed_.push_back(id);  // overflowed while replaying
  markDirtyLocked(s);
  wake();
}

void Hub::cancel(SubscriptionId id) {
  std::lock_guard lock(mutex_);
  closeLocked(id);
}

void Hub::markDirtyLocked(Subscriber& s) {
  if (s.inDirty || !s.active) return;
  s.inDirty = true;
  dirty_.push_back(&s);
}

void Hub::doomLocked(Subscriber& s) {
  if (s.doomed) return;
  s.doomed = true;
  doomed_.push_back(s.id);
}

void Hub::enqueueLocked(Subscriber& s, Frame frame) {
  if (s.doomed) return;
  if (s.queuedBytes + frame.bytes->size() > options_.maxBacklogBytes) {
    // Too far behind: close; the client resumes from its Last-Event-ID.
    doomLocked(s);
    Metrics::instance().add("agent_events_stream_slow_subscribers_closed_total");
    return;
  }
  if (frame.seq > 0) s.lastSeq = frame.seq;
  s.queuedBytes += frame.bytes->size();
  s.queue.push_back(std::move(frame));
}

void Hub::publish(const std::vector<store::StoredEvent>& events) {
  {
    std::lock_guard lock(inboxMutex_);
    const auto before = inbox_.size();
    for (const auto& e : events)
      if (listenedChannels_.count(e.channelId)) inbox_.push_back(e);
    if (inbox_.size() == before) return;
  }
  // Only the publish that finds the flag clear writes the eventfd: until the hub clears
  // it (just before it takes the inbox) a wake-up is already on its way.
  if (!inboxPending_.exchange(true)) wake();
}

void Hub::takeInboxLocked() {
  inboxPending_.store(false);
  {
    std::lock_guard inboxLock(inboxMutex_);
    committed_.swap(inbox_);
  }
  if (committed_.empty()) return;
  fanOutLocked(committed_);
  committed_.clear();  // keeps its capacity for the next swap
}

void Hub::fanOutLocked(const std::vector<store::StoredEvent>& events) {
  for (const auto& e : events) {
    auto it = byChannel_.find(e.channelId);
    if (it == byChannel_.end()) continue;
    std::shared_ptr<const std::string> frame;  // built once, only if someone wants it
    for (auto* s : it->second) {
      if (e.seq <= s->lastSeq || !s->filter.matches(e)) continue;
      if (!frame) frame = std::make_shared<const std::string>(frameOf(e));
      enqueueLocked(*s, Frame{e.seq, frame});
      markDirtyLocked(*s);
    }
  }
}

void Hub::closeChannels(const std::vector<std::int64_t>& channelIds) {
  std::lock_guard lock(mutex_);
  for (auto ch : channelIds) {
    auto it = byChannel_.find(ch);
    if (it == byChannel_.end()) continue;
    std::vector<SubscriptionId> ids;
    for (auto* s : it->second) ids.push_back(s->id);
    for (auto id : ids) closeLocked(id);
  }
}

void Hub::closeOwnedBy(const Revocation& scope) {
  std::lock_guard lock(mutex_);
  std::vector<SubscriptionId> ids;
  for (const auto& [id, s] : subscribers_) {
    const auto& o = s->owner;
    if ((!scope.orgId || o.orgId == *scope.orgId) && (!scope.userId || o.userId == *scope.userId) &&
        (!scope.apiKeyId || o.apiKeyId == *scope.apiKeyId))
      ids.push_back(id);
  }
  for (auto id : ids) closeLocked(id);
}

std::size_t Hub::subscriberCount() const {
  std::lock_guard lock(mutex_);
  return subscribers_.size();
}

void Hub::closeLocked(SubscriptionId id) {
  auto it = subscribers_.find(id);
  if (it == subscribers_.end()) return;
  auto& s = *it->second;
  if (s.inDirty) std::replace(dirty_.begin(), dirty_.end(), &s, static_cast<Subscriber*>(nullptr));
  // Swap-remove: constant time, so closing all of a channel's 10,000 streams (or all of
  // them leaving at once) is linear, not quadratic. Fan-out order within a channel is
  // not a guarantee; each subscriber's own frames stay in order.
  auto& list = byChannel_[s.channelId];
  list[s.channelSlot] = list.back();
  list[s.channelSlot]->channelSlot = s.channelSlot;
  list.pop_back();
  if (list.empty()) {
    byChannel_.erase(s.channelId);
    std::lock_guard inboxLock(inboxMutex_);
    listenedChannels_.erase(s.channelId);
  }
  if (s.fd >= 0) {
    ::epoll_ctl(epollFd_, EPOLL_CTL_DEL, s.fd, nullptr);
    byFd_.erase(s.fd);
    try {
      s.socket.close();
    } catch (...) {
    }
    Metrics::instance().add("agent_events_stream_subscribers_closed_total");
  }
  if (auto org = streamsPerOrg_.find(s.owner.orgId); org != streamsPerOrg_.end() && --org->second == 0)
    streamsPerOrg_.erase(org);
  if (watcher_) watcher_->released(s.channelId);
  subscribers_.erase(it);
  Metrics::instance()
      .counter("agent_events_stream_subscribers", "Open or starting SSE streams.")
      .store(static_cast<std::int64_t>(subscribers_.size()), std::memory_order_relaxed);
}

void Hub::updateInterestLocked(Subscriber& s) {
  const bool want = !s.queue.empty();
  if (want == s.wantWrite) return;
  s.wantWrite = want;
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | (want ? EPOLLOUT : 0u);
  ev.data.fd = s.fd;
  ::epoll_ctl(epollFd_, EPOLL_CTL_MOD, s.fd, &ev);
}

void Hub::flushLocked(Subscriber& s, std::chrono::steady_clock::time_point now) {
  while (!s.queue.empty()) {
    std::size_t bytes = 0;
    ssize_t sent;
    if (s.queue.size() == 1) {
      // The usual case between bursts: one frame, one send() (no msghdr to copy in).
      const std::string& frame = *s.queue.front().bytes;
      bytes = frame.size() - s.headOffset;
      sent = ::send(s.fd, frame.data() + s.headOffset, bytes, MSG_NOSIGNAL | MSG_DONTWAIT);
    } else {
      iovec iov[kMaxIov];
      std::size_t n = 0;
      for (auto it = s.queue.begin(); it != s.queue.end() && n < kMaxIov && bytes < kMaxSendBytes; ++it, ++n) {
        const std::size_t skip = (n == 0) ? s.headOffset : 0;
        iov[n].iov_base = const_cast<char*>(it->bytes->data() + skip);
        iov[n].iov_len = it->bytes->size() - skip;
        bytes += iov[n].iov_len;
      }
      msghdr msg{};
      msg.msg_iov = iov;
      msg.msg_iovlen = n;
      sent = ::sendmsg(s.fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    if (sent < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      if (errno == EINTR) continue;
      doomLocked(s);
      return;
    }
    s.lastWrite = now;
    std::size_t left = static_cast<std::size_t>(sent);
    while (left > 0 && !s.queue.empty()) {
      const std::size_t remaining = s.queue.front().bytes->size() - s.headOffset;
      if (left >= remaining) {
        left -= remaining;
        s.queuedBytes -= s.queue.front().bytes->size();
        s.queue.pop_front();
        s.headOffset = 0;
      } else {
        s.headOffset += left;
        left = 0;
      }
    }
    if (static_cast<std::size_t>(sent) < bytes) break;  // kernel buffer full
  }
  updateInterestLocked(s);
}

void Hub::keepAlivesLocked() {
  const auto now = std::chrono::steady_clock::now();
  for (auto& [id, s] : subscribers_) {
    if (!s->active || s->doomed || !s->queue.empty() || now - s->lastWrite < options_.keepAlive) continue;
    enqueueLocked(*s, Frame{0, keepAliveFrame()});
    flushLocked(*s, now);
  }
}

void Hub::flushDirtyLocked() {
  // One pass over the subscribers dirty when it starts. Between sends it takes newly
  // committed events: a subscriber the pass has not reached yet gets them in this pass
  // (its queue grows, its place stays); one it has passed is marked again at the end of
  // dirty_ and served by the next pass, after the epoll events, so a steady stream of
  // publishes never starves closes, EPOLLOUT or keep-alives.
  const std::size_t pass = dirty_.size();
  auto now = std::chrono::steady_clock::now();
  std::size_t i = 0;
  for (; i < pass; ++i) {
    if (i % kInboxCheckEvery == 0 && i > 0) {
      if (i % kYieldEvery == 0) ::sched_yield();
      if (inboxPending_.load(std::memory_order_relaxed)) takeInboxLocked();
      now = std::chrono::steady_clock::now();
    }
    Subscriber* s = dirty_[i];
    if (!s) continue;  // closed while queued
    s->inDirty = false;
    if (s->active && !s->doomed) flushLocked(*s, now);
  }
  dirty_.erase(dirty_.begin(), dirty_.begin() + static_cast<std::ptrdiff_t>(i));
}

void Hub::run() {
  pthread_setname_np(pthread_self(), "aev-stream-hub");  // for top, perf and bench/
  constexpr int kMaxEvents = 256;
  epoll_event events[kMaxEvents];
  auto lastKeepAliveScan = std::chrono::steady_clock::now();
  bool backlog = false;  // a pass left subscribers dirty: do not sleep
  while (running_) {
    const int n = ::epoll_wait(epollFd_, events, kMaxEvents, backlog ? 0 : 1000);
    // Drain the wake-up counter before taking the inbox: a publish after this point
    // re-arms it, so no queued event waits for the next timeout.
    std::uint64_t counter;
    while (::read(wakeFd_, &counter, sizeof counter) > 0) {
    }
    std::lock_guard lock(mutex_);
    takeInboxLocked();
    const auto now = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) {
      const int fd = events[i].data.fd;
      if (fd == wakeFd_) continue;
      auto it = byFd_.find(fd);
      if (it == byFd_.end()) continue;
      auto& s = *it->second;
      if (events[i].events & (EPOLLERR | EPOLLHUP | EPOLLRDHUP)) {
        doomLocked(s);
      } else if (events[i].events & EPOLLIN) {
        // Subscribers have nothing to say; drain, and notice when they leave.
        char buf[1024];
        for (;;) {
          const ssize_t r = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
          if (r > 0) continue;
          if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) doomLocked(s);
          break;
        }
      }
      if (!s.doomed && (events[i].events & EPOLLOUT)) flushLocked(s, now);
    }
    // Frames queued by publishers.
    flushDirtyLocked();
    backlog = !dirty_.empty();
    if (now - lastKeepAliveScan >= std::chrono::seconds(1)) {
      lastKeepAliveScan = now;
      keepAlivesLocked();
    }
    // Close the doomed (overflowed, errored, gone) on this thread only.
    std::vector<SubscriptionId> doomed;
    doomed.swap(doomed_);
    for (auto id : doomed) {
      auto it = subscribers_.find(id);
      if (it != subscribers_.end() && it->second->active) closeLocked(id);
    }
  }
}

}  // namespace aev::stream

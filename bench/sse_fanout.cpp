// sse_fanout: SSE fan-out load tool for bench/run.sh (single-threaded, epoll, loopback).
//
// Opens N EventSource subscribers on one channel, waits until every one has its
// 200 head, holds them idle (optionally measuring the server's RSS growth per
// subscriber), then publishes M events over one keep-alive HTTP connection. Each event
// body carries its send time (µs, CLOCK_MONOTONIC) in place of the BENCH_TS token of
// the body template; every delivered SSE frame is matched back to it, so the latency
// is receive time minus send time over all N x M deliveries. Per publish it also notes the
// first and the last delivery: first_delivery (publish to the first subscriber's frame: the
// server's path to its first send) and round_span (first to last: the fan-out round).
//
// Closed loop (--rate 0): the next publish goes out as soon as the previous one is
// acknowledged. Paced (--rate R): publish i is due at t0 + i/R (late if the previous
// acknowledgement is late). Comma lists run phases on the same subscribers, e.g.
// "-m 300,150 --rate 0,50": a closed loop of 300, then 150 paced at 50/s. Prints one
// JSON line per phase.
//
// Build: g++ -O2 -std=c++20 -o sse_fanout bench/sse_fanout.cpp
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::int64_t nowUs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "sse_fanout: %s\n", msg.c_str());
  std::exit(2);
}

struct Options {
  std::string host = "127.0.0.1";
  int port = 0;
  int pubPort = 0;  // publish to another server than the subscribers' (default: --port)
  std::string subPath, pubPath, bodyFile, label = "run";
  std::vector<std::string> headers;     // sent on subscribe and publish
  std::vector<std::string> subHeaders;  // subscribe only
  std::vector<std::string> pubHeaders;  // publish only
  int n = 1;
  std::vector<int> ms{100};       // publishes per phase (-m 2000,150)
  std::vector<double> rates{0};   // publishes per second per phase; 0 = closed loop
  int connectWindow = 256;  // subscribers connecting at once
  double settleSecs = 0.5;  // after the last subscriber is up, before measuring/publishing
  double idleSecs = 0;      // extra idle hold before the RSS sample
  double connectTimeout = 120;
  double drainTimeout = 10;  // seconds without a delivery before giving up
  std::vector<int> pids;     // server processes: RSS and CPU
};

long rssKib(int pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  return 0;
}

long rssSum(const std::vector<int>& pids) {
  long t = 0;
  for (int p : pids) t += rssKib(p);
  return t;
}

// utime + stime of a process, all threads, in clock ticks.
long long cpuTicks(int pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto close = s.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream in(s.substr(close + 2));
  std::string tok;
  long long ut = 0, st = 0;
  for (int field = 3; in >> tok; ++field) {
    if (field == 14) ut = std::atoll(tok.c_str());
    if (field == 15) {
      st = std::atoll(tok.c_str());
      break;
    }
  }
  return ut + st;
}

long long cpuSum(const std::vector<int>& pids) {
  long long t = 0;
  for (int p : pids) t += cpuTicks(p);
  return t;
}

// CPU time of every thread of the server processes, in ns (schedstat: finer than the
// clock ticks of /proc/PID/stat, so a short phase still gets a usable per-delivery cost).
std::map<int, long long> threadRuntimes(const std::vector<int>& pids) {
  std::map<int, long long> out;
  for (int p : pids) {
    std::error_code ec;
    for (const auto& task : std::filesystem::directory_iterator("/proc/" + std::to_string(p) + "/task", ec)) {
      std::ifstream f(task.path() / "schedstat");
      long long ns = 0;
      if (f >> ns) out[std::atoi(task.path().filename().c_str())] = ns;
    }
  }
  return out;
}

std::string threadName(int tid) {
  std::ifstream f("/proc/" + std::to_string(tid) + "/comm");  // /proc/TID works for any thread
  std::string name;
  std::getline(f, name);
  return name;
}

// Sum of the threads' CPU between two samples, and the busiest thread's share of it.
struct ThreadCpu {
  double totalMs = 0, busiestMs = 0;
  std::string busiestName;
};
ThreadCpu threadCpuBetween(const std::map<int, long long>& before, const std::map<int, long long>& after) {
  ThreadCpu c;
  int busiest = 0;
  for (const auto& [tid, ns] : after) {
    auto it = before.find(tid);
    const double ms = (ns - (it == before.end() ? 0 : it->second)) / 1e6;
    c.totalMs += ms;
    if (ms > c.busiestMs) {
      c.busiestMs = ms;
      busiest = tid;
    }
  }
  if (busiest) c.busiestName = threadName(busiest);
  return c;
}

double selfCpuSecs() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

int connectTo(const Options& o, int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) die(std::string("socket: ") + std::strerror(errno));
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  if (::inet_pton(AF_INET, o.host.c_str(), &a.sin_addr) != 1) die("bad --host (IPv4 address expected)");
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) < 0 && errno != EINPROGRESS)
    die(std::string("connect: ") + std::strerror(errno));
  return fd;
}

bool writeAll(int fd, const std::string& s) {
  std::size_t off = 0;
  while (off < s.size()) {
    ssize_t w = ::send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
    if (w < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {  // tiny requests: only on a full buffer, wait briefly
        usleep(100);
        continue;
      }
      return false;
    }
    off += static_cast<std::size_t>(w);
  }
  return true;
}

enum class SubState { Connecting, AwaitHead, Streaming, Closed };

struct Sub {
  int fd = -1;
  SubState state = SubState::Connecting;
  std::string buf;  // head, then the unfinished tail of the SSE stream
  std::int64_t delivered = 0;
};

struct Publisher {
  int fd = -1;
  bool awaiting = false;
  std::string buf;
  std::int64_t sentAt = 0;
};

// Index in the epoll data: subscribers are 0..N-1, the publisher is kPubTag.
constexpr std::uint64_t kPubTag = ~0ull;

class Run {
 public:
  explicit Run(Options o) : o_(std::move(o)) {
    std::ifstream f(o_.bodyFile);
    if (!f) die("cannot read --body-file " + o_.bodyFile);
    body_.assign((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    while (!body_.empty() && (body_.back() == '\n' || body_.back() == '\r')) body_.pop_back();
    tsPos_ = body_.find("BENCH_TS");
    if (tsPos_ == std::string::npos) die("the body template has no BENCH_TS token");
    ep_ = epoll_create1(EPOLL_CLOEXEC);
    subs_.resize(static_cast<std::size_t>(o_.n));
  }

  int exec() {
    const long rss0 = rssSum(o_.pids);
    const std::int64_t c0 = nowUs();
    connectAll();
    const std::int64_t c1 = nowUs();
    sleepPumping(o_.settleSecs + o_.idleSecs);
    const long rss1 = rssSum(o_.pids);
    const int connected = countState(SubState::Streaming);

    bool ok = connected == o_.n;
    for (std::size_t phase = 0; phase < o_.ms.size(); ++phase) {
      // Each phase: fresh counters and publisher connection, same subscribers.
      for (auto& s : subs_) s.delivered = 0;
      lat_.clear();
      rounds_.clear();
      published_ = pubFailures_ = 0;
      lastAck_ = lastDelivery_ = 0;
      closedDuringRun_ = 0;
      const int m = o_.ms[phase];
      const double rate = o_.rates[phase];
      const int live = countState(SubState::Streaming);

      runStart_ = nowUs();
      const long long cpu0 = cpuSum(o_.pids);
      const auto threads0 = threadRuntimes(o_.pids);
      const double self0 = selfCpuSecs();
      publishAll(m, rate);
      drain(live);
      const std::int64_t end = lastDelivery_ ? lastDelivery_ : nowUs();
      const long long cpu1 = cpuSum(o_.pids);
      const ThreadCpu threads = threadCpuBetween(threads0, threadRuntimes(o_.pids));
      const double self1 = selfCpuSecs();

      std::int64_t delivered = 0;
      for (auto& s : subs_) delivered += s.delivered;
      const std::int64_t expected = static_cast<std::int64_t>(live) * published_;
      const double pubSecs = std::max(1e-6, (lastAck_ - runStart_) / 1e6);
      const double runSecs = std::max(1e-6, (end - runStart_) / 1e6);
      const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
      auto pct = [&](double q) -> double {
        if (lat_.empty()) return 0;
        auto k = static_cast<std::size_t>(q * static_cast<double>(lat_.size() - 1));
        std::nth_element(lat_.begin(), lat_.begin() + static_cast<long>(k), lat_.end());
        return lat_[k] / 1000.0;
      };
      const double p50 = pct(0.50), p99 = pct(0.99);
      const double maxMs = lat_.empty() ? 0 : *std::max_element(lat_.begin(), lat_.end()) / 1000.0;
      std::vector<double> firstMs, spanMs;
      for (const auto& [sentAt, round] : rounds_) {
        firstMs.push_back((round.first - sentAt) / 1000.0);
        spanMs.push_back((round.last - round.first) / 1000.0);
      }
      auto quantile = [](std::vector<double>& v, double q) -> double {
        if (v.empty()) return 0;
        auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
        std::nth_element(v.begin(), v.begin() + static_cast<long>(k), v.end());
        return v[k];
      };
      std::printf(
          "{\"label\":\"%s\",\"phase\":%zu,\"n\":%d,\"connected\":%d,\"connect_secs\":%.3f,\"m\":%d,"
          "\"published\":%lld,\"publish_failures\":%lld,\"rate\":%.2f,\"publishes_per_sec\":%.1f,"
          "\"expected\":%lld,\"delivered\":%lld,\"closed_during_run\":%d,\"deliveries_per_sec\":%.1f,"
          "\"p50_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f,\"rss_before_kib\":%ld,\"rss_idle_kib\":%ld,"
          "\"rss_per_sub_bytes\":%.0f,\"server_cpu_pct\":%.1f,\"client_cpu_pct\":%.1f,"
          "\"server_cpu_us_per_delivery\":%.3f,\"busiest_thread\":\"%s\",\"busiest_thread_us_per_delivery\":%.3f,"
          "\"first_delivery_p50_ms\":%.3f,\"first_delivery_p99_ms\":%.3f,\"round_span_p50_ms\":%.3f,"
          "\"round_span_p99_ms\":%.3f}\n",
          o_.label.c_str(), phase, o_.n, live, (c1 - c0) / 1e6, m, static_cast<long long>(published_),
          static_cast<long long>(pubFailures_), rate, published_ / pubSecs, static_cast<long long>(expected),
          static_cast<long long>(delivered), closedDuringRun_, delivered / runSecs, p50, p99, maxMs, rss0, rss1,
          connected ? (rss1 - rss0) * 1024.0 / connected : 0.0,
          o_.pids.empty() ? 0.0 : 100.0 * (cpu1 - cpu0) / ticks / runSecs, 100.0 * (self1 - self0) / runSecs,
          delivered ? threads.totalMs * 1000 / delivered : 0.0, threads.busiestName.c_str(),
          delivered ? threads.busiestMs * 1000 / delivered : 0.0, quantile(firstMs, 0.50), quantile(firstMs, 0.99),
          quantile(spanMs, 0.50), quantile(spanMs, 0.99));
      std::fflush(stdout);
      ok = ok && delivered == expected && pubFailures_ == 0;
    }
    return ok ? 0 : 1;
  }

 private:
  int countState(SubState st) const {
    int c = 0;
    for (const auto& s : subs_) c += s.state == st;
    return c;
  }

  std::string subRequest() const {
    std::string r = "GET " + o_.subPath + " HTTP/1.1\r\nHost: " + o_.host + ":" + std::to_string(o_.port) +
                    "\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n";
    for (const auto& h : o_.headers) r += h + "\r\n";
    for (const auto& h : o_.subHeaders) r += h + "\r\n";
    return r + "\r\n";
  }

  void startSub(std::size_t i) {
    auto& s = subs_[i];
    s.fd = connectTo(o_, o_.port);
    s.state = SubState::Connecting;
    epoll_event ev{};
    ev.events = EPOLLOUT | EPOLLIN | EPOLLRDHUP;
    ev.data.u64 = i;
    epoll_ctl(ep_, EPOLL_CTL_ADD, s.fd, &ev);
    ++pending_;
  }

  void closeSub(Sub& s) {
    if (s.state == SubState::Closed) return;
    if (s.state != SubState::Streaming) --pending_;
    if (running_ && s.state == SubState::Streaming) ++closedDuringRun_;
    epoll_ctl(ep_, EPOLL_CTL_DEL, s.fd, nullptr);
    ::close(s.fd);
    s.fd = -1;
    s.state = SubState::Closed;
    s.buf.clear();
    s.buf.shrink_to_fit();
  }

  void connectAll() {
    const std::int64_t deadline = nowUs() + static_cast<std::int64_t>(o_.connectTimeout * 1e6);
    std::size_t next = 0;
    while (nowUs() < deadline) {
      while (next < subs_.size() && pending_ < o_.connectWindow) startSub(next++);
      if (next == subs_.size() && pending_ == 0) break;
      pump(50);
    }
    if (pending_ > 0)
      std::fprintf(stderr, "sse_fanout: %d subscribers still not up after %.0f s\n", pending_, o_.connectTimeout);
  }

  void sleepPumping(double secs) {
    const std::int64_t until = nowUs() + static_cast<std::int64_t>(secs * 1e6);
    while (nowUs() < until) pump(static_cast<int>(std::max<std::int64_t>(1, (until - nowUs()) / 1000)));
  }

  void onSubEvent(std::size_t i, std::uint32_t events) {
    auto& s = subs_[i];
    if (s.state == SubState::Closed) return;
    if (s.state == SubState::Connecting && (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
      int err = 0;
      socklen_t len = sizeof err;
      getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &err, &len);
      if (err != 0) {
        if (!connectErrorShown_) std::fprintf(stderr, "sse_fanout: connect failed: %s\n", std::strerror(err));
        connectErrorShown_ = true;
        closeSub(s);
        return;
      }
      if (!writeAll(s.fd, subRequest())) {
        closeSub(s);
        return;
      }
      s.state = SubState::AwaitHead;
      epoll_event ev{};
      ev.events = EPOLLIN | EPOLLRDHUP;
      ev.data.u64 = i;
      epoll_ctl(ep_, EPOLL_CTL_MOD, s.fd, &ev);
    }
    if (events & EPOLLIN) readSub(s);
    if (s.state != SubState::Closed && (events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) && !(events & EPOLLIN))
      closeSub(s);
  }

  void readSub(Sub& s) {
    char buf[65536];
    for (;;) {
      ssize_t r = ::recv(s.fd, buf, sizeof buf, MSG_DONTWAIT);
      if (r > 0) {
        const std::int64_t t = nowUs();
        s.buf.append(buf, static_cast<std::size_t>(r));
        if (s.state == SubState::AwaitHead) {
          auto end = s.buf.find("\r\n\r\n");
          if (end == std::string::npos) continue;
          if (s.buf.compare(0, 12, "HTTP/1.1 200") != 0 && s.buf.compare(0, 12, "HTTP/1.0 200") != 0) {
            if (!headErrorShown_)
              std::fprintf(stderr, "sse_fanout: subscribe refused: %s\n", s.buf.substr(0, s.buf.find("\r\n")).c_str());
            headErrorShown_ = true;
            closeSub(s);
            return;
          }
          s.buf.erase(0, end + 4);
          s.state = SubState::Streaming;
          --pending_;
        }
        parseFrames(s, t);
        continue;
      }
      if (r == 0) {
        closeSub(s);
        return;
      }
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) closeSub(s);
      return;
    }
  }

  // Counts complete SSE frames ("...\n\n") that carry a bench_ts of this run.
  void parseFrames(Sub& s, std::int64_t t) {
    std::size_t pos = 0;
    for (;;) {
      auto end = s.buf.find("\n\n", pos);
      if (end == std::string::npos) break;
      auto k = s.buf.find("bench_ts\":", pos);
      if (k != std::string::npos && k < end) {
        const std::int64_t sent = std::strtoll(s.buf.c_str() + k + 10, nullptr, 10);
        if (running_ && sent >= runStart_) {
          ++s.delivered;
          lat_.push_back(static_cast<std::uint32_t>(std::min<std::int64_t>(t - sent, UINT32_MAX)));
          auto& round = rounds_[sent];  // keyed by send time: one entry per publish
          round.first = round.first ? std::min(round.first, t) : t;
          round.last = std::max(round.last, t);
          lastDelivery_ = t;
        }
      }
      pos = end + 2;
    }
    if (pos) s.buf.erase(0, pos);
  }

  // --- publisher ---------------------------------------------------------------------
  void openPublisher() {
    pub_.fd = connectTo(o_, o_.pubPort ? o_.pubPort : o_.port);
    // Wait for the connect (loopback: immediate in practice).
    for (int i = 0; i < 2000; ++i) {
      int err = 0;
      socklen_t len = sizeof err;
      getsockopt(pub_.fd, SOL_SOCKET, SO_ERROR, &err, &len);
      if (err) die(std::string("publisher connect: ") + std::strerror(err));
      sockaddr_in peer{};
      socklen_t pl = sizeof peer;
      if (getpeername(pub_.fd, reinterpret_cast<sockaddr*>(&peer), &pl) == 0) break;
      usleep(500);
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP;
    ev.data.u64 = kPubTag;
    epoll_ctl(ep_, EPOLL_CTL_ADD, pub_.fd, &ev);
  }

  void sendPublish() {
    const std::int64_t t = nowUs();
    std::string body = body_;
    body.replace(tsPos_, 8, std::to_string(t));
    std::string req = "POST " + o_.pubPath + " HTTP/1.1\r\nHost: " + o_.host + ":" + std::to_string(o_.port) +
                      "\r\nContent-Type: application/json\r\n";
    for (const auto& h : o_.headers) req += h + "\r\n";
    for (const auto& h : o_.pubHeaders) req += h + "\r\n";
    req += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    if (!writeAll(pub_.fd, req)) die("publisher connection lost");
    pub_.awaiting = true;
    pub_.sentAt = t;
  }

  // True once a whole response is buffered; consumes it.
  bool responseComplete() {
    auto end = pub_.buf.find("\r\n\r\n");
    if (end == std::string::npos) return false;
    std::string head = pub_.buf.substr(0, end);
    std::string lower = head;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    std::size_t bodyLen = 0;
    std::size_t total = 0;
    if (auto cl = lower.find("\r\ncontent-length:"); cl != std::string::npos) {
      bodyLen = std::strtoul(lower.c_str() + cl + 17, nullptr, 10);
      total = end + 4 + bodyLen;
      if (pub_.buf.size() < total) return false;
    } else if (lower.find("transfer-encoding: chunked") != std::string::npos) {
      auto z = pub_.buf.find("\r\n0\r\n\r\n", end);
      if (z == std::string::npos) {
        if (pub_.buf.compare(end + 4, 5, "0\r\n\r\n") != 0) return false;
        total = end + 9;
      } else {
        total = z + 7;
      }
    } else {
      total = end + 4;
    }
    const int status = std::atoi(head.c_str() + 9);
    if (status < 200 || status >= 300) {
      if (pubFailures_ < 3)
        std::fprintf(stderr, "sse_fanout: publish answered %d: %s\n", status,
                     pub_.buf.substr(end + 4, std::min<std::size_t>(300, total - end - 4)).c_str());
      ++pubFailures_;
    }
    pub_.buf.erase(0, total);
    return true;
  }

  void onPubReadable() {
    char buf[16384];
    for (;;) {
      ssize_t r = ::recv(pub_.fd, buf, sizeof buf, MSG_DONTWAIT);
      if (r > 0) {
        pub_.buf.append(buf, static_cast<std::size_t>(r));
        continue;
      }
      if (r == 0) die("publisher connection closed by the server");
      if (errno == EINTR) continue;
      break;
    }
    while (pub_.awaiting && responseComplete()) {
      pub_.awaiting = false;
      ++published_;
      lastAck_ = nowUs();
    }
  }

  void publishAll(int m, double rate) {
    running_ = true;
    if (pub_.fd >= 0) {
      epoll_ctl(ep_, EPOLL_CTL_DEL, pub_.fd, nullptr);
      ::close(pub_.fd);
      pub_ = Publisher{};
    }
    openPublisher();
    runStart_ = nowUs();
    int sent = 0;
    while (published_ < m) {
      if (!pub_.awaiting && sent < m) {
        const std::int64_t due = rate > 0 ? runStart_ + static_cast<std::int64_t>(sent * 1e6 / rate) : 0;
        const std::int64_t now = nowUs();
        if (now >= due) {
          sendPublish();
          ++sent;
        } else {
          pump(static_cast<int>(std::max<std::int64_t>(0, (due - now) / 1000)));
          continue;
        }
      }
      pump(100);
      if (pub_.awaiting && nowUs() - pub_.sentAt > 30000000) die("a publish got no answer in 30 s");
    }
  }

  void drain(int connected) {
    const std::int64_t expected = static_cast<std::int64_t>(connected) * published_;
    std::int64_t lastProgress = nowUs();
    std::int64_t lastCount = -1;
    for (;;) {
      std::int64_t delivered = 0;
      for (auto& s : subs_) delivered += s.delivered;
      if (delivered >= expected) break;
      if (delivered != lastCount) {
        lastCount = delivered;
        lastProgress = nowUs();
      } else if (nowUs() - lastProgress > static_cast<std::int64_t>(o_.drainTimeout * 1e6)) {
        break;
      }
      pump(50);
    }
    running_ = false;
  }

  void pump(int timeoutMs) {
    epoll_event evs[512];
    int n = epoll_wait(ep_, evs, 512, timeoutMs);
    for (int i = 0; i < n; ++i) {
      if (evs[i].data.u64 == kPubTag)
        onPubReadable();
      else
        onSubEvent(evs[i].data.u64, evs[i].events);
    }
  }

  Options o_;
  std::string body_;
  std::size_t tsPos_ = 0;
  int ep_ = -1;
  std::vector<Sub> subs_;
  int pending_ = 0;
  Publisher pub_;
  bool running_ = false;
  std::int64_t runStart_ = 0, lastAck_ = 0, lastDelivery_ = 0;
  std::int64_t published_ = 0, pubFailures_ = 0;
  int closedDuringRun_ = 0;
  bool connectErrorShown_ = false, headErrorShown_ = false;
  std::vector<std::uint32_t> lat_;
  // Per publish (by its send time): the first and the last delivery, to split latency into
  // "until the server starts sending" and "the length of its round".
  struct Round {
    std::int64_t first = 0, last = 0;
  };
  std::map<std::int64_t, Round> rounds_;
};

template <typename T, typename F>
std::vector<T> splitList(const std::string& text, F convert) {
  std::vector<T> out;
  std::size_t start = 0;
  for (;;) {
    auto comma = text.find(',', start);
    out.push_back(convert(text.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

void usage() {
  std::fprintf(stderr,
               "usage: sse_fanout --port P [--pub-port P2] --sub PATH --pub PATH --body-file F [-n N] [-m M[,M2...]] "
               "[--rate R[,R2...]]\n"
               "  [--host 127.0.0.1] [--header 'K: V']... [--sub-header 'K: V']... [--pub-header 'K: V']...\n"
               "  [--pid PID]... [--label L] [--connect-window W] [--settle S] [--idle S] [--drain-timeout S]\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) usage();
      return argv[++i];
    };
    if (a == "--host") o.host = val();
    else if (a == "--port") o.port = std::atoi(val().c_str());
    else if (a == "--pub-port")
      o.pubPort = std::atoi(val().c_str());
    else if (a == "--sub") o.subPath = val();
    else if (a == "--pub") o.pubPath = val();
    else if (a == "--body-file") o.bodyFile = val();
    else if (a == "--header") o.headers.push_back(val());
    else if (a == "--sub-header") o.subHeaders.push_back(val());
    else if (a == "--pub-header") o.pubHeaders.push_back(val());
    else if (a == "-n") o.n = std::atoi(val().c_str());
    else if (a == "-m") o.ms = splitList<int>(val(), [](const std::string& v) { return std::atoi(v.c_str()); });
    else if (a == "--rate") o.rates = splitList<double>(val(), [](const std::string& v) { return std::atof(v.c_str()); });
    else if (a == "--pid") o.pids.push_back(std::atoi(val().c_str()));
    else if (a == "--label") o.label = val();
    else if (a == "--connect-window") o.connectWindow = std::atoi(val().c_str());
    else if (a == "--settle") o.settleSecs = std::atof(val().c_str());
    else if (a == "--idle") o.idleSecs = std::atof(val().c_str());
    else if (a == "--drain-timeout") o.drainTimeout = std::atof(val().c_str());
    else if (a == "--connect-timeout") o.connectTimeout = std::atof(val().c_str());
    else usage();
  }
  if (o.rates.size() == 1 && o.ms.size() > 1) o.rates.resize(o.ms.size(), o.rates[0]);
  if (!o.port || o.subPath.empty() || o.pubPath.empty() || o.bodyFile.empty() || o.n < 0 || o.ms.empty() ||
      o.ms.size() != o.rates.size() || *std::min_element(o.ms.begin(), o.ms.end()) < 1)
    usage();
  rlimit rl{};
  getrlimit(RLIMIT_NOFILE, &rl);
  if (rl.rlim_cur < static_cast<rlim_t>(o.n) + 64) {
    rl.rlim_cur = std::min<rlim_t>(rl.rlim_max, static_cast<rlim_t>(o.n) + 1024);
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  return Run(std::move(o)).exec();
}

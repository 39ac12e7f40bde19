// Streams under load and across restarts (docs/architecture.md#the-stream-hub; docs/api.md#streaming-and-resume), and
// publishing under faults (shared/reference/reliability-checklist.md, F7 and G1-G4):
// - 2,000 concurrent subscribers on one channel all receive each event;
// - a subscriber that never reads is disconnected at its backlog cap while the others and
//   the publisher carry on;
// - a daemon stopped or killed (SIGKILL) mid-stream, then a resume: nothing lost;
// - SIGKILL under busy publishers keeps every acknowledged event, batches whole;
// - a failed fdatasync or a full disk is a 503 whose events never come back;
// - a PostgreSQL crash is a 503 until it is back, then the daemon reconnects.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "events_support.h"
#include "support/backend.h"
#include "support/batch_results.h"
#include "support/postgres_server.h"
#include "support/process.h"

namespace aev::testing {
namespace {

Headers auth(const Tenant& t) { return {{"Authorization", t.bearer()}}; }

// The value of a metric line "<name> <value>" in GET /metrics (public on loopback).
std::optional<double> metric(int port, const std::string& name) {
  auto r = HttpClient("127.0.0.1", port).get("/metrics");
  if (r.status != 200) return std::nullopt;
  std::istringstream lines(r.body);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(name + " ", 0) == 0) return std::stod(line.substr(name.size() + 1));
  }
  return std::nullopt;
}

// Polls /metrics until pred(value) holds; returns the last value seen.
std::optional<double> awaitMetric(int port, const std::string& name, const std::function<bool(double)>& pred,
                                  std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::optional<double> v;
  for (;;) {
    v = metric(port, name);
    if ((v && pred(*v)) || std::chrono::steady_clock::now() >= deadline) return v;
    std::this_thread::sleep_for(50ms);  // polling an HTTP gauge: nothing to block on
  }
}

// ---------------------------------------------------------------- fan-out

class FanOutApi : public EventsTest {};

TEST_F(FanOutApi, TwoThousandConcurrentSubscribersAllReceiveEveryEvent) {
  constexpr std::size_t kSubscribers = 2000;
  auto t = newTenant("fanout");
  const auto ch = newChannel(t);
  auto key = createKey(t, {"subscribe"});

  SsePool pool("127.0.0.1", daemon().port());
  // Half with the session, half with an API key.
  const auto opened = std::chrono::steady_clock::now();
  ASSERT_EQ(pool.open(kSubscribers / 2, subscribePath(ch), auth(t), 128, 90s), "");
  ASSERT_EQ(pool.open(kSubscribers / 2, subscribePath(ch), {{"X-API-Key", key.key}}, 128, 90s), "");
  const auto setupMs = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - opened);
  std::cout << "[ fan-out  ] " << kSubscribers << " streams set up in " << setupMs.count() << " ms" << std::endl;
  ASSERT_EQ(pool.size(), kSubscribers);
  auto gauge = metric(daemon().port(), "agent_events_stream_subscribers");
  ASSERT_TRUE(gauge);
  EXPECT_EQ(*gauge, static_cast<double>(kSubscribers));

  std::vector<std::int64_t> ids;
  for (int i = 0; i < 3; ++i) {
    const auto started = std::chrono::steady_clock::now();
    ids.push_back(intField(publish(t.http, ch, "broadcast", obj({{"i", i}})), "id"));
    EXPECT_LT(std::chrono::steady_clock::now() - started, 2s) << "publishing slowed down by 2,000 subscribers";
  }
  auto everyoneHasAll = [&] {
    for (const auto& s : pool.streams())
      if (s->messageCount() < ids.size()) return false;
    return true;
  };
  const auto fanned = std::chrono::steady_clock::now();
  const bool all = pool.pumpUntil(everyoneHasAll, 30s);
  std::cout << "[ fan-out  ] delivered in "
            << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - fanned).count()
            << " ms" << std::endl;
  std::size_t complete = 0, closed = 0;
  std::string firstBad;
  for (const auto& s : pool.streams()) {
    std::vector<SseMessage> got(s->parser().messages.begin(), s->parser().messages.end());
    const bool ok = idsOf(got) == ids && !s->closed();
    complete += ok;
    closed += s->closed();
    if (!ok && firstBad.empty()) firstBad = s->describe();
  }
  EXPECT_TRUE(all);
  EXPECT_EQ(complete, kSubscribers) << closed << " closed; first incomplete: " << firstBad;

  // Leaving is noticed: the hub drops every closed stream.
  pool.streams().clear();
  auto after = awaitMetric(
      daemon().port(), "agent_events_stream_subscribers", [](double v) { return v == 0; }, 15s);
  EXPECT_TRUE(after && *after == 0) << "subscribers still counted after they left: " << (after ? *after : -1);
}

// ---------------------------------------------------------------- slow subscriber

class SlowSubscriberApi : public EventsTest {
 public:
  static void SetUpTestSuite() { startDaemon(options({{"stream.max_backlog_bytes", "65536"}})); }
};

TEST_F(SlowSubscriberApi, AReaderThatStallsIsCutOffWithoutSlowingOthers) {
  auto t = newTenant("slow");
  const auto ch = newChannel(t);
  // A tiny receive window, and it never reads past its head.
  auto slow = subscribe(subscribePath(ch), auth(t), 4096);
  auto normal = subscribe(subscribePath(ch), auth(t));
  ASSERT_TRUE(IsStreamOpen(*slow));
  ASSERT_TRUE(IsStreamOpen(*normal));
  const double closedBefore = metric(daemon().port(), "agent_events_stream_slow_subscribers_closed_total").value_or(0);

  constexpr int kEvents = 60;  // 60 × 32 KiB: far more than socket buffers + the 64 KiB backlog
  const std::string big(32 * 1024, 'x');
  std::vector<std::int64_t> ids;
  auto slowest = 0ms;
  for (int i = 0; i < kEvents; ++i) {
    const auto started = std::chrono::steady_clock::now();
    ids.push_back(intField(publish(t.http, ch, "big", obj({{"i", i}, {"blob", big}})), "id"));
    slowest = std::max(
        slowest, std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started));
    // The reading subscriber keeps up, event by event.
    auto got = normal->take(1, kWait);
    ASSERT_EQ(idsOf(got), std::vector<std::int64_t>{ids.back()}) << "event " << i << ": " << normal->describe();
  }
  EXPECT_LT(slowest, 2000ms) << "a publish waited for the stalled subscriber";
  EXPECT_FALSE(normal->closed()) << normal->describe();

  // The stalled one was disconnected: reading now yields what was in flight, then the end.
  EXPECT_TRUE(slow->waitClosed(kWait)) << "the stalled subscriber is still connected: " << slow->describe();
  std::vector<SseMessage> got(slow->parser().messages.begin(), slow->parser().messages.end());
  auto slowIds = idsOf(got);
  EXPECT_LT(slowIds.size(), ids.size()) << "it got everything, so it was not cut off";
  EXPECT_EQ(slowIds, std::vector<std::int64_t>(ids.begin(),
                                               ids.begin() + static_cast<long>(std::min(slowIds.size(), ids.size()))))
      << "what it did get is not a prefix of the stream";
  auto closedAfter = awaitMetric(
      daemon().port(), "agent_events_stream_slow_subscribers_closed_total", [&](double v) { return v > closedBefore; },
      5s);
  EXPECT_TRUE(closedAfter && *closedAfter > closedBefore);

  // It resumes from its last id and catches up.
  Headers h = auth(t);
  if (!slowIds.empty()) h.emplace_back("Last-Event-ID", std::to_string(slowIds.back()));
  auto resumed = subscribe(subscribePath(ch, slowIds.empty() ? "last_event_id=0" : ""), h);
  ASSERT_TRUE(IsStreamOpen(*resumed));
  auto rest = readThrough(*resumed, ids.back(), 20s);
  std::vector<std::int64_t> all = slowIds;
  for (const auto& m : rest)
    if (m.event.empty()) all.push_back(m.numericId());
  EXPECT_EQ(all, ids) << resumed->describe();

  // Publishing is still quick and the normal subscriber still receives.
  const auto last = intField(publish(t.http, ch, "after"), "id");
  EXPECT_EQ(idsOf(normal->take(1, kWait)), std::vector<std::int64_t>{last});
}

// ---------------------------------------------------------------- restart

class RestartApi : public EventsTest {
 protected:
  void resumeAcrossARestart(bool kill);

  // Every event of a channel, oldest first: id → identifier (an id listed twice fails).
  static std::map<std::int64_t, std::string> listedEvents(const HttpClient& http, std::int64_t channelId) {
    std::map<std::int64_t, std::string> events;
    for (auto& [id, identifier] : listEvents(http, channelId))
      if (!events.emplace(id, std::move(identifier)).second) ADD_FAILURE() << "event " << id << " is listed twice";
    return events;
  }
  // The identifiers of a channel's events, newest first.
  static std::vector<std::string> listedIdentifiers(const HttpClient& http, std::int64_t channelId) {
    std::vector<std::string> identifiers;
    for (auto& [id, identifier] : listEvents(http, channelId)) identifiers.push_back(std::move(identifier));
    return identifiers;
  }
  // A single publish ("failed-single") and a batch ("failed-batch-0..2") are both 503
  // problems with Retry-After: 1.
  static void expectPublishesRefused(const Tenant& t, std::int64_t ch) {
    auto single = t.http.post("/event", eventBody(ch, "failed-single"));
    EXPECT_TRUE(IsProblem(single, 503)) << single.describe();
    EXPECT_EQ(single.header("Retry-After"), "1");
    Poco::JSON::Array::Ptr events = new Poco::JSON::Array;
    for (int i = 0; i < 3; ++i) events->add(eventBody(ch, "failed-batch-" + std::to_string(i)));
    auto batch = t.http.post("/events/batch", obj({{"events", events}}));
    EXPECT_TRUE(IsProblem(batch, 503)) << batch.describe();
    EXPECT_EQ(batch.header("Retry-After"), "1");
  }
};

// A subscriber, events published before and while the daemon goes down (stopped, or
// killed with SIGKILL), more after it is back: the subscriber resumes with its
// Last-Event-ID and receives every acknowledged event once, in order, then live ones.
void RestartApi::resumeAcrossARestart(bool kill) {
  auto t = newTenant("restart");
  const auto ch = newChannel(t);
  auto key = createKey(t, {"subscribe", "publish"});
  auto s = subscribe(subscribePath(ch), auth(t));
  ASSERT_TRUE(IsStreamOpen(*s));
  auto published = publishMany(t.http, ch, 3, "before");
  ASSERT_EQ(idsOf(s->take(3, kWait)), published) << s->describe();
  // More events, and the daemon goes down while they may still be on their way.
  auto inFlight = publishMany(t.http, ch, 4, "in-flight");
  published.insert(published.end(), inFlight.begin(), inFlight.end());

  if (kill) {
    daemon().kill();
  } else {
    auto status = daemon().stop();
    EXPECT_TRUE(status.exited && status.code == 0) << status.describe();
  }
  EXPECT_TRUE(s->waitClosed(kWait)) << "the stream outlived the daemon: " << s->describe();
  std::vector<std::int64_t> received = published;
  received.resize(3);
  for (const auto& m : s->parser().messages) received.push_back(m.numericId());
  ASSERT_GE(received.size(), 3u);

  ASSERT_NO_THROW(daemon().start());
  // Published after the restart, before the subscriber is back.
  auto after = publishMany(t.http, ch, 3, "after");
  published.insert(published.end(), after.begin(), after.end());

  Headers h = {{"X-API-Key", key.key}, {"Last-Event-ID", std::to_string(received.back())}};
  auto resumed = subscribe(subscribePath(ch), h);
  ASSERT_TRUE(IsStreamOpen(*resumed));
  for (const auto& m : readThrough(*resumed, published.back())) {
    EXPECT_EQ(m.event, "") << m.raw;
    received.push_back(m.numericId());
  }
  EXPECT_EQ(received, published) << "received " << joinIds(received) << "\npublished " << joinIds(published);
  // And it is live again.
  const auto live = intField(publish(t.http, ch, "live"), "id");
  EXPECT_EQ(idsOf(resumed->take(1, kWait)), std::vector<std::int64_t>{live}) << resumed->describe();
  EXPECT_EQ(listTotal(t.http, ch), static_cast<std::int64_t>(published.size()) + 1);
}

TEST_F(RestartApi, ResumeAfterADaemonRestartLosesNothing) { resumeAcrossARestart(/*kill=*/false); }

TEST_F(RestartApi, ResumeAfterADaemonKillLosesNothing) { resumeAcrossARestart(/*kill=*/true); }

// "Acknowledged means durable" (reliability checklist G1): 8 publishers, single events and
// batches on their own connections (so commits are shared), keep going while the daemon is
// killed with SIGKILL at a random moment, with no chance to flush or close anything; five
// times. In the end every acknowledged event is listed exactly once, each batch is there
// whole or not at all, and nothing is there that more than the requests in flight at each
// kill could explain.
TEST_F(RestartApi, EveryAcknowledgedPublishSurvivesKillsMidPublish) {
  auto t = newTenant("kill");
  const auto ch = newChannel(t);
  constexpr int kSingles = 4, kBatchers = 4, kBatchSize = 10, kCycles = 5;
  std::mt19937 random(std::random_device{}());
  std::set<std::int64_t> acknowledged;
  std::set<std::string> batches;  // identifier prefix of every batch sent
  std::size_t inFlightBound = 0;
  for (int cycle = 0; cycle < kCycles; ++cycle) {
    const int killAfter = std::uniform_int_distribution<int>(50, 400)(random);
    std::atomic<int> count{0};
    std::mutex mutex;
    std::vector<std::thread> publishers;
    for (int p = 0; p < kSingles + kBatchers; ++p) {
      publishers.emplace_back([&, p] {
        try {
          for (int i = 0;; ++i) {
            const auto name = "c" + std::to_string(cycle) + "-p" + std::to_string(p) + "-" + std::to_string(i);
            if (p < kSingles) {
              auto r = t.http.post("/event", eventBody(ch, name));
              if (r.status != 201) return;
              std::lock_guard lock(mutex);
              acknowledged.insert(intField(r.object(), "id"));
              ++count;
              continue;
            }
            Poco::JSON::Array::Ptr events = new Poco::JSON::Array;
            for (int k = 0; k < kBatchSize; ++k) events->add(eventBody(ch, name + "-" + std::to_string(k)));
            {
              std::lock_guard lock(mutex);
              batches.insert(name + "-");
            }
            auto r = t.http.post("/events/batch", obj({{"events", events}}));
            if (r.status != 200) return;
            for (const auto& result : objects(r.object()->getArray("results"))) {
              if (!isStoredEvent(result)) return;
              std::lock_guard lock(mutex);
              acknowledged.insert(intField(result, "id"));
              ++count;
            }
          }
        } catch (const std::exception&) {
          // The daemon died under this request: it was never acknowledged.
        }
      });
    }
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    while (count < killAfter && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
    daemon().kill();
    for (auto& thread : publishers) thread.join();
    ASSERT_GE(count.load(), killAfter) << "cycle " << cycle << ": the publishers were too slow to test anything";
    inFlightBound += kSingles + kBatchers * kBatchSize;
    ASSERT_NO_THROW(daemon().start());
  }

  const auto listed = listedEvents(t.http, ch);
  std::size_t missing = 0;
  for (const auto id : acknowledged)
    if (!listed.count(id)) ++missing;
  EXPECT_EQ(missing, 0u) << missing << " of " << acknowledged.size() << " acknowledged events were lost";
  EXPECT_LE(listed.size(), acknowledged.size() + inFlightBound);
  std::map<std::string, int> present;  // batch prefix → its events listed
  for (const auto& [id, identifier] : listed) {
    const auto dash = identifier.rfind('-');
    const auto prefix = identifier.substr(0, dash + 1);
    if (batches.count(prefix)) ++present[prefix];
  }
  EXPECT_FALSE(present.empty()) << "no batch was stored: the check below would be empty";
  for (const auto& [prefix, n] : present) EXPECT_EQ(n, kBatchSize) << "batch " << prefix << " is there in part";
  // And the channel takes publishes again, after the highest id it had.
  const auto next = intField(publish(t.http, ch, "after-kill"), "id");
  EXPECT_GT(next, listed.rbegin()->first);
}

// True once every thread of `pid` has a tracer (strace -f attaches them one by one).
bool everyThreadTraced(pid_t pid) {
  std::error_code ec;
  int threads = 0;
  for (const auto& task : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
    const auto status = readFile(task.path().string() + "/status");
    const auto at = status.find("TracerPid:");
    if (at == std::string::npos || std::stol(status.substr(at + 10)) == 0) return false;
    ++threads;
  }
  return !ec && threads > 0;
}

// strace attached to the daemon (every thread), failing the named system calls with
// `error` until stop(). skipReason() is not empty when strace is missing or cannot attach
// here (no ptrace): the test then skips.
class SyscallFaults {
 public:
  SyscallFaults(pid_t pid, const std::string& calls, const std::string& error) : dir_("aev-strace") {
    if (!runCommand({"strace", "-V"}, 10s).ok()) {
      skip_ = "strace is not installed (scripts/deps.sh)";
      return;
    }
    tracer_ = spawnProcess({"strace", "-f", "-qq", "-p", std::to_string(pid), "-e", "trace=" + calls, "-e",
                            "inject=" + calls + ":error=" + error, "-o", dir_.file("trace.txt")},
                           dir_.file("strace.log"));
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    while (!everyThreadTraced(pid)) {
      if (pollExit(tracer_)) {
        tracer_ = -1;
        skip_ = "strace cannot attach here: " + readFile(dir_.file("strace.log"));
        return;
      }
      if (std::chrono::steady_clock::now() > deadline) {
        stop();
        skip_ = "strace did not attach to every thread in time: " + readFile(dir_.file("strace.log"));
        return;
      }
      std::this_thread::sleep_for(10ms);
    }
  }
  ~SyscallFaults() { stop(); }
  SyscallFaults(const SyscallFaults&) = delete;
  SyscallFaults& operator=(const SyscallFaults&) = delete;

  const std::string& skipReason() const { return skip_; }
  void stop() {
    if (tracer_ <= 0) return;
    ::kill(tracer_, SIGINT);  // detaches, and the calls succeed again
    if (!waitExit(tracer_, kWait)) {
      ::kill(tracer_, SIGKILL);
      waitExit(tracer_, kWait);
    }
    tracer_ = -1;
  }

 private:
  TempDir dir_;
  pid_t tracer_ = -1;
  std::string skip_;
};

// "An fsync or I/O error becomes a 5xx, never a 2xx" (reliability checklist G3), on
// SQLite: strace makes every fdatasync of the daemon fail with EIO. The publishes are 503
// problems with Retry-After. Their frames are still in the page cache, so a restart of the
// process before the next commit would recover them as committed, unless the store
// makes them unrecoverable (store/sqlite_wal_coalescer.h): after a SIGKILL and a restart,
// none of them is listed.
TEST_F(RestartApi, AFailedFsyncIsA503AndItsEventsNeverComeBack) {
  if (currentBackend() != Backend::SQLite) GTEST_SKIP() << "injects faults into SQLite's fdatasync";
  auto t = newTenant("eio");
  const auto ch = newChannel(t);
  const auto before = intField(publish(t.http, ch, "before"), "id");

  SyscallFaults faults(daemon().pid(), "fdatasync,fsync", "EIO");
  if (!faults.skipReason().empty()) GTEST_SKIP() << faults.skipReason();
  expectServerErrors(2);
  expectPublishesRefused(t, ch);
  // Reads need no fsync: the daemon still answers them.
  EXPECT_STATUS(t.http.get("/event/" + std::to_string(ch) + "/list"), 200);

  faults.stop();
  daemon().kill();  // at once, before any later commit writes over the failed frames
  ASSERT_NO_THROW(daemon().start());
  EXPECT_EQ(listedIdentifiers(t.http, ch), std::vector<std::string>{"before"});
  EXPECT_GT(intField(publish(t.http, ch, "after"), "id"), before);
}

// A full disk (reliability checklist G4), on SQLite: strace makes every pwrite fail with
// ENOSPC. Publishes are 503 problems and store nothing; reads go on; once space is back,
// publishing resumes without a restart, and the database opens cleanly after one.
TEST_F(RestartApi, AFullDiskIsA503AndPublishingResumesWhenSpaceIsBack) {
  if (currentBackend() != Backend::SQLite) GTEST_SKIP() << "injects faults into SQLite's writes";
  auto t = newTenant("full");
  const auto ch = newChannel(t);
  publish(t.http, ch, "before");

  SyscallFaults faults(daemon().pid(), "pwrite64", "ENOSPC");
  if (!faults.skipReason().empty()) GTEST_SKIP() << faults.skipReason();
  expectServerErrors(2);
  expectPublishesRefused(t, ch);
  EXPECT_EQ(listedIdentifiers(t.http, ch), std::vector<std::string>{"before"});

  faults.stop();
  publish(t.http, ch, "after");
  EXPECT_EQ(listedIdentifiers(t.http, ch), (std::vector<std::string>{"after", "before"}));
  const auto status = daemon().restart();
  EXPECT_TRUE(status.exited && status.code == 0) << status.describe();
  EXPECT_EQ(listedIdentifiers(t.http, ch), (std::vector<std::string>{"after", "before"}));
}

// A PostgreSQL crash (reliability checklist G2). This suite's daemon has a PostgreSQL
// server of its own, which the test stops with `pg_ctl stop -m immediate`. While it is
// down, publishes and reads are 503 problems and /readyz says 503. Once it is back the
// daemon reconnects by itself: the event acknowledged before is there, none of the
// refused ones, and publishing works again within a few attempts.
class PostgresOutageApi : public RestartApi {
 public:
  static void SetUpTestSuite() {
    if (currentBackend() != Backend::PostgreSQL) return startDaemon();
    server_ = std::make_unique<PostgresServer>(/*durableCommits=*/true);
    DaemonOptions options;
    options.databaseUrl = server_->createDatabase();
    startDaemon(options);
  }
  static void TearDownTestSuite() {
    stopDaemon();
    server_.reset();
  }

 protected:
  static inline std::unique_ptr<PostgresServer> server_;
};

TEST_F(PostgresOutageApi, PostgreSQLDownIsA503AndTheDaemonReconnects) {
  if (currentBackend() != Backend::PostgreSQL) GTEST_SKIP() << "stops the daemon's PostgreSQL server";
  auto t = newTenant("pgdown");
  const auto ch = newChannel(t);
  publish(t.http, ch, "before");

  server_->crash();
  // 2 publishes, a read, /readyz; then after the restart, the attempts that still meet a
  // connection the crash cut (each lost connection empties the idle pool).
  expectServerErrors(4, 20);
  expectPublishesRefused(t, ch);
  auto list = t.http.get("/event/" + std::to_string(ch) + "/list");
  EXPECT_TRUE(IsProblem(list, 503)) << list.describe();
  EXPECT_EQ(anon().get("/readyz").status, 503);

  server_->startAgain();
  int attempts = 0;
  HttpResult after;
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  do {
    ++attempts;
    after = t.http.post("/event", eventBody(ch, "after"));
    if (after.status != 503) break;
    std::this_thread::sleep_for(50ms);
  } while (std::chrono::steady_clock::now() < deadline);
  ASSERT_STATUS(after, 201);
  EXPECT_LE(attempts, 3) << "the pool kept handing out connections the crash had cut";
  EXPECT_EQ(listedIdentifiers(t.http, ch), (std::vector<std::string>{"after", "before"}));
  EXPECT_EQ(anon().get("/readyz").status, 200);
}

}  // namespace
}  // namespace aev::testing

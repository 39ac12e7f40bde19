#pragma once
// Three agent-eventsd nodes on one PostgreSQL, as one service: the harness of the
// cluster tests. Each test starts its own PostgreSQL (durable commits: some tests
// crash it) and its own nodes, so a fault injected by one test touches no other.
//
// The workload: publishers on every node into 20 channels of 2 organizations; on
// every node one SSE subscriber per channel, each resuming with Last-Event-ID (on the
// next live node when its own is gone). The store is the oracle: when the publishers
// are done, every subscriber must have received each channel's events exactly once,
// in seq order, with the store's ids.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/postgres_server.h"
#include "support/sse_client.h"

namespace aev::testing::cluster {

using namespace std::chrono_literals;

struct Account {
  std::int64_t userId = 0;
  std::int64_t orgId = 0;
  std::string username;
  std::string password;
  std::string accessToken;   // issued by node 0
  std::string refreshToken;  // issued by node 0
  std::vector<std::int64_t> channels;
};

// Properties every node gets (cluster.wakeup, ...).
using Settings = std::map<std::string, std::string>;

class Cluster {
 public:
  explicit Cluster(Settings settings = {}, std::size_t nodes = 3);
  ~Cluster();

  PostgresServer& pg() { return *pg_; }
  const std::string& databaseName() const { return dbName_; }
  std::string sql(const std::string& statement) { return pg_->psql(dbName_, statement); }
  std::size_t size() const { return nodes_.size(); }
  DaemonProcess& node(std::size_t i) { return *nodes_.at(i); }
  bool alive(std::size_t i) const { return alive_.at(i).load(); }
  void kill(std::size_t i);  // kill -9
  HttpClient client(std::size_t i, const std::string& bearer) const;

  // Registers two users (personal organizations) on node 0 and makes `channelsPerOrg`
  // channels in each (on node 1, so creation crosses nodes too).
  void setUp(std::size_t channelsPerOrg = 10);
  std::vector<Account>& accounts() { return accounts_; }
  const Account& accountOf(std::int64_t channel) const;

  // channel -> ids in seq order, from the store.
  std::map<std::int64_t, std::vector<std::int64_t>> storedIds();

 private:
  std::unique_ptr<PostgresServer> pg_;
  std::string dbName_;
  std::string url_;
  std::vector<std::unique_ptr<DaemonProcess>> nodes_;
  std::vector<std::atomic<bool>> alive_;
  std::vector<Account> accounts_;
};

// Publishers: `perNode` threads on every live node, each publishing `eventsEach` events
// into random channels (of one organization's account each); a refused or failed publish
// is retried later on the next live node. Counts the 201s.
class Publishers {
 public:
  Publishers(Cluster& cluster, std::vector<std::int64_t> channels, std::size_t perNode, std::size_t eventsEach);
  ~Publishers();
  void start();
  void join();
  std::size_t published() const { return published_.load(); }
  std::size_t failures() const { return failures_.load(); }

 private:
  void run(std::size_t home, std::size_t index);
  Cluster& cluster_;
  std::vector<std::int64_t> channels_;
  std::size_t perNode_;
  std::size_t eventsEach_;
  std::atomic<std::size_t> published_{0};
  std::atomic<std::size_t> failures_{0};
  std::vector<std::thread> threads_;
};

// Resuming SSE subscribers driven by one thread.
class Subscribers {
 public:
  explicit Subscribers(Cluster& cluster) : cluster_(cluster) {}
  ~Subscribers();
  // One subscriber on `node` for `channel`; its stream is open (head and retry
  // received) when this returns.
  void add(std::size_t node, std::int64_t channel);
  void start();
  void stop();
  // Waits until every subscriber has received, for its channel, the store's last id.
  bool waitCaughtUp(const std::map<std::int64_t, std::vector<std::int64_t>>& stored, std::chrono::milliseconds timeout);
  // Every subscriber's ids equal its channel's stored ids (all of them: the
  // subscribers start before the first publish). Describes each difference.
  ::testing::AssertionResult exact(const std::map<std::int64_t, std::vector<std::int64_t>>& stored);
  std::size_t reconnects() const { return reconnects_.load(); }
  std::size_t size() const { return subs_.size(); }

 private:
  struct Sub {
    std::size_t node = 0;
    std::int64_t channel = 0;
    std::string bearer;
    std::unique_ptr<SseStream> stream;
    std::vector<std::int64_t> ids;
    std::vector<std::string> anomalies;  // reset events, unparsable ids
    // Reconnected before its first event: with no Last-Event-ID to send (as an
    // EventSource) it starts live, so its events begin wherever the new stream does.
    bool resumedWithoutId = false;
    std::chrono::steady_clock::time_point retryAt{};
  };
  void open(Sub& s);
  void drain(Sub& s);
  void run();
  Cluster& cluster_;
  std::vector<std::unique_ptr<Sub>> subs_;
  std::mutex mutex_;  // guards ids/anomalies against the checking thread
  std::atomic<bool> stopping_{false};
  std::atomic<std::size_t> reconnects_{0};
  std::thread thread_;
};

}  // namespace aev::testing::cluster

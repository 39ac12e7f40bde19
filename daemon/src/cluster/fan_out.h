#pragma once
// Live fan-out across the nodes that share one PostgreSQL (ARCHITECTURE.md, "Scaling
// out"): the store carries the events and their position (per-channel seq); a doorbell
// (cluster/doorbell.h) only wakes the other nodes; a poll of the held channels' last_seq
// is the safety net for every lost doorbell (a node restarted, the LISTEN connection cut,
// PostgreSQL restarted: its notification queue is gone). Each node then reads, in one
// statement per round, the new events of only the channels its subscribers hold, by seq
// (never by global id: ids commit out of order across channels), and hands them to the
// contiguity gate (cluster/contiguity_gate.h) in front of the hub.
//
//   writer (after commit, events/after_commit.h) --> committed() --> gate --> hub
//                                        \--> doorbell --> other nodes' LISTEN
//   LISTEN (doorbell) / poll timer --> catch-up thread: read ranges --> gate --> hub
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cluster/contiguity_gate.h"
#include "cluster/doorbell.h"
#include "events/after_commit.h"
#include "store/channel_positions.h"
#include "store/database.h"
#include "stream/hub.h"

namespace aev::cluster {

enum class Wakeup { Notify, Poll };

struct FanOutOptions {
  Wakeup wakeup = Wakeup::Notify;
  // The poll of held channels: the only wake-up in poll mode, the safety net with notify
  // (and a quarter of it, at most 250 ms, while the LISTEN connection is down).
  std::chrono::milliseconds pollInterval{1000};
  // Benchmark only: NOTIFY inside the event transaction instead of after it.
  bool notifyInTransaction = false;
  std::string node;  // this node's id in doorbells
};

class CrossNodeFanOut : public events::CommitConsumer {
 public:
  CrossNodeFanOut(store::Database& db, stream::Hub& hub, FanOutOptions options);
  ~CrossNodeFanOut();
  CrossNodeFanOut(const CrossNodeFanOut&) = delete;
  CrossNodeFanOut& operator=(const CrossNodeFanOut&) = delete;

  // The gate the hub tells about held channels (Hub::setChannelWatcher).
  stream::ChannelWatcher& channelWatcher() { return gate_; }
  const FanOutOptions& options() const { return options_; }

  void start();
  void stop();

  // After each group commit, on the writer thread, in commit order: this node's events
  // to the gate (and through it to the hub), and the doorbell for the others.
  void committed(const events::CommittedEvents& commit) override;
  // Inside the event transaction: the doorbell, with FanOutOptions::notifyInTransaction
  // only (a benchmark switch); nothing otherwise.
  void inTransaction(store::Connection& c, const events::CommittedEvents& commit) override;
  // A doorbell payload from the LISTEN connection.
  void doorbell(const std::string& payload);
  // The LISTEN connection is up (every LISTEN in effect: reconcile now) or down.
  void listening(bool up);

 private:
  void run();
  void round(bool poll);
  void pollHeld(store::Connection& c);
  void readBehind(store::Connection& c);
  std::chrono::milliseconds interval() const;

  store::Database& db_;
  FanOutOptions options_;
  store::ChannelPositions positions_;
  ContiguityGate gate_;
  std::unique_ptr<DoorbellSender> sender_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::int64_t, std::int64_t> announced_;  // from doorbells, not yet applied
  bool readAll_ = false;
  bool gap_ = false;
  bool listening_ = false;
  bool stopping_ = false;
  bool failing_ = false;
  std::thread thread_;
};

}  // namespace aev::cluster

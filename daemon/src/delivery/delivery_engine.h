#pragma once
// The outbound delivery engine (docs/features.md#webhooks, #outbound-requests): a pool of worker threads that claim
// due messages from the outbox (store/outbox_repository.h), hand each to the Sender of
// its target kind, and store the outcome: delivered, rescheduled on the retry schedule
// (honouring Retry-After), or failed for good. Every attempt is logged. Messages are
// written by whoever causes them, in their own transaction, so nothing is lost between
// a commit and a crash; a restart (kill -9 included) resumes from the table, and a
// claim that was in flight comes back when its lease runs out.
//
// Ordering: a target's messages go one at a time in id order. One slow receiver holds
// at most one worker; the others keep serving other targets.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "delivery/retry_schedule.h"
#include "delivery/sender.h"
#include "store/database.h"
#include "store/outbox_repository.h"

namespace aev::delivery {

struct EngineOptions {
  int workers = 4;                                 // delivery.workers
  RetrySchedule schedule;                          // delivery.retry_schedule
  std::chrono::milliseconds pollInterval{1000};    // delivery.poll_interval_ms
  std::chrono::milliseconds lease{120000};         // delivery.lease_seconds (> outbound timeout)
  std::size_t maxStoredBody = 4096;                // bytes of a response kept in the attempt log
  std::chrono::hours attemptRetention{24 * 30};    // delivery.attempt_retention_days
};

class Engine {
 public:
  Engine(store::Database& db, EngineOptions options);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Before start(): the sender of one target kind (not owned; must outlive stop()).
  void addSender(const std::string& targetKind, Sender* sender);
  void start();
  // Finishes the attempts in flight, then joins the workers. Idempotent.
  void stop();
  // Something was enqueued: look now instead of at the next poll.
  void wake();

  const EngineOptions& options() const { return options_; }

 private:
  void run();
  bool workOnce();  // false when nothing was due
  void process(const store::OutboxMessage& m);
  void pruneIfDue();  // the attempt log keeps attemptRetention; whichever worker comes first, hourly

  store::Database& db_;
  EngineOptions options_;
  std::map<std::string, Sender*> senders_;
  store::OutboxRepository outbox_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wakeUp_;
  std::uint64_t wakes_ = 0;
  std::atomic<bool> stopping_{false};
  std::chrono::steady_clock::time_point nextPrune_{};
};

}  // namespace aev::delivery

#pragma once
// Group commit: request threads enqueue events and wait; one writer thread takes
// everything queued (up to maxBatch events) into one transaction, commits, then hands the
// committed events, in commit order, to the after-commit consumers (events/after_commit.h:
// the stream hub, the outboxes) and completes every waiting request. While one commit is
// in flight the next batch accumulates, so one fsync serves many publishes without added
// latency.
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "events/after_commit.h"
#include "events/event.h"
#include "store/database.h"
#include "store/event_repository.h"
#include "store/rollup_writer.h"
#include "store/spend_ledger_repository.h"
#include "store/trace_repository.h"

namespace aev::events {

// What a request's future throws when channels of it were deleted before its commit
// (store::ChannelsGone): nothing of the request is stored, and its events come back
// unchanged, so a batch publisher can retry without the deleted channels' events.
class ChannelsDeleted : public std::runtime_error {
 public:
  ChannelsDeleted(const store::ChannelsGone& gone, std::vector<NewEvent> events)
      : std::runtime_error(gone.what()), channelIds(gone.channelIds()), events(std::move(events)) {}
  std::vector<std::int64_t> channelIds;
  std::vector<NewEvent> events;
};

class EventWriter {
 public:
  // `afterCommit` (may be null: nothing follows a commit) is called inside and after
  // each commit; it must outlive the writer.
  // `rollupWrites` false (analytics.rollup_writes, for benchmarks): commits skip the
  // analytics rollups.
  explicit EventWriter(store::Database& db, const AfterCommit* afterCommit = nullptr, std::size_t maxBatch = 2000,
                       bool rollupWrites = true);
  ~EventWriter();

  // The events of one request commit together (all or none) and come back with ids
  // (or the future throws; ChannelsDeleted when a channel of them no longer exists).
  std::future<std::vector<StoredEvent>> submit(std::vector<NewEvent> events);
  // The same without a waiting thread: `done` runs on the writer thread after the commit,
  // with the stored events or (events null) the failure. It must be quick and must not
  // block or throw: it holds up the next commit.
  using Done = std::function<void(std::vector<StoredEvent>* events, std::exception_ptr failure)>;
  void submit(std::vector<NewEvent> events, Done done);
  // Finishes what is queued, then stops the thread.
  void stop();

  // Usage period key of a time: "YYYY-MM" (UTC).
  static std::string periodOf(std::int64_t micros);

 private:
  struct Pending {
    std::vector<StoredEvent> events;
    std::promise<std::vector<StoredEvent>> promise;
    Done done;  // set: called instead of the promise
    void succeed(std::vector<StoredEvent> stored);
    void fail(std::exception_ptr failure);
    void complete(std::vector<StoredEvent>* stored, std::exception_ptr failure);  // `done`, guarded
  };
  void enqueue(std::unique_ptr<Pending> pending, std::vector<NewEvent> events);
  void run();
  void commit(std::vector<std::unique_ptr<Pending>>& batch);

  store::Database& db_;
  std::size_t maxBatch_;
  store::EventRepository repo_;
  store::TraceRepository traces_;
  store::RollupWriter rollups_;
  bool rollupWrites_ = true;
  store::SpendLedgerRepository spendLedger_;
  const AfterCommit* afterCommit_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::unique_ptr<Pending>> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace aev::events

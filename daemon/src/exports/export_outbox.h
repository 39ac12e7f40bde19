#pragma once
// Writes the export messages of committed events into the outbox inside the event
// writer's transaction (as webhooks/event_outbox.h does for webhooks). Cached: the
// organizations that have any active destination, invalidated by every change on this
// node and, on PostgreSQL, refreshed when older than `refresh`.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "events/after_commit.h"
#include "store/database.h"
#include "store/event_records.h"
#include "store/export_destination_repository.h"

namespace aev::exports {

// An after-commit consumer (events/after_commit.h): its messages are written in the
// commit's transaction, and the delivery engine is woken once the commit is durable.
class ExportOutbox : public events::CommitConsumer {
 public:
  explicit ExportOutbox(std::chrono::milliseconds refresh) : refresh_(refresh) {}

  void enqueue(store::Connection& c, const std::vector<store::StoredEvent>& events);
  void committed();
  void inTransaction(store::Connection& c, const events::CommittedEvents& commit) override {
    enqueue(c, commit.events());
  }
  void committed(const events::CommittedEvents&) override { committed(); }
  void invalidate();
  void onEnqueued(std::function<void()> fn) { onEnqueued_ = std::move(fn); }
  // Something was queued outside a publish (a redelivery): wake the delivery engine.
  void wake() {
    if (onEnqueued_) onEnqueued_();
  }

 private:
  std::chrono::milliseconds refresh_;
  std::mutex mutex_;
  std::unordered_set<std::int64_t> orgs_;
  bool stale_ = true;
  std::chrono::steady_clock::time_point loadedAt_;
  std::atomic<bool> wrote_{false};
  std::function<void()> onEnqueued_;
  store::ExportDestinationRepository repo_;
};

}  // namespace aev::exports

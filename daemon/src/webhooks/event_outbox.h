#pragma once
// Writes the webhook messages of committed events into the outbox inside the event
// writer's own transaction (events/after_commit.h, inTransaction), so an event is
// never stored without its messages, nor a message without its event.
//
// The publish path is benchmarked: most channels have no endpoints, so the set of
// channels that have any is cached and a batch touching none of them costs a set lookup.
// The cache is invalidated by every endpoint change on this node; on PostgreSQL other
// nodes' changes are picked up when the cache is older than `refresh` (0: never).
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
#include "store/webhook_repository.h"

namespace aev::webhooks {

// An after-commit consumer (events/after_commit.h): its messages are written in the
// commit's transaction, and the delivery engine is woken once the commit is durable.
class EventOutbox : public events::CommitConsumer {
 public:
  explicit EventOutbox(std::chrono::milliseconds refresh) : refresh_(refresh) {}

  // In the writer's transaction, after the events were inserted (seq assigned).
  void enqueue(store::Connection& c, const std::vector<store::StoredEvent>& events);
  // After the commit: wakes the engine (onEnqueued) when this batch wrote messages.
  void committed();
  void inTransaction(store::Connection& c, const events::CommittedEvents& commit) override {
    enqueue(c, commit.events());
  }
  void committed(const events::CommittedEvents&) override { committed(); }
  void invalidate();
  void onEnqueued(std::function<void()> fn) { onEnqueued_ = std::move(fn); }

 private:
  void refreshLocked(store::Connection& c);

  std::chrono::milliseconds refresh_;
  std::mutex mutex_;
  std::unordered_set<std::int64_t> channels_;
  bool stale_ = true;
  std::chrono::steady_clock::time_point loadedAt_;
  std::atomic<bool> wrote_{false};
  std::function<void()> onEnqueued_;
  store::WebhookRepository repo_;
};

}  // namespace aev::webhooks

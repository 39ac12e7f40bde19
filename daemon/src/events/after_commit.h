#pragma once
// The work that follows every group commit, whatever the events' entry point: one list of
// consumers that the event writer (events/event_writer.h) calls for each commit, and that
// the composition root (app/runtime.cpp) fills once at start-up. Today's consumers, in
// order: the stream hub (live subscribers), the webhook outbox, the export outbox.
//
// Adding a consumer (the extension point): implement CommitConsumer and add it before
// the first publish. A cross-node doorbell that tells other nodes which channels moved,
// for instance:
//
//   class Doorbell : public events::CommitConsumer {
//     void committed(const events::CommittedEvents& commit) override {
//       for (const auto& channel : commit.channels()) ring(channel.orgId, channel.channelId, channel.lastSeq);
//     }
//   };
//   afterCommit.add(doorbell);  // app/runtime.cpp, next to the hub and the outboxes
//
// Each consumer sees each commit twice:
// - inTransaction: inside the commit's transaction, after the insert (ids and seqs set).
//   For what must be durable with the events or not at all (an outbox row). Throwing rolls
//   the whole commit back and fails its publishers: keep it to writes that belong there.
// - committed: once the commit is durable, on the writer thread, in commit order. It must
//   be quick and must not block (the next commit waits for it); an exception is logged
//   and the other consumers still run. It copies what it keeps: the events are moved to
//   their publishers afterwards.
#include <cstdint>
#include <optional>
#include <vector>

#include "events/event.h"
#include "store/database.h"

namespace aev::events {

// A channel a commit touched, and where it stands after that commit.
struct ChannelHead {
  std::int64_t orgId = 0;
  std::int64_t channelId = 0;
  std::int64_t firstSeq = 0;  // of this commit's first event in the channel
  std::int64_t lastSeq = 0;   // of its last one: the channel's newest seq once committed
};

// What one group commit stored.
class CommittedEvents {
 public:
  explicit CommittedEvents(const std::vector<StoredEvent>& events) : events_(events) {}

  // In commit order (seqs grow within each channel).
  const std::vector<StoredEvent>& events() const { return events_; }
  // Each channel touched, once, in order of first appearance. Computed on the first call,
  // so a commit whose consumers never ask costs nothing.
  const std::vector<ChannelHead>& channels() const;

 private:
  const std::vector<StoredEvent>& events_;
  mutable std::optional<std::vector<ChannelHead>> channels_;
};

class CommitConsumer {
 public:
  virtual ~CommitConsumer() = default;
  virtual void inTransaction(store::Connection&, const CommittedEvents&) {}
  virtual void committed(const CommittedEvents& commit) = 0;
};

class AfterCommit {
 public:
  // Called in the order added; add them all before the first publish (not thread-safe).
  void add(CommitConsumer& consumer) { consumers_.push_back(&consumer); }

  // The writer's side.
  void inTransaction(store::Connection& c, const std::vector<StoredEvent>& events) const;
  void committed(const std::vector<StoredEvent>& events) const noexcept;

 private:
  std::vector<CommitConsumer*> consumers_;
};

}  // namespace aev::events

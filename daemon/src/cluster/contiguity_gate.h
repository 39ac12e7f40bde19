#pragma once
// The per-channel contiguity gate in front of the stream hub, for several nodes on one
// PostgreSQL. Events reach the hub from two sides: this node's own commits (right after
// each group commit) and other nodes' commits (read from the store after a doorbell or a
// poll). Without the gate a local seq 6 can reach the hub before a remote seq 5, and the
// hub, which drops every seq at or below a subscriber's last one, would lose 5 for good.
//
// So for every channel held by a subscription on this node the gate keeps `delivered`,
// the highest seq released to the hub, and releases an event only when it is delivered
// + 1. An event further ahead is not released: the channel is marked behind up to its
// seq, and the catch-up reader (cluster/catch_up.h) reads the missing range from the
// store, where it is sure to be: seq is assigned under the channel row's lock, so seq n
// commits before n + 1 and a range below a known seq is always complete.
//
// A channel's cursor starts at channels.last_seq read before the hub registers its first
// subscription (holding()): every subscription's replay starts at or after that point, so
// nothing between the two is skipped, and what the replay already covered the hub drops
// by seq. It is forgotten when the last subscription goes.
#include <cstdint>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "store/channel_positions.h"
#include "store/event_records.h"
#include "stream/hub.h"

namespace aev::cluster {

class ContiguityGate : public stream::ChannelWatcher {
 public:
  // Where released events go (the hub), called under the gate's lock in seq order.
  using Sink = std::function<void(const std::vector<store::StoredEvent>&)>;
  // channels.last_seq of one channel (throws when the store is unreachable).
  using LastSeqReader = std::function<std::int64_t(std::int64_t channelId)>;

  ContiguityGate(Sink sink, LastSeqReader lastSeq) : sink_(std::move(sink)), lastSeq_(std::move(lastSeq)) {}

  void holding(std::int64_t channelId) override;
  void released(std::int64_t channelId) override;

  // Events of any channels, each channel's in seq order (a commit's events, or a store
  // read). Releases what continues each held channel; returns true when a channel was
  // found behind (an event beyond delivered + 1).
  bool offer(const std::vector<store::StoredEvent>& events);
  // The store holds a channel's events up to `seq` (a doorbell, a poll). True when that
  // puts a held channel behind.
  bool announce(std::int64_t channelId, std::int64_t seq);
  // The held channels that are behind: (channel, delivered, target) as ranges to read.
  std::vector<store::SeqRange> behind() const;
  // A range read found no event at delivered + 1 although the store announced more
  // (retention deleted them, or the channel is gone): move the cursor on to `seq`.
  void skipTo(std::int64_t channelId, std::int64_t seq);
  std::vector<std::int64_t> heldChannels() const;
  std::int64_t delivered(std::int64_t channelId) const;  // -1 when not held

 private:
  struct Cursor {
    std::size_t holders = 0;
    std::int64_t delivered = 0;
    std::int64_t target = 0;  // highest seq known to be in the store (>= delivered)
  };
  Sink sink_;
  LastSeqReader lastSeq_;
  mutable std::mutex mutex_;
  std::unordered_map<std::int64_t, Cursor> cursors_;
  std::vector<store::StoredEvent> release_;  // reused buffer
};

}  // namespace aev::cluster

#include "cluster/contiguity_gate.h"

#include <algorithm>

namespace aev::cluster {

void ContiguityGate::holding(std::int64_t channelId) {
  {
    std::lock_guard lock(mutex_);
    auto it = cursors_.find(channelId);
    if (it != cursors_.end()) {
      ++it->second.holders;
      return;
    }
  }
  // The first subscription here: read the channel's position before the hub registers
  // it (outside the lock: a store read must not hold up the release of other channels).
  const auto seq = lastSeq_(channelId);
  std::lock_guard lock(mutex_);
  auto [it, fresh] = cursors_.try_emplace(channelId);
  if (fresh) it->second.delivered = it->second.target = seq;  // else another subscription raced us in first
  ++it->second.holders;
}

void ContiguityGate::released(std::int64_t channelId) {
  std::lock_guard lock(mutex_);
  auto it = cursors_.find(channelId);
  if (it != cursors_.end() && --it->second.holders == 0) cursors_.erase(it);
}

bool ContiguityGate::offer(const std::vector<store::StoredEvent>& events) {
  std::lock_guard lock(mutex_);
  bool gap = false;
  // The usual case: every event of a held channel continues it, and the batch goes to
  // the hub as it is (the hub skips the channels nobody holds). Only from the first event
  // that does not is a filtered copy made.
  bool copying = false;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    auto it = cursors_.find(e.channelId);
    if (it == cursors_.end()) continue;
    auto& c = it->second;
    if (e.seq == c.delivered + 1) {
      c.delivered = e.seq;
      c.target = std::max(c.target, c.delivered);
      if (copying) release_.push_back(e);
      continue;
    }
    if (!copying) {
      copying = true;
      release_.assign(events.begin(), events.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (e.seq > c.delivered + 1) {  // an earlier event is still to come: read it from the store
      c.target = std::max(c.target, e.seq);
      gap = true;
    }  // else already released: dropped
  }
  if (!copying) {
    if (!events.empty()) sink_(events);
  } else if (!release_.empty()) {
    sink_(release_);
  }
  release_.clear();
  return gap;
}

bool ContiguityGate::announce(std::int64_t channelId, std::int64_t seq) {
  std::lock_guard lock(mutex_);
  auto it = cursors_.find(channelId);
  if (it == cursors_.end()) return false;
  it->second.target = std::max(it->second.target, seq);
  return it->second.target > it->second.delivered;
}

std::vector<store::SeqRange> ContiguityGate::behind() const {
  std::lock_guard lock(mutex_);
  std::vector<store::SeqRange> out;
  for (const auto& [channelId, c] : cursors_)
    if (c.target > c.delivered) out.push_back({channelId, c.delivered, c.target});
  return out;
}

void ContiguityGate::skipTo(std::int64_t channelId, std::int64_t seq) {
  std::lock_guard lock(mutex_);
  auto it = cursors_.find(channelId);
  if (it == cursors_.end() || seq <= it->second.delivered) return;
  it->second.delivered = seq;
  it->second.target = std::max(it->second.target, seq);
}

std::vector<std::int64_t> ContiguityGate::heldChannels() const {
  std::lock_guard lock(mutex_);
  std::vector<std::int64_t> out;
  out.reserve(cursors_.size());
  for (const auto& [channelId, c] : cursors_) out.push_back(channelId);
  return out;
}

std::int64_t ContiguityGate::delivered(std::int64_t channelId) const {
  std::lock_guard lock(mutex_);
  auto it = cursors_.find(channelId);
  return it == cursors_.end() ? -1 : it->second.delivered;
}

}  // namespace aev::cluster

#include "webhooks/event_outbox.h"

#include <map>

#include "common/clock.h"
#include "delivery/seq_ranges.h"

namespace aev::webhooks {

void EventOutbox::refreshLocked(store::Connection& c) {
  const auto now = std::chrono::steady_clock::now();
  if (stale_ || (refresh_.count() > 0 && now - loadedAt_ >= refresh_)) {
    auto ids = repo_.channelsWithEndpoints(c);
    channels_ = std::unordered_set<std::int64_t>(ids.begin(), ids.end());
    stale_ = false;
    loadedAt_ = now;
  }
}

void EventOutbox::enqueue(store::Connection& c, const std::vector<store::StoredEvent>& events) {
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> ranges;  // channel → [min seq, max seq]
  {
    std::lock_guard lock(mutex_);
    refreshLocked(c);
    if (channels_.empty()) return;
    ranges = delivery::seqRanges(events, [&](const store::StoredEvent& e) { return channels_.count(e.channelId) > 0; });
  }
  const auto now = clock::nowMicros();
  std::size_t written = 0;
  for (const auto& [channelId, range] : ranges) written += repo_.enqueueEvents(c, channelId, range.first, range.second, now);
  if (written > 0) wrote_ = true;
}

void EventOutbox::committed() {
  if (wrote_.exchange(false) && onEnqueued_) onEnqueued_();
}

void EventOutbox::invalidate() {
  std::lock_guard lock(mutex_);
  stale_ = true;
}

}  // namespace aev::webhooks

#include "exports/export_outbox.h"

#include <map>

#include "common/clock.h"
#include "delivery/seq_ranges.h"

namespace aev::exports {

void ExportOutbox::enqueue(store::Connection& c, const std::vector<store::StoredEvent>& events) {
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> ranges;  // channel → [min seq, max seq]
  {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (stale_ || (refresh_.count() > 0 && now - loadedAt_ >= refresh_)) {
      auto ids = repo_.orgsWithDestinations(c);
      orgs_ = std::unordered_set<std::int64_t>(ids.begin(), ids.end());
      stale_ = false;
      loadedAt_ = now;
    }
    if (orgs_.empty()) return;
    ranges = delivery::seqRanges(events, [&](const store::StoredEvent& e) { return orgs_.count(e.orgId) > 0; });
  }
  const auto now = clock::nowMicros();
  std::size_t written = 0;
  for (const auto& [channelId, range] : ranges) written += repo_.enqueueEvents(c, channelId, range.first, range.second, now);
  if (written > 0) wrote_ = true;
}

void ExportOutbox::committed() {
  if (wrote_.exchange(false) && onEnqueued_) onEnqueued_();
}

void ExportOutbox::invalidate() {
  std::lock_guard lock(mutex_);
  stale_ = true;
}

}  // namespace aev::exports

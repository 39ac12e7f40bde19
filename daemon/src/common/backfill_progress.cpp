#include "common/backfill_progress.h"

#include <spdlog/spdlog.h>

#include "common/metrics.h"

namespace aev {

BackfillProgress::BackfillProgress(std::string what, const std::string& metricPrefix, std::string whileRunning,
                                   std::string whenDone)
    : what_(std::move(what)),
      whileRunning_(std::move(whileRunning)),
      whenDone_(std::move(whenDone)),
      remaining_(Metrics::instance().counter(metricPrefix + "_remaining")),
      folded_(Metrics::instance().counter(metricPrefix + "_events_total")) {}

bool BackfillProgress::record(std::int64_t until, std::int64_t done, std::int64_t folded, bool finished) {
  remaining_.store(until - done, std::memory_order_relaxed);
  folded_.fetch_add(folded, std::memory_order_relaxed);
  const auto now = std::chrono::steady_clock::now();
  if (finished) {
    if (announced_ || folded > 0) spdlog::info("{}: backfill done (events up to id {}); {}", what_, until, whenDone_);
    return true;
  }
  if (!announced_) {
    spdlog::info("{}: backfilling the events stored before them (ids {} to {}); {}", what_, done, until, whileRunning_);
    announced_ = true;
    lastLog_ = now;
  } else if (now - lastLog_ > std::chrono::seconds(10)) {
    spdlog::info("{}: backfill at event id {} of {} ({:.1f} %)", what_, done, until,
                 100.0 * static_cast<double>(done) / static_cast<double>(until));
    lastLog_ = now;
  }
  return false;
}

}  // namespace aev

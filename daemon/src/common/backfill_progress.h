#pragma once
// How a chunked background backfill (the analytics rollups, the trace facets) reports:
// /metrics `<prefix>_remaining` and `<prefix>_events_total` after every committed chunk, a
// log line when it starts, every 10 s while it runs, and when it is done. One place, so
// every such job reads alike to an operator.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace aev {

class BackfillProgress {
 public:
  // what: the log prefix ("analytics rollups"); whileRunning / whenDone: what readers do
  // meanwhile and afterwards, closing the start and done lines.
  BackfillProgress(std::string what, const std::string& metricPrefix, std::string whileRunning, std::string whenDone);
  // One committed chunk: event ids (done, until] left, `folded` events taken in. True once finished.
  bool record(std::int64_t until, std::int64_t done, std::int64_t folded, bool finished);

 private:
  std::string what_, whileRunning_, whenDone_;
  std::atomic<std::int64_t>& remaining_;
  std::atomic<std::int64_t>& folded_;
  bool announced_ = false;
  std::chrono::steady_clock::time_point lastLog_{};
};

}  // namespace aev

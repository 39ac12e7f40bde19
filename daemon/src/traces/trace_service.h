#pragma once
// Traces (docs/features.md#traces): lists and summaries come from the rollup rows the
// writer maintains; a trace's events are read in effective-time order.
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"
#include "store/trace_repository.h"

namespace aev::traces {

struct TracePage {
  std::vector<store::TraceRecord> data;
  std::int64_t total = 0;
};

class TraceService {
 public:
  explicit TraceService(store::Database& db) : db_(db) {}
  TracePage list(std::int64_t orgId, const store::TraceQuery& q, std::int64_t page, std::int64_t limit);
  store::TraceRecord summary(std::int64_t orgId, const std::string& traceId);
  std::vector<store::StoredEvent> events(std::int64_t orgId, const std::string& traceId);

 private:
  store::Database& db_;
  store::TraceRepository repo_;
};

}  // namespace aev::traces

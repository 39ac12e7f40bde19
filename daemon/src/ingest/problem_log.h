#pragma once
// Refused exports (ingest/refusal.h), made visible: each one counts in /metrics under
// agent_events_ingest_refusals_total{reason}, is logged at warn at most once a minute per
// API key (or remote address, when there is no key) and reason, and, when its
// organization is known, is kept in the store, where every node reads the same newest
// 100 per organization (GET /ingest/problems). A refusal before the organization is known
// (a bad key) cannot be attributed: it is counted and logged only.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/log_throttle.h"
#include "ingest/refusal.h"
#include "store/database.h"
#include "store/ingest_problem_repository.h"

namespace aev::ingest {

struct RefusedExport {
  Refusal reason = Refusal::Malformed;
  int status = 400;
  std::string detail;
  std::string route;
  std::optional<std::int64_t> orgId;
  std::optional<std::int64_t> apiKeyId;
  std::string remoteAddress;
  std::int64_t rejectedSpans = 0;
};

class ProblemLog {
 public:
  static constexpr std::int64_t kLogIntervalMicros = 60'000'000;

  // Registers every reason's counter at 0, so dashboards see the family from the start.
  explicit ProblemLog(store::Database& db);

  // Counts, logs and keeps one refusal. Never throws: a store that cannot take the row
  // must not change the answer the exporter gets.
  void record(const RefusedExport& refused);

  struct Page {
    std::vector<store::IngestProblemRecord> data;
    std::int64_t total = 0;
  };
  // The organization's kept refusals, newest first.
  Page list(std::int64_t orgId, std::int64_t page, std::int64_t limit);

 private:
  store::Database& db_;
  store::IngestProblemRepository repo_;
  LogThrottle logThrottle_{kLogIntervalMicros, 10000};  // keyed "<who>|<reason>"
};

// The counter of a reason (the metric name with its label).
std::string refusalMetricName(Refusal reason);
// Counts a refusal no route saw (the HTTP parser's 413 for an OTLP body over the limit):
// metrics only, as it cannot be attributed.
void countRefusal(Refusal reason);
// The paths of the OTLP export routes.
bool isExportPath(std::string_view path);

}  // namespace aev::ingest

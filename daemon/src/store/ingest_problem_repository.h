#pragma once
// The recent refused exports of each organization (GET /ingest/problems): at most
// kKeptPerOrganization rows per organization, the oldest dropped as new ones arrive.
// Every call is scoped by organization id.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct IngestProblemRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::int64_t occurredAt = 0;  // µs
  std::string route;            // the path the export was sent to
  int status = 0;               // the HTTP status answered (200 for a partial success)
  std::string reason;           // a code of ingest::Refusal (e.g. "no_channel")
  std::string detail;           // what the answer said
  std::optional<std::int64_t> apiKeyId;
  std::int64_t rejectedSpans = 0;  // partial successes: spans refused
};

class IngestProblemRepository {
 public:
  static constexpr std::int64_t kKeptPerOrganization = 100;

  // Inserts, then drops the organization's rows beyond the newest kKeptPerOrganization.
  void add(Connection& c, const IngestProblemRecord& p);
  // Newest first.
  std::vector<IngestProblemRecord> list(Connection& c, std::int64_t orgId, std::int64_t limit, std::int64_t offset);
  std::int64_t count(Connection& c, std::int64_t orgId);
};

}  // namespace aev::store

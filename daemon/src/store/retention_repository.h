#pragma once
// What the retention sweeper reads and deletes: each organization's plan, and its
// oldest events past a cutoff, a bounded batch at a time.
#include <cstdint>
#include <string>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct OrganizationPlan {
  std::int64_t orgId = 0;
  std::string plan;
};

class RetentionRepository {
 public:
  std::vector<OrganizationPlan> organizations(Connection& c);
  // On PostgreSQL, takes the transaction-level advisory lock that lets one node sweep at
  // a time (false: another node holds it). On SQLite there is one node: always true.
  bool claimSweep(Connection& c);
  // Deletes up to `limit` of the organization's events received before `cutoff` (µs),
  // oldest first, and returns the trace ids they belonged to (their rollups need a
  // rebuild). Attributes cascade with their events.
  struct Deleted {
    std::size_t events = 0;
    std::vector<std::string> traceIds;
  };
  Deleted deleteBefore(Connection& c, std::int64_t orgId, std::int64_t cutoff, std::int64_t limit);
};

}  // namespace aev::store

#include "store/retention_repository.h"

#include <set>

#include "store/rollup_writer.h"

namespace aev::store {

namespace {
// pg_try_advisory_xact_lock key of the sweep: "aevret" in ASCII.
constexpr std::int64_t kSweepLockKey = 0x616576726574;
}  // namespace

std::vector<OrganizationPlan> RetentionRepository::organizations(Connection& c) {
  std::vector<OrganizationPlan> out;
  for (const auto& r : c.query("SELECT id, plan FROM organizations ORDER BY id"))
    out.push_back({r.i64("id"), r.str("plan")});
  return out;
}

bool RetentionRepository::claimSweep(Connection& c) {
  if (c.dialect() == Dialect::SQLite) return true;
  return c.query("SELECT pg_try_advisory_xact_lock(?) AS got", {kSweepLockKey}).front().boolean("got");
}

RetentionRepository::Deleted RetentionRepository::deleteBefore(Connection& c, std::int64_t orgId, std::int64_t cutoff,
                                                               std::int64_t limit) {
  // One fixed statement text each (the prepared-statement cache keeps them): the batch
  // is "the oldest `limit` events before the cutoff", read for its traces, then deleted.
  // received_at only grows, so no event joins that set between the two statements.
  static const std::string kBatch =
      "SELECT id FROM events WHERE org_id = ? AND received_at < ? ORDER BY received_at, id LIMIT ?";
  Deleted out;
  std::set<std::string> traces;
  for (const auto& r :
       c.query("SELECT DISTINCT trace_id FROM events WHERE trace_id IS NOT NULL AND id IN (" + kBatch + ")",
               {orgId, cutoff, limit}))
    traces.insert(r.str("trace_id"));
  // Out of the analytics rollups first, while the rows are there to read.
  RollupWriter().subtractWhere(c, orgId, "e.id IN (" + kBatch + ")", {orgId, cutoff, limit});
  out.events = c.exec("DELETE FROM events WHERE id IN (" + kBatch + ")", {orgId, cutoff, limit});
  out.traceIds.assign(traces.begin(), traces.end());
  return out;
}

}  // namespace aev::store

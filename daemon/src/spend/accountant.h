#pragma once
// Spend enforcement on publish (docs/features.md#spend-policies). Around the event writer's commit:
//
//   admit(events)   before: finds the policies each event matches (cached per org), reads
//                   their window totals (one query), rejects an event with 429 when a
//                   hard `block` rung is in force (and records the refusal: count and
//                   newest rows per policy, only then touching the store), flags it (metadata.spend) for a soft
//                   one, and attaches a SpendCharge per matching policy. The writer adds
//                   the charges to the policies' counters in the event's own transaction,
//                   so a counter never holds spend of an event that is not stored, and
//                   never misses one that is, with any number of threads or nodes.
//   settle(events)  after: reads the totals again, records each rung crossed once per
//                   window (unique key in the store), writes a notification row when the
//                   policy's cooldown allows, and sets each event's `spend` answer.
//
// The clock is injectable so the window logic can be tested at any instant.
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "common/clock.h"
#include "common/errors.h"
#include "spend/policy_cache.h"
#include "store/database.h"
#include "store/event_records.h"
#include "store/spend_ledger_repository.h"
#include "store/spend_refusal_repository.h"

namespace aev::spend {

using Clock = std::function<Micros()>;

// The standing of a subject against its organization's policies: the most severe
// policy state (a rung in force beats none; ties: the higher percent).
struct Standing {
  bool matched = false;  // some enabled policy matches
  bool allowed = true;   // false: a hard block rung is in force
  std::int64_t policyId = 0;
  double percent = 0;
  std::optional<RungAction> action;  // nullopt below every rung
  std::optional<BlockMode> blockMode;
  std::optional<std::string> fallbackModel;
  int retryAfterSeconds = 0;  // when !allowed: until the window resets (or enough spend rolls out)
};

class Accountant {
 public:
  Accountant(store::Database& db, PolicyCache& cache, Clock clock = clock::nowMicros)
      : db_(db), cache_(cache), clock_(std::move(clock)) {}

  // Same positions as `events`: the 429 of each refused event, nullopt for the others.
  std::vector<std::optional<ApiError>> admit(const std::vector<store::NewEvent*>& events);
  // Never throws: the events are stored whatever happens here (failures are logged).
  void settle(std::vector<store::StoredEvent>& events);

  // POST /spend-policies/check: the standing without publishing.
  Standing check(std::int64_t orgId, const Subject& subject);

  // Current-window spend (nano-dollars) of policies of the organization.
  std::map<std::int64_t, std::int64_t> currentSpend(std::int64_t orgId,
                                                     const std::vector<store::SpendPolicyRecord>& policies);
  // Sets the policy's counters from the stored events of its current window (and drops
  // older ones): on start-up and whenever a policy is created or changed.
  void rebuild(const store::SpendPolicyRecord& policy);
  // rebuild() of every enabled policy; returns how many.
  std::size_t rebuildAll();

  Micros now() const { return clock_(); }

 private:
  struct PolicyState {
    const ActivePolicy* policy = nullptr;
    std::int64_t spentNanos = 0;
  };
  Standing standingOf(store::Connection& c, const std::vector<PolicyState>& states, Micros now);
  int retryAfter(store::Connection& c, const ActivePolicy& policy, const Rung& rung, std::int64_t spentNanos,
                 Micros now);
  // The hard-block refusals of one admit(), in one transaction (never throws).
  void recordRefusals(const std::vector<store::SpendRefusalRecord>& refusals);
  void recordCrossings(const ActivePolicy& policy, std::int64_t spentNanos, Micros now);
  // Drops a rolling_24h policy's buckets older than its window (at most every 10 minutes).
  void pruneRolling(const ActivePolicy& policy, Micros now);
  std::map<std::int64_t, std::int64_t> totalsOf(store::Connection& c, std::int64_t orgId,
                                               const std::vector<const ActivePolicy*>& policies, Micros now);

  store::Database& db_;
  PolicyCache& cache_;
  Clock clock_;
  store::SpendLedgerRepository ledger_;
  // Crossings this node knows are recorded (policy, window, at_percent): saves the insert
  // attempt on every later publish of the window.
  std::mutex knownMutex_;
  std::set<std::tuple<std::int64_t, Micros, std::int64_t>> knownCrossings_;
  // When this node last dropped a rolling policy's minute buckets that left its window.
  std::map<std::int64_t, Micros> lastPruned_;
};

}  // namespace aev::spend

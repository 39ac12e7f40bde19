#pragma once
// Analytics rollups (migration v20, days since the v22 rebuild;
// docs/features.md#analytics-rollups), kept in the transaction that stores the events: a
// batch is aggregated in memory per (organization, app, environment, minute bucket,
// dimension, value) first, its hour and day deltas built from those minute deltas (UTC
// days: a day bucket starts at a multiple of 86,400 s since the epoch), then written once
// per key, so a commit costs what its distinct keys cost, not what its events do.
//
// Counts and sums are added by SQL itself. The sketch column is one serialized sketch per
// row (not one row per sketch bucket: that multiplies rows by ~50 and the reads of a long
// window by as much). On SQLite the daemon registers aev_sketch_merge on each connection
// (store/sqlite_sketch_function.h), so adding is multi-row upserts of up to 64 keys that
// merge the sketch in SQL: about one statement per 64 keys, no read. PostgreSQL has no such
// function: the batch's keys are inserted whole where no row holds them yet (one statement;
// RETURNING says which went in), and a key a row already holds is read and written back
// (read-modify-write): read with its row locked (FOR UPDATE, in key order, so writers on
// several nodes queue rather than lose an update), then updated: at most three statements
// for the whole batch. Subtracting (deletions) reads and writes back on both.
//
// Costs are summed as integer nano-dollars and durations as integer microseconds (each
// event's value rounded, clamped to ±1e6 USD and ±1e12 ms), the same arithmetic the raw
// queries do (rollupCostNanosSql), so the two always agree to the unit.
#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "analytics/sketch.h"
#include "store/database.h"
#include "store/event_records.h"

namespace aev::store {

struct RollupKey {
  std::int64_t orgId = 0;
  std::string dimension;    // '' totals, an analytics dimension, "tag:<key>"
  std::int64_t span = 0;    // seconds: 60, 3600 or 86400
  std::int64_t bucket = 0;  // start, µs
  std::string value;
  std::int64_t appId = 0;
  std::string environment;  // '' none
  auto operator<=>(const RollupKey&) const = default;
};

struct RollupTotals {
  std::int64_t events = 0, errors = 0, inputTokens = 0, outputTokens = 0, costNanos = 0, durations = 0,
               durationMicros = 0;
  analytics::LatencySketch sketch;
  void add(const RollupTotals& other);
};

// The bucket spans rolled up, in seconds (minutes, hours, UTC days), finest first: each
// divides the next, so a coarser bucket is a whole number of finer ones.
inline constexpr std::int64_t kRollupSpans[] = {60, 3600, 86400};
inline constexpr const char* kTagDimensionPrefix = "tag:";
// Standard dimensions with no rollup rows: a session and a trace name each belong to one
// trace, so rolling them up wrote about two new rows per trace and span (a third of the
// rollup writes of agent traffic: bench/NOTEBOOK.md, 2026-11-28 12:40). Their breakdowns
// and filters read raw events; the sessions screen reads the trace rollups.
inline bool rolledUpDimension(const std::string& dimension) {
  return dimension != "session" && dimension != "traceName";
}

// An event's cost in nano-dollars and duration in microseconds as the rollups sum them.
std::int64_t rollupCostNanos(double costUsd);
std::int64_t rollupDurationMicros(double durationMs);
// The same over events e in SQL (an integer expression; NULL when the column is).
std::string rollupCostNanosSql(Dialect d, const std::string& column = "e.cost_usd");
std::string rollupDurationMicrosSql(Dialect d, const std::string& column = "e.duration_ms");
// Start of the span-second bucket holding ts (µs; floor).
std::int64_t rollupBucketOf(std::int64_t ts, std::int64_t spanSeconds);
// The sketch column: written from raw bytes (SQLite) or hex (PostgreSQL, whose text
// parameters cannot carry every byte), read back the same way.
std::string rollupSketchParamSql(Dialect d);
SqlValue rollupSketchParam(Dialect d, const analytics::LatencySketch& s);
std::string rollupSketchColumnSql(Dialect d, const std::string& column);
// The sketch a row's column holds (empty for NULL; a damaged one counts as empty and is logged).
analytics::LatencySketch rollupSketchOf(Dialect d, const Row& r, const std::string& column);

// One chunk of the backfill: events folded, how far it got (event ids) and where it ends.
struct RollupBackfillStep {
  std::int64_t folded = 0, done = 0, until = 0;
  bool finished = false;
};

class RollupWriter {
 public:
  // Folds committed events into the rollups (inside the writer's transaction).
  void add(Connection& c, const std::vector<StoredEvent>& events);
  // Takes the organization's events matching `condition` (SQL over events e, its values in
  // `params`) back out of the rollups before they are deleted: retention, a deleted
  // channel. Events the backfill has not reached yet were never in them and are skipped.
  void subtractWhere(Connection& c, std::int64_t orgId, const std::string& condition, const Params& params);

  // Folds the next `chunk` events stored before the rollups existed (ids up to the state's
  // backfill_until) into them and moves the state on, in the caller's transaction; every
  // node may call it, one at a time gets the state row.
  RollupBackfillStep backfillStep(Connection& c, std::int64_t chunk);

  // analytics.rollup_writes at start-up, before any publish: off empties the rollups and
  // marks them stale (queries then read raw events, the backfill has nothing to do); on,
  // after a start with them off, hands every stored event to the backfill to rebuild
  // them. Returns what it did ("" nothing, else a line for the log).
  static std::string applyWritesSetting(Connection& c, bool writes);

  static std::map<RollupKey, RollupTotals> aggregate(const std::vector<StoredEvent>& events);

 private:
  void write(Connection& c, const std::map<RollupKey, RollupTotals>& deltas, bool subtract);
  void writeSqlite(Connection& c, const std::map<RollupKey, RollupTotals>& deltas, bool subtract);
  void writePostgres(Connection& c, const std::map<RollupKey, RollupTotals>& deltas, bool subtract);
};

}  // namespace aev::store

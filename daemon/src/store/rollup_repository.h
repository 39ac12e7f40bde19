#pragma once
// Reads of the analytics rollups (store/rollup_writer.h): the rows of one dimension (and
// value) over a bucket-aligned window, optionally limited to an app and environments.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"
#include "store/rollup_writer.h"

namespace aev::store {

struct RollupScope {
  std::int64_t orgId = 0;
  std::string dimension;             // '' totals, a dimension name, "tag:<key>"
  std::optional<std::string> value;  // one value of it, or every value
  std::optional<std::int64_t> appId;
  std::optional<std::vector<std::string>> environments;  // any of these
};

// Rollup buckets of `spanSeconds` starting in [from, to) (µs).
struct RollupRange {
  std::int64_t spanSeconds = 0, from = 0, to = 0;
};

class RollupRepository {
 public:
  // True once the backfill of events stored before the rollups existed is done.
  bool complete(Connection& c);
  // Sums per value over buckets of `spanSeconds` starting in [from, to) (no sketches).
  std::map<std::string, RollupTotals> byValue(Connection& c, const RollupScope& s, std::int64_t spanSeconds,
                                              std::int64_t from, std::int64_t to);
  // Sums and (with `sketches`) merged sketches per `step`-µs series bucket, of the buckets
  // of each range's span starting in its [from, to): one statement for all the ranges
  // (a UNION ALL: one round trip to PostgreSQL). Without `sketches` none is read or
  // decoded (a count or sum series needs none).
  std::map<std::int64_t, RollupTotals> bySeriesBucket(Connection& c, const RollupScope& s,
                                                      const std::vector<RollupRange>& ranges, std::int64_t step,
                                                      bool sketches);
};

}  // namespace aev::store

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

class RollupRepository {
 public:
  // True once the backfill of events stored before the rollups existed is done.
  bool complete(Connection& c);
  // Sums per value over buckets of `spanSeconds` starting in [from, to) (no sketches).
  std::map<std::string, RollupTotals> byValue(Connection& c, const RollupScope& s, std::int64_t spanSeconds,
                                              std::int64_t from, std::int64_t to);
  // Sums and merged sketches per `step`-µs series bucket, of the buckets of `spanSeconds`
  // starting in [from, to).
  std::map<std::int64_t, RollupTotals> bySeriesBucket(Connection& c, const RollupScope& s, std::int64_t spanSeconds,
                                                      std::int64_t from, std::int64_t to, std::int64_t step);
};

}  // namespace aev::store

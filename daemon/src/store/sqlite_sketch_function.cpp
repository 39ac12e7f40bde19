#include "store/sqlite_sketch_function.h"

#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <stdexcept>
#include <string>
#include <string_view>

#include "analytics/sketch.h"

namespace aev::store {

namespace {

analytics::LatencySketch sketchOfValue(sqlite3_value* v) {
  if (sqlite3_value_type(v) == SQLITE_NULL) return {};
  const auto* bytes = static_cast<const char*>(sqlite3_value_blob(v));
  const int n = sqlite3_value_bytes(v);
  auto s = analytics::LatencySketch::deserialize(std::string_view(bytes ? bytes : "", static_cast<std::size_t>(n)));
  if (!s) {
    spdlog::error("analytics rollups: a stored latency sketch is damaged; counted as empty");
    return {};
  }
  return *s;
}

void sketchMerge(sqlite3_context* ctx, int, sqlite3_value** args) {
  // One side empty: the other is the answer as it is (the usual case for a new key or a
  // batch without durations), no parse.
  if (sqlite3_value_type(args[1]) == SQLITE_NULL) return sqlite3_result_value(ctx, args[0]);
  if (sqlite3_value_type(args[0]) == SQLITE_NULL) return sqlite3_result_value(ctx, args[1]);
  try {
    auto merged = sketchOfValue(args[0]);
    merged.merge(sketchOfValue(args[1]));
    if (merged.empty()) return sqlite3_result_null(ctx);
    const auto bytes = merged.serialize();
    sqlite3_result_blob64(ctx, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
  } catch (const std::exception& e) {
    sqlite3_result_error(ctx, e.what(), -1);
  }
}

}  // namespace

void registerSqliteSketchFunction(sqlite3* db) {
  const int rc = sqlite3_create_function_v2(db, "aev_sketch_merge", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                            sketchMerge, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK)
    throw std::runtime_error(std::string("sqlite: cannot register aev_sketch_merge: ") + sqlite3_errmsg(db));
}

}  // namespace aev::store

#pragma once
// aev_sketch_merge(a, b) on a SQLite connection: the latency sketch (analytics/sketch.h)
// holding both sketches' values, as the stored bytes; NULL stands for an empty sketch both
// ways. It lets the rollup writer (store/rollup_writer.h) merge a batch's sketch into the
// stored one inside its upsert, one statement per group of keys, instead of reading each
// key's row and writing it back. A stored sketch that does not parse counts as empty and
// is logged, as the readers do.
struct sqlite3;

namespace aev::store {

// Registers the function on one connection (each pooled connection, when opened).
void registerSqliteSketchFunction(sqlite3* db);

}  // namespace aev::store

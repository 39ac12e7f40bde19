// v20: analytics rollups (docs/features.md#analytics-rollups). One row per organization,
// app, environment, bucket (a minute or an hour), dimension and value, kept in the events'
// own transaction (store/rollup_writer.h): counts and sums that add up exactly, and a
// latency sketch (analytics/sketch.h) in a BLOB / bytea. `dimension` is '' for the
// totals, an analytics dimension name (model, provider, ...), or "tag:<key>" for a custom
// attribute. The key starts with (org_id, dimension, span_s, bucket) so a window of one
// dimension is one index range; environment '' stands for "none".
// analytics_rollup_state: events stored before this migration (ids up to backfill_until)
// are folded in by the background backfill; until backfilled_to reaches backfill_until,
// analytics reads raw events.
#include "store/schema_parts.h"

namespace aev::store {

Migration rollupsMigration(Dialect d) {
  const bool pg = d == Dialect::PostgreSQL;
  return {20,
          "analytics_rollups",
          {std::string("CREATE TABLE analytics_rollups (\n"
                       "  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,\n"
                       "  dimension TEXT NOT NULL,\n"
                       "  span_s INTEGER NOT NULL,\n"
                       "  bucket BIGINT NOT NULL,\n"
                       "  value TEXT NOT NULL,\n"
                       "  app_id BIGINT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,\n"
                       "  environment TEXT NOT NULL,\n"
                       "  events BIGINT NOT NULL,\n"
                       "  errors BIGINT NOT NULL,\n"
                       "  input_tokens BIGINT NOT NULL,\n"
                       "  output_tokens BIGINT NOT NULL,\n"
                       "  cost_nanos BIGINT NOT NULL,\n"
                       "  durations BIGINT NOT NULL,\n"
                       "  duration_micros BIGINT NOT NULL,\n"
                       "  sketch ") +
               (pg ? "BYTEA" : "BLOB") +
               ",\n"
               "  PRIMARY KEY (org_id, dimension, span_s, bucket, value, app_id, environment))" +
               (pg ? "" : " WITHOUT ROWID"),
           "CREATE TABLE analytics_rollup_state (\n"
           "  id INTEGER PRIMARY KEY,\n"
           "  backfill_until BIGINT NOT NULL,\n"
           "  backfilled_to BIGINT NOT NULL)",
           "INSERT INTO analytics_rollup_state (id, backfill_until, backfilled_to) "
           "SELECT 1, COALESCE(MAX(id), 0), 0 FROM events"}};
}

}  // namespace aev::store

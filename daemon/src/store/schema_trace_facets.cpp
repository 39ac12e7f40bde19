// v23: trace facets (store/trace_facets.h): each distinct environment, model, provider, tool
// and custom attribute of a trace's events, so the traces, sessions and end-users lists
// filter by them through one index range instead of probing every candidate trace's
// events (issue 30, item 3). The primary key (org_id, dimension, value, trace_id) is the
// filters' index; trace_facets_trace serves rebuilding one trace's facets after a deletion.
// SQLite keeps the table in its primary key (WITHOUT ROWID): one B-tree fewer per row.
// trace_facet_state: events stored before this migration (ids up to backfill_until) get
// their facets from the background backfill; until backfilled_to reaches backfill_until,
// the lists probe events as before.
#include "store/schema_parts.h"

namespace aev::store {

Migration traceFacetsMigration(Dialect d) {
  const bool pg = d == Dialect::PostgreSQL;
  return {23,
          "trace_facets",
          {std::string("CREATE TABLE trace_facets (\n"
                       "  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,\n"
                       "  dimension TEXT NOT NULL,\n"
                       "  value TEXT NOT NULL,\n"
                       "  trace_id TEXT NOT NULL,\n"
                       "  PRIMARY KEY (org_id, dimension, value, trace_id))") +
               (pg ? "" : " WITHOUT ROWID"),
           "CREATE INDEX trace_facets_trace ON trace_facets(org_id, trace_id)",
           "CREATE TABLE trace_facet_state (\n"
           "  id INTEGER PRIMARY KEY,\n"
           "  backfill_until BIGINT NOT NULL,\n"
           "  backfilled_to BIGINT NOT NULL)",
           "INSERT INTO trace_facet_state (id, backfill_until, backfilled_to) "
           "SELECT 1, COALESCE(MAX(id), 0), 0 FROM events"}};
}

}  // namespace aev::store

#pragma once
// Migrations after v3, one file each (schema_<name>.cpp), listed in migrations.cpp.
#include <string>

#include "store/migrations.h"

namespace aev::store {

// The two dialects differ only in how a table gets its integer key; everything else
// (BIGINT microsecond times, INTEGER 0/1 booleans, TEXT, DOUBLE PRECISION) is written once.
std::string ddl(Dialect d, std::string sql);

Migration telemetryMigration(Dialect d);     // v4: telemetry columns, custom attributes
Migration environmentsMigration(Dialect d);  // v5: environments
Migration moderationMigration(Dialect d);    // v6: moderation rules and violations
Migration auditMigration(Dialect d);         // v7: audit log, heads, signed checkpoints
Migration spendMigration(Dialect d);         // v8: spend policies, counters, crossings, notifications
Migration deliveryMigration(Dialect d);      // v9: outbox, delivery attempts, webhook endpoints
Migration exportsMigration(Dialect d);       // v10: export destinations
Migration alertsMigration(Dialect d);        // v11: alert rules and their state history
Migration eventIndexesMigration(Dialect d);  // v12: the events index the v3 one made redundant
Migration traceUsageMigration(Dialect d);    // v13: tokens and cost on the trace rollup
Migration storeIdentityMigration(Dialect d);  // v14: live or backup, and the database it was written in
Migration sessionsMigration(Dialect d);       // v15: session and trace name (events, rollups)
Migration ingestMigration(Dialect d);         // v16: API keys' default channel, refused exports
Migration pluginConfigMigration(Dialect d);   // v17: per-use plugin configuration, min scores
Migration tokenDetailsMigration(Dialect d);   // v18: cached and reasoning tokens (events, trace rollups)
Migration traceTextsMigration(Dialect d);     // v19: trace input/output texts and tags, ends with durations
Migration rollupsMigration(Dialect d);        // v20: analytics rollups and their backfill state
Migration spendRefusalsMigration(Dialect d);  // v21: publishes refused by spend policies (count, newest rows)
Migration rollupDaysMigration(Dialect d);     // v22: day rollups (the rollups rebuilt by the backfill)
Migration traceFacetsMigration(Dialect d);    // v23: trace facets the trace lists filter by, and their backfill state
Migration rollupKeysMigration(Dialect d);     // v24: no foreign keys on the rollups' rows (PostgreSQL)

}  // namespace aev::store

// v16: ingest set-ups that send no channel, and refusals their clients cannot see.
//  - api_keys.default_channel_id: the channel an OTLP export goes to when neither the
//    request nor its resource names one; deleting the channel clears it (SET NULL).
//  - ingest_problems: the recent refused exports of each organization (GET
//    /ingest/problems), in the store so every node behind a load balancer shows the same
//    list; IngestProblemRepository keeps at most the newest 100 rows per organization.
#include "store/schema_parts.h"

namespace aev::store {

Migration ingestMigration(Dialect d) {
  return {
      16,
      "ingest",
      {"ALTER TABLE api_keys ADD COLUMN default_channel_id BIGINT REFERENCES channels(id) ON DELETE SET NULL",
       "CREATE INDEX api_keys_default_channel ON api_keys(default_channel_id)", ddl(d, R"(CREATE TABLE ingest_problems (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  occurred_at BIGINT NOT NULL,
  route TEXT NOT NULL,
  status INTEGER NOT NULL,
  reason TEXT NOT NULL,
  detail TEXT NOT NULL,
  api_key_id BIGINT,
  rejected_spans BIGINT NOT NULL DEFAULT 0))"),
       "CREATE INDEX ingest_problems_org ON ingest_problems(org_id, id)"}};
}

}  // namespace aev::store

// v18: cached input tokens (cache reads, a subset of input tokens) and reasoning tokens (a
// subset of output tokens) of an event, read from every GenAI convention that sends them
// (docs/integrations.md), as telemetry columns of events and sums on the trace rollup.
// Events stored before keep NULL; existing rollups start at 0 (their events carried none).
#include "store/schema_parts.h"

namespace aev::store {

Migration tokenDetailsMigration(Dialect) {
  Migration m{18, "token_details", {}};
  for (const char* column : {"cached_input_tokens BIGINT", "reasoning_tokens BIGINT"})
    m.statements.push_back(std::string("ALTER TABLE events ADD COLUMN ") + column);
  for (const char* column :
       {"cached_input_tokens BIGINT NOT NULL DEFAULT 0", "reasoning_tokens BIGINT NOT NULL DEFAULT 0"})
    m.statements.push_back(std::string("ALTER TABLE traces ADD COLUMN ") + column);
  return m;
}

}  // namespace aev::store

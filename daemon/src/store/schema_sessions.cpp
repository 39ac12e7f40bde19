// v15: the session (conversation) and trace name of an event (docs/integrations.md: read from
// every GenAI convention), as telemetry columns of events; and a trace's session, end user
// and name on its rollup, so listing sessions, end users and named traces reads no events.
// Events stored before keep NULL; existing rollups are filled from their events' end-user
// column (one probe of events_org_trace_time per trace).
#include "store/schema_parts.h"

namespace aev::store {

Migration sessionsMigration(Dialect) {
  Migration m{15, "sessions", {}};
  for (const char* column : {"session TEXT", "trace_name TEXT"})
    m.statements.push_back(std::string("ALTER TABLE events ADD COLUMN ") + column);
  for (const char* column : {"session_id TEXT", "user_id TEXT", "name TEXT"})
    m.statements.push_back(std::string("ALTER TABLE traces ADD COLUMN ") + column);
  m.statements.push_back(
      "UPDATE traces SET user_id = (SELECT MIN(e.end_user) FROM events e WHERE e.org_id = traces.org_id AND "
      "e.trace_id = traces.trace_id)");
  m.statements.push_back("CREATE INDEX traces_org_session ON traces(org_id, session_id, start_time)");
  m.statements.push_back("CREATE INDEX traces_org_user ON traces(org_id, user_id, start_time)");
  return m;
}

}  // namespace aev::store

// v5: environments (docs/api.md), named by id or slug in analytics and export filters.
#include "store/schema_parts.h"

namespace aev::store {

Migration environmentsMigration(Dialect d) {
  return {5,
          "environments",
          {ddl(d, R"(CREATE TABLE environments (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (org_id, slug)))")}};
}

}  // namespace aev::store

#include "store/schema_parts.h"

namespace aev::store {

std::string ddl(Dialect d, std::string sql) {
  const std::string pk = d == Dialect::SQLite ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGSERIAL PRIMARY KEY";
  for (std::size_t pos; (pos = sql.find("@PK@")) != std::string::npos;) sql.replace(pos, 4, pk);
  return sql;
}

}  // namespace aev::store

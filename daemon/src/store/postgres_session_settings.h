#pragma once
// database.postgresql_settings: the run-time settings the daemon gives each of its
// PostgreSQL sessions right after connecting ("jit=off, random_page_cost=1.1" by
// default; docs/operations.md says why). Each is applied with set_config(), so a value
// is a bound parameter, never SQL text.
#include <string>
#include <vector>

namespace aev::store {

struct PostgresSessionSetting {
  std::string name;   // a parameter name: letters, digits, '_' and '.', not starting with a digit
  std::string value;  // anything but empty; PostgreSQL checks it at connect
};

// "name=value, name=value" (commas or whitespace between items; empty is none). Throws
// std::invalid_argument naming the key and the item for a malformed or repeated item.
std::vector<PostgresSessionSetting> parsePostgresSessionSettings(const std::string& list);

}  // namespace aev::store

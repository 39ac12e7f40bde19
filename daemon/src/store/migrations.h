#pragma once
// Versioned schema migrations, one list per dialect, applied in order at start-up.
// A migration is a list of statements run in one transaction with its bookkeeping row,
// so a crash mid-migration leaves the previous version intact.
#include <string>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct Migration {
  int version;
  std::string name;
  std::vector<std::string> statements;
};

const std::vector<Migration>& migrationsFor(Dialect dialect);

// Applies every migration newer than the stored version; returns how many ran.
int migrate(Database& db);
int currentSchemaVersion(Database& db);

}  // namespace aev::store

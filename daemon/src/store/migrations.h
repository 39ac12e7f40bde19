#pragma once
// Versioned schema migrations, one list per dialect, applied in order at start-up.
// A migration is a list of statements run in one transaction with its bookkeeping row,
// so a crash mid-migration leaves the previous version intact.
#include <stdexcept>
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

// The newest schema version this build knows.
int latestSchemaVersion(Dialect dialect);

// A store written by a newer release (its schema has versions this build does not know):
// start-up stops before anything is changed (docs/operations.md#upgrades).
struct SchemaTooNew : std::runtime_error {
  SchemaTooNew(int found, int known);
  int found;
  int known;
};

// Applies every migration newer than the stored version; returns how many ran. Throws
// SchemaTooNew, having changed nothing, when the store is newer than this build.
int migrate(Database& db);
int currentSchemaVersion(Database& db);

}  // namespace aev::store

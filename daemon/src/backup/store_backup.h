#pragma once
// `agent-eventsd backup DIR` and `agent-eventsd restore DIR | --in-place`
// (docs/operations.md#backup-and-restore).
//
// Backup: a consistent copy of the store taken while the daemon keeps serving, its keys,
// and backup.json (written last: a directory without it is unfinished).
//   SQLite      VACUUM INTO from a read transaction of this process: one snapshot, copied
//               without holding any lock a writer waits for, so it finishes under full
//               publish load (the sqlite3 shell's .backup restarts at every commit and
//               may never finish). The copy is checked (quick_check) and marked `backup`.
//   PostgreSQL  pg_dump --format=custom (one repeatable-read snapshot).
// Restore: into an empty data dir or database; the store is migrated to this build's
// schema and made live with every id sequence moved past anything the original may have
// issued after the backup (store/store_identity.h), so a stale stream position gets
// `event: reset`, never a silent resume in the wrong place.
#include <Poco/Util/AbstractConfiguration.h>

#include <ostream>
#include <string>

#include "backup/backup_manifest.h"
#include "store/database.h"

namespace aev::backup {

struct StoreLocation {
  store::DatabaseOptions database;  // the configured store; one connection is all a command uses
  std::string auditKeyPath;         // where the configuration keeps the audit signing key
  const Poco::Util::AbstractConfiguration* config = nullptr;
};

// Throws std::runtime_error with a message for the operator; writes progress to `out`.
BackupManifest takeBackup(const StoreLocation& where, const std::string& dir, std::ostream& out);

struct RestoreResult {
  int schemaVersion = 0;
  std::int64_t nextEventId = 0;  // the first id the restored store will issue
};

RestoreResult restoreBackup(const StoreLocation& where, const std::string& dir, std::ostream& out);

// The store in place was restored by hand (files copied, pg_restore, psql): make it safe.
RestoreResult restoreInPlace(const StoreLocation& where, std::ostream& out);

}  // namespace aev::backup

#pragma once
// pg_dump and pg_restore, run as child processes (never through a shell) for the backup
// and restore commands. They are PostgreSQL's own consistent dump (one repeatable-read
// snapshot, taken while the daemon keeps writing) and its loader.
#include <string>

namespace aev::backup {

// The newest of PATH's and /usr/lib/postgresql/*/bin's copies of `tool` (pg_dump refuses a
// server newer than itself, so the newest installed is the one to use). Throws naming the
// Debian package when there is none.
std::string postgresTool(const std::string& tool);

// pg_dump --format=custom of the database `conninfo` (libpq keywords or a URL; whatever
// libpq reads from the environment, PGPASSWORD included, applies) into `file`. Throws with
// the tool's own message when it fails.
void dumpDatabase(const std::string& conninfo, const std::string& file);

// pg_restore of `file` into the database `conninfo` in one transaction, without owners or
// grants (the target database's role owns what it restores). Throws with the tool's message.
void restoreDatabase(const std::string& conninfo, const std::string& file);

}  // namespace aev::backup

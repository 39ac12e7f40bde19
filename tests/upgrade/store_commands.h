#pragma once
// The upgrade and backup suites' shared steps: loading a store into a daemon's data dir or
// database the way an operator would by hand, and running agent-eventsd's store commands
// (backup, restore, audit verify) against a test daemon's configuration.
#include <string>
#include <vector>

#include "support/daemon_process.h"
#include "support/process.h"

namespace aev::testing::upgrade {

// agent-eventsd --config <daemon's> --data-dir <daemon's> [--database-url ...] <words...>
CommandResult runStoreCommand(const DaemonProcess& daemon, const std::vector<std::string>& words);

// Runs SQL on the daemon's store with the stores' own shells (sqlite3 / psql); returns
// their output (tuples only). Throws on failure.
std::string storeSql(const DaemonProcess& daemon, const std::string& sql);

// Unpacks a .tar.gz into `dir` (created when missing); loads a gzipped SQL dump into the
// PostgreSQL database at `url` with psql. Both throw with the tool's output.
void untar(const std::string& archive, const std::string& dir);
void loadSqlDump(const std::string& gzippedDump, const std::string& url);

}  // namespace aev::testing::upgrade

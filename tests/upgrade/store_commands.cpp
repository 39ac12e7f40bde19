#include "upgrade/store_commands.h"

#include <filesystem>
#include <stdexcept>

#include "support/postgres_server.h"

namespace aev::testing::upgrade {

CommandResult runStoreCommand(const DaemonProcess& daemon, const std::vector<std::string>& words) {
  std::vector<std::string> argv = {DaemonProcess::binaryPath(), "--config", daemon.configPath(), "--data-dir",
                                   daemon.dataDir()};
  if (!daemon.databaseUrl().empty()) {
    argv.push_back("--database-url");
    argv.push_back(daemon.databaseUrl());
  }
  argv.insert(argv.end(), words.begin(), words.end());
  return runCommand(argv, std::chrono::minutes(5));
}

std::string storeSql(const DaemonProcess& daemon, const std::string& sql) {
  CommandResult r;
  if (daemon.databaseUrl().empty())
    r = runCommand({"sqlite3", "-bail", (std::filesystem::path(daemon.dataDir()) / "agent-events.db").string(), sql});
  else
    r = runCommand({PostgresServer::binDir() + "/psql", "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-d",
                    daemon.databaseUrl(), "-c", sql});
  if (!r.ok()) throw std::runtime_error("SQL failed: " + sql + "\n" + r.output);
  return r.output;
}

void untar(const std::string& archive, const std::string& dir) {
  std::filesystem::create_directories(dir);
  auto r = runCommand({"tar", "-C", dir, "-xzf", archive});
  if (!r.ok()) throw std::runtime_error("tar -xzf " + archive + " failed: " + r.output);
}

void loadSqlDump(const std::string& gzippedDump, const std::string& url) {
  auto r = runCommand({"sh", "-c", "gunzip -c \"$0\" | \"$1\" -X -q -v ON_ERROR_STOP=1 -d \"$2\" >/dev/null",
                       gzippedDump, PostgresServer::binDir() + "/psql", url});
  if (!r.ok()) throw std::runtime_error("loading " + gzippedDump + " failed: " + r.output);
}

}  // namespace aev::testing::upgrade

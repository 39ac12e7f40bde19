#pragma once
// The built agent-eventsd as a child process on a free loopback port with a fresh data
// dir, its output captured to <tmp>/daemon.log. The binary comes from $AEV_DAEMON_BIN.
#include <sys/types.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/http_client.h"
#include "support/process.h"

namespace aev::testing {

struct DaemonOptions {
  // Written to the generated properties file (after the test defaults, so they win).
  std::map<std::string, std::string> config;
  // Passed as --set key=value (the highest configuration layer).
  std::map<std::string, std::string> set;
  // Extra environment variables for the daemon (AGENT_EVENTS_* from the test's own
  // environment are removed, so only these reach it).
  std::map<std::string, std::string> env;
  // Any further command-line arguments.
  std::vector<std::string> extraArgs;
  // --database-url; std::nullopt = a fresh database for the selected backend
  // (see backend.h), "" = SQLite in the data dir.
  std::optional<std::string> databaseUrl;
  std::chrono::milliseconds readyTimeout = std::chrono::seconds(15);
};

class DaemonProcess {
 public:
  explicit DaemonProcess(DaemonOptions options = {});
  // Kills a still-running daemon (SIGKILL) and removes the temp dir.
  ~DaemonProcess();
  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;

  static std::string binaryPath();  // $AEV_DAEMON_BIN; throws when unset or missing

  // Starts and waits until GET /readyz answers 200. Throws std::runtime_error with the
  // log tail when it exits early or is not ready in time.
  void start();
  // SIGTERM and wait; returns how it ended. Kills it after `timeout`.
  ExitStatus stop(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  void kill();
  // Writes the configuration file (and makes the data dir) without starting: for commands
  // run on the daemon's store before its first start (restore). start() writes it again.
  void prepare();
  // stop() then start() on the same port, data dir and database.
  ExitStatus restart();
  bool running();

  pid_t pid() const { return pid_; }
  int port() const { return port_; }
  std::string host() const { return "127.0.0.1"; }
  std::string baseUrl() const { return "http://127.0.0.1:" + std::to_string(port_); }
  const std::string& dataDir() const { return dataDir_; }
  const std::string& databaseUrl() const { return databaseUrl_; }
  const std::string& configPath() const { return configPath_; }
  const std::string& logPath() const { return logPath_; }
  std::string logTail(std::size_t lines = 80) const { return tailOfFile(logPath_, lines); }
  std::string log() const { return readFile(logPath_); }
  std::vector<std::string> commandLine() const;
  // An unauthenticated client for this daemon.
  HttpClient client() const { return HttpClient("127.0.0.1", port_); }

 private:
  void writeConfig();
  bool launchOnce(std::string& failure);

  DaemonOptions options_;
  std::unique_ptr<TempDir> dir_;
  std::string dataDir_;
  std::string configPath_;
  std::string logPath_;
  std::string databaseUrl_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace aev::testing

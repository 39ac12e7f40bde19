#pragma once
// A throw-away PostgreSQL server for tests: initdb into a fresh temp dir, start it on a
// free loopback port, hand out one fresh database per caller, stop and delete it at exit.
// As root (initdb and postgres refuse to run as root) the server runs as the `postgres`
// system user through runuser.
#include <memory>
#include <mutex>
#include <string>

#include "support/process.h"

namespace aev::testing {

class PostgresServer {
 public:
  // The process-wide server, started on first use and stopped at exit. Throws
  // std::runtime_error (with the server log) when it cannot start.
  static PostgresServer& instance();
  // The directory with initdb/pg_ctl/postgres, "" when PostgreSQL is not installed.
  // Honours $AEV_PG_BIN; else /usr/lib/postgresql/15/bin, else the newest
  // /usr/lib/postgresql/*/bin.
  static std::string binDir();
  static bool available() { return !binDir().empty(); }

  // Commits are not flushed to the server's WAL (synchronous_commit=off: faster tests)
  // unless `durableCommits`; a test that crashes the server (crash()) needs them flushed.
  explicit PostgresServer(bool durableCommits = false);
  ~PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // Creates a database (a unique name when `name` is empty) and returns its URL,
  // postgresql://USER@127.0.0.1:PORT/NAME (plus ?$AEV_PG_URL_QUERY when set).
  std::string createDatabase(const std::string& name = "");
  // Runs one SQL statement with psql against `database`; returns psql's output
  // (tuples only, unaligned). Throws on failure.
  std::string psql(const std::string& database, const std::string& sql);

  // An outage: `pg_ctl stop -m immediate` (no shutdown checkpoint, every connection cut,
  // crash recovery at the next start), then startAgain() on the same port and data.
  void crash();
  // A planned restart as an operator does it: `pg_ctl stop -m fast` (sessions are
  // terminated, a shutdown checkpoint is written), then startAgain().
  void stopFast();
  void startAgain();

  int port() const { return port_; }
  const std::string& user() const { return user_; }
  std::string url(const std::string& database) const;
  std::string logTail() const;

 private:
  void start();
  bool launch(std::string& error);  // pg_ctl start on port_
  void stop();
  std::vector<std::string> asServerUser(std::vector<std::string> argv) const;
  std::string tool(const std::string& name) const;

  std::unique_ptr<TempDir> dir_;
  std::string bin_;
  std::string user_ = "aev_test";
  int port_ = 0;
  bool running_ = false;
  bool durableCommits_ = false;
  int counter_ = 0;
  std::mutex mutex_;
};

}  // namespace aev::testing

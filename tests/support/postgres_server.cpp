#include "support/postgres_server.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace aev::testing {

namespace {
bool runningAsRoot() { return ::geteuid() == 0; }

constexpr const char* kServerUser = "postgres";

// chown -R to the server user (only needed as root).
void chownTree(const std::string& path, uid_t uid, gid_t gid) {
  if (::chown(path.c_str(), uid, gid) != 0) throw std::runtime_error("chown " + path + " failed");
  for (const auto& entry : fs::recursive_directory_iterator(path)) ::lchown(entry.path().c_str(), uid, gid);
}
}  // namespace

std::string PostgresServer::binDir() {
  if (const char* env = std::getenv("AEV_PG_BIN"); env && *env) return fs::exists(fs::path(env) / "initdb") ? env : "";
  if (fs::exists("/usr/lib/postgresql/15/bin/initdb")) return "/usr/lib/postgresql/15/bin";
  std::vector<std::pair<int, std::string>> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    auto bin = entry.path() / "bin";
    if (!fs::exists(bin / "initdb")) continue;
    int version = std::atoi(entry.path().filename().c_str());
    found.emplace_back(version, bin.string());
  }
  if (found.empty()) return "";
  std::sort(found.begin(), found.end());
  return found.back().second;
}

PostgresServer& PostgresServer::instance() {
  // Constructed on first use, destroyed (server stopped) during static destruction.
  static PostgresServer server;
  return server;
}

PostgresServer::PostgresServer(bool durableCommits) : durableCommits_(durableCommits) {
  bin_ = binDir();
  if (bin_.empty()) throw std::runtime_error("PostgreSQL binaries not found (set AEV_PG_BIN)");
  start();
}

PostgresServer::~PostgresServer() {
  try {
    stop();
  } catch (const std::exception& e) {
    std::cerr << "warning: stopping the test PostgreSQL failed: " << e.what() << std::endl;
  }
}

std::string PostgresServer::tool(const std::string& name) const {
  auto p = fs::path(bin_) / name;
  if (fs::exists(p)) return p.string();
  return name;  // PATH (e.g. /usr/bin/psql)
}

std::vector<std::string> PostgresServer::asServerUser(std::vector<std::string> argv) const {
  if (!runningAsRoot()) return argv;
  std::vector<std::string> out{"runuser", "-u", kServerUser, "--"};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

std::string PostgresServer::url(const std::string& database) const {
  std::string url = "postgresql://" + user_ + "@127.0.0.1:" + std::to_string(port_) + "/" + database;
  // Extra libpq parameters for every URL handed out, e.g. AEV_PG_URL_QUERY=connect_timeout=5
  if (const char* query = std::getenv("AEV_PG_URL_QUERY"); query && *query) url += std::string("?") + query;
  return url;
}

std::string PostgresServer::logTail() const { return dir_ ? tailOfFile(dir_->file("postgres.log"), 80) : ""; }

void PostgresServer::start() {
  dir_ = std::make_unique<TempDir>("aev-pg");
  const std::string data = dir_->file("data");
  if (runningAsRoot()) {
    passwd* pw = ::getpwnam(kServerUser);
    if (!pw) throw std::runtime_error("running as root but there is no 'postgres' user to run PostgreSQL as");
    ::chmod(dir_->path().c_str(), 0755);
    chownTree(dir_->path(), pw->pw_uid, pw->pw_gid);
  }

  auto init = runCommand(
      asServerUser({tool("initdb"), "-D", data, "-A", "trust", "-U", user_, "--no-sync", "-E", "UTF8", "--locale=C"}));
  if (!init.ok()) throw std::runtime_error("initdb failed (" + init.status.describe() + "):\n" + init.output);

  std::string lastError;
  for (int attempt = 0; attempt < 5 && !running_; ++attempt) {
    port_ = freeLoopbackPort();
    running_ = launch(lastError);  // on failure, most likely a port taken in the meantime: another one
  }
  if (!running_) throw std::runtime_error(lastError);

  // Accepting TCP connections as our user?
  for (int i = 0; i < 100; ++i) {
    auto r =
        runCommand({tool("pg_isready"), "-h", "127.0.0.1", "-p", std::to_string(port_), "-U", user_, "-d", "postgres"});
    if (r.ok()) return;
    usleep(100 * 1000);
  }
  throw std::runtime_error("PostgreSQL did not become ready:\n" + logTail());
}

bool PostgresServer::launch(std::string& error) {
  const std::string options = "-p " + std::to_string(port_) +
                              " -c listen_addresses=127.0.0.1 -c unix_socket_directories=" + dir_->path() +
                              " -c fsync=off -c full_page_writes=off -c max_connections=300 -c shared_buffers=32MB" +
                              (durableCommits_ ? "" : " -c synchronous_commit=off");
  auto r = runCommand(asServerUser({tool("pg_ctl"), "-D", dir_->file("data"), "-l", dir_->file("postgres.log"), "-w",
                                    "-t", "60", "-o", options, "start"}),
                      std::chrono::seconds(90));
  if (!r.ok()) error = "pg_ctl start failed (" + r.status.describe() + "):\n" + r.output + "\n" + logTail();
  return r.ok();
}

void PostgresServer::crash() {
  auto r = runCommand(asServerUser({tool("pg_ctl"), "-D", dir_->file("data"), "-m", "immediate", "-w", "stop"}),
                      std::chrono::seconds(60));
  if (!r.ok()) throw std::runtime_error("pg_ctl stop -m immediate failed: " + r.output);
  running_ = false;
}

void PostgresServer::stopFast() {
  auto r = runCommand(asServerUser({tool("pg_ctl"), "-D", dir_->file("data"), "-m", "fast", "-w", "-t", "60", "stop"}),
                      std::chrono::seconds(90));
  if (!r.ok()) throw std::runtime_error("pg_ctl stop -m fast failed: " + r.output);
  running_ = false;
}

void PostgresServer::startAgain() {
  std::string error;
  if (!launch(error)) throw std::runtime_error(error);
  running_ = true;
}

void PostgresServer::stop() {
  if (!running_) return;
  running_ = false;
  auto r = runCommand(asServerUser({tool("pg_ctl"), "-D", dir_->file("data"), "-m", "fast", "-w", "-t", "60", "stop"}),
                      std::chrono::seconds(90));
  if (!r.ok()) {
    // Last resort: immediate shutdown, so no server outlives the test run.
    runCommand(asServerUser({tool("pg_ctl"), "-D", dir_->file("data"), "-m", "immediate", "-w", "stop"}),
               std::chrono::seconds(30));
  }
  dir_.reset();
}

std::string PostgresServer::psql(const std::string& database, const std::string& sql) {
  auto r = runCommand({tool("psql"), "-h", "127.0.0.1", "-p", std::to_string(port_), "-U", user_, "-d", database, "-v",
                       "ON_ERROR_STOP=1", "-X", "-q", "-t", "-A", "-c", sql});
  if (!r.ok()) throw std::runtime_error("psql failed (" + r.status.describe() + "): " + sql + "\n" + r.output);
  return r.output;
}

std::string PostgresServer::createDatabase(const std::string& name) {
  std::string db = name;
  {
    std::lock_guard lock(mutex_);
    if (db.empty()) db = "aev_test_" + std::to_string(::getpid()) + "_" + std::to_string(++counter_);
  }
  psql("postgres", "CREATE DATABASE \"" + db + "\"");
  return url(db);
}

}  // namespace aev::testing

#include "store/database.h"

#include <Poco/Data/PostgreSQL/Connector.h>
#include <Poco/Data/SQLite/Connector.h>
#include <Poco/URI.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "common/blocking_hint.h"
#include "common/exceptions.h"
#include "common/storage_unavailable.h"
#include "store/database_url.h"
#include "store/postgres_conninfo.h"
#include "store/postgres_session_settings.h"
#include "store/sqlite_wal_coalescer.h"
#include "store/statement_runner.h"

namespace aev::store {

bool isPostgresUrl(const std::string& url) {
  return url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0;
}

// ---------------------------------------------------------------- Row

const Poco::Dynamic::Var& Row::at(const std::string& column) const {
  for (std::size_t i = 0; i < columns_->size(); ++i)
    if ((*columns_)[i] == column) return values_[i];
  throw std::logic_error("no column '" + column + "' in result");
}

bool Row::isNull(const std::string& column) const { return at(column).isEmpty(); }

std::int64_t Row::i64(const std::string& column) const {
  const auto& v = at(column);
  return v.isEmpty() ? 0 : v.convert<Poco::Int64>();
}

std::optional<std::int64_t> Row::optI64(const std::string& column) const {
  const auto& v = at(column);
  if (v.isEmpty()) return std::nullopt;
  return v.convert<Poco::Int64>();
}

double Row::f64(const std::string& column) const {
  const auto& v = at(column);
  return v.isEmpty() ? 0.0 : v.convert<double>();
}

std::string Row::str(const std::string& column) const {
  const auto& v = at(column);
  return v.isEmpty() ? std::string() : v.convert<std::string>();
}

std::optional<std::string> Row::optStr(const std::string& column) const {
  const auto& v = at(column);
  if (v.isEmpty()) return std::nullopt;
  return v.convert<std::string>();
}

bool Row::boolean(const std::string& column) const {
  const auto& v = at(column);
  if (v.isEmpty()) return false;
  if (v.isString()) {
    auto s = v.convert<std::string>();
    return s == "1" || s == "t" || s == "true";
  }
  return v.convert<Poco::Int64>() != 0;
}

// ---------------------------------------------------------------- placeholders

std::string rewritePlaceholders(const std::string& sql) {
  std::string out;
  out.reserve(sql.size() + 16);
  int n = 0;
  char quote = 0;
  for (char c : sql) {
    if (quote) {
      if (c == quote) quote = 0;
      out += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      out += c;
    } else if (c == '?') {
      out += '$';
      out += std::to_string(++n);
    } else {
      out += c;
    }
  }
  return out;
}

// ---------------------------------------------------------------- Connection

PooledSession::PooledSession() = default;
PooledSession::PooledSession(PooledSession&&) noexcept = default;
PooledSession& PooledSession::operator=(PooledSession&&) noexcept = default;
PooledSession::~PooledSession() = default;  // members in reverse: the runner before its session

Connection::Connection(Database& db, PooledSession session) : db_(db), session_(std::move(session)) {}

Connection::~Connection() { db_.release(std::move(session_)); }

Dialect Connection::dialect() const { return db_.dialect(); }

Rows Connection::query(const std::string& sql, Params params) { return session_.runner->run(sql, params); }

std::int64_t Connection::insert(const std::string& sql, Params params) {
  auto rows = query(sql, std::move(params));
  if (rows.empty()) throw std::runtime_error("INSERT ... RETURNING returned no row");
  return rows.front().i64(rows.columns->front());
}

// ---------------------------------------------------------------- Transaction

Transaction::Transaction(Connection& conn) : conn_(conn) {
  // IMMEDIATE takes SQLite's write lock up front, so the busy timeout applies instead of
  // a deadlock-prone lock upgrade in the middle of the transaction.
  if (conn_.dialect() == Dialect::SQLite) BlockingHint::aboutToBlock();  // may wait for the write lock
  conn_.exec(conn_.dialect() == Dialect::SQLite ? "BEGIN IMMEDIATE" : "BEGIN");
}

Transaction::~Transaction() {
  if (done_) return;
  try {
    conn_.exec("ROLLBACK");
  } catch (...) {
  }
}

void Transaction::commit() {
  if (conn_.dialect() == Dialect::SQLite) BlockingHint::aboutToBlock();  // the fsync
  conn_.exec("COMMIT");
  done_ = true;
}

// ---------------------------------------------------------------- Database

namespace {
void registerConnectors() {
  static const bool once = [] {
    // The pool hands each connection to one thread at a time, so SQLite's per-connection
    // mutexes (its default "serialized" mode takes one on every bind, step and column read)
    // guard nothing here and cost about 6 % of the daemon's CPU in batch publishing
    // (bench/NOTEBOOK.md, 2026-11-28). SQLite takes this only before it initializes; if
    // something in the process already opened a database, it stays serialized (still correct).
    if (sqlite3_config(SQLITE_CONFIG_MULTITHREAD) != SQLITE_OK)
      spdlog::debug("sqlite: already initialized; keeping its serialized threading mode");
    Poco::Data::SQLite::Connector::registerConnector();
    Poco::Data::PostgreSQL::Connector::registerConnector();
    return true;
  }();
  (void)once;
}

std::string redactUrl(const std::string& url) {
  try {
    Poco::URI uri(url);
    std::string userInfo = uri.getUserInfo();
    auto colon = userInfo.find(':');
    if (colon != std::string::npos) uri.setUserInfo(userInfo.substr(0, colon) + ":***");
    return uri.toString();
  } catch (...) {
    return "postgresql://(unparsable url)";
  }
}
// SQLite reads an unknown `PRAGMA synchronous` value as NORMAL: a typo ("FULLL") would
// quietly drop the fsync of every commit. So only the four names are accepted.
std::string checkedSynchronous(const std::string& value) {
  std::string upper = value;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "OFF" || upper == "NORMAL" || upper == "FULL" || upper == "EXTRA") return upper;
  throw std::invalid_argument("database.sqlite_synchronous must be OFF, NORMAL, FULL or EXTRA, not \"" + value + "\"");
}
}  // namespace

Database::Database(DatabaseOptions options) : options_(std::move(options)) {
  registerConnectors();
  if (isPostgresUrl(options_.url)) {
    dialect_ = Dialect::PostgreSQL;
    connector_ = "postgresql";
    auto settings = postgresConnectionSettings(options_.url);
    // Before the first connection: libpq reads these when the conninfo lacks the keyword.
    for (const auto& [name, value] : settings.environment) ::setenv(name.c_str(), value.c_str(), 1);
    connectionString_ = std::move(settings.conninfo);
    description_ = "postgresql " + redactUrl(options_.url);
    sessionSettings_ = parsePostgresSessionSettings(options_.postgresSettings);
  } else {
    dialect_ = Dialect::SQLite;
    connector_ = "sqlite";
    options_.sqliteSynchronous = checkedSynchronous(options_.sqliteSynchronous);
    installWalWriteCoalescer();  // before the first connection: it becomes SQLite's default VFS
    setEveryCommitSyncsWal(options_.sqliteSynchronous == "FULL" || options_.sqliteSynchronous == "EXTRA");
    std::string path = options_.url;
    if (path.rfind("sqlite://", 0) == 0) path = path.substr(9);
    if (path.empty()) path = (std::filesystem::path(options_.dataDir) / "agent-events.db").string();
    std::filesystem::create_directories(std::filesystem::path(path).parent_path().empty()
                                            ? std::filesystem::path(".")
                                            : std::filesystem::path(path).parent_path());
    connectionString_ = path;
    description_ = "sqlite " + path;
  }
  // Open one session now so a bad URL fails at start-up, not on the first request.
  open_ = 1;
  release(openSession());
}

Database::~Database() { close(); }

PooledSession Database::openSession() {
  // Here, not at file scope: in a unity batch the keywords (now, use, into...) would reach
  // the files compiled after this one.
  using Poco::Data::Keywords::now;
  std::unique_ptr<Poco::Data::Session> session;
  try {
    session = std::make_unique<Poco::Data::Session>(connector_, connectionString_);
  } catch (const std::exception& e) {
    // The server is down or unreachable, or the file cannot be opened: the store is
    // unavailable (a 503 to the request that needed it), not our code wrong.
    throw StorageUnavailable("cannot open a " + connector_ + " connection: " + describeException(e));
  }
  if (dialect_ == Dialect::SQLite) {
    *session << "PRAGMA journal_mode=WAL", now;
    *session << ("PRAGMA synchronous=" + options_.sqliteSynchronous), now;
    *session << ("PRAGMA busy_timeout=" + std::to_string(options_.busyTimeoutMs)), now;
    *session << "PRAGMA foreign_keys=ON", now;
  } else {
    // Server NOTICEs ("already exists, skipping") would reach stderr unformatted. (Poco
    // splits the conninfo on spaces, so this cannot go in `options=-c ...`.)
    *session << "SET client_min_messages = warning", now;
  }
  PooledSession pooled;
  pooled.runner = dialect_ == Dialect::SQLite ? makeSqliteRunner(*session, options_.statementCacheSize)
                                              : makePostgresRunner(*session, options_.statementCacheSize);
  if (dialect_ == Dialect::PostgreSQL) applySessionSettings(*pooled.runner);
  pooled.session = std::move(session);
  return pooled;
}

void Database::applySessionSettings(StatementRunner& runner) {
  for (const auto& s : sessionSettings_) {
    try {
      runner.run("SELECT set_config(?, ?, false)", Params{s.name, s.value});
    } catch (const StorageUnavailable&) {
      throw;  // the connection went away: a 503 like any other, not a refused setting
    } catch (const std::exception& e) {
      // A name PostgreSQL does not know or a value it refuses: the same on every
      // connection, so it stops start-up rather than fail each request.
      throw std::invalid_argument("database.postgresql_settings: PostgreSQL refused " + s.name + "=" + s.value + ": " +
                                  describeException(e));
    }
  }
}

std::unique_ptr<Connection> Database::acquire() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (closed_) throw std::runtime_error("database is closed");
    if (!idle_.empty()) {
      auto session = std::move(idle_.back());
      idle_.pop_back();
      return std::make_unique<Connection>(*this, std::move(session));
    }
    if (open_ < options_.poolSize) {
      ++open_;
      lock.unlock();
      try {
        return std::make_unique<Connection>(*this, openSession());
      } catch (...) {
        lock.lock();
        --open_;
        throw;
      }
    }
    BlockingHint::aboutToBlock();
    if (!available_.wait_for(lock, std::chrono::seconds(30), [&] { return !idle_.empty() || closed_; }))
      throw std::runtime_error("timed out waiting for a database connection");
  }
}

void Database::release(PooledSession session) {
  if (!session.session) return;
  std::vector<PooledSession> dropped;  // closed after the lock is released
  std::lock_guard lock(mutex_);
  if (closed_ || !session.runner->healthy() || !session.session->isConnected()) {
    --open_;
    dropped.push_back(std::move(session));
    // A lost connection (PostgreSQL restarted or failed over) means the idle ones are
    // most likely lost too, though nothing tells until each is used: drop them now, so
    // that once the server is back the next requests get new connections instead of
    // failing one by one on the old ones.
    if (!closed_ && !dropped.back().runner->healthy()) {
      open_ -= static_cast<int>(idle_.size());
      for (auto& idle : idle_) dropped.push_back(std::move(idle));
      idle_.clear();
    }
    available_.notify_all();
    return;
  }
  idle_.push_back(std::move(session));
  available_.notify_one();
}

Rows Database::query(const std::string& sql, Params params) { return acquire()->query(sql, std::move(params)); }

std::size_t Database::exec(const std::string& sql, Params params) { return acquire()->exec(sql, std::move(params)); }

std::int64_t Database::insert(const std::string& sql, Params params) {
  return acquire()->insert(sql, std::move(params));
}

bool Database::ping() {
  try {
    auto rows = query("SELECT 1 AS one");
    return !rows.empty() && rows.front().i64("one") == 1;
  } catch (...) {
    return false;
  }
}

void Database::close() {
  std::vector<PooledSession> sessions;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    sessions.swap(idle_);
    open_ -= static_cast<int>(sessions.size());
  }
  for (auto& s : sessions) {
    try {
      s.runner.reset();
      s.session->close();
    } catch (...) {
    }
  }
  available_.notify_all();
}

}  // namespace aev::store

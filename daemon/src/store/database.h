#pragma once
// One small facade over Poco::Data for both dialects: a fixed pool of sessions, `?`
// placeholders everywhere (rewritten to $n for PostgreSQL), values bound from a
// variant, rows read back as Poco::Dynamic::Var. Repositories use only this.
#include <Poco/Data/Session.h>
#include <Poco/Dynamic/Var.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "store/postgres_session_settings.h"

namespace aev::store {

enum class Dialect { SQLite, PostgreSQL };

using SqlValue = std::variant<std::monostate, std::int64_t, double, std::string>;
using Params = std::vector<SqlValue>;

inline SqlValue nullValue() { return std::monostate{}; }
template <class T>
SqlValue optionalValue(const std::optional<T>& v) {
  if (!v) return std::monostate{};
  if constexpr (std::is_same_v<T, bool>) return static_cast<std::int64_t>(*v ? 1 : 0);
  else if constexpr (std::is_integral_v<T>) return static_cast<std::int64_t>(*v);
  else return *v;
}

class Row {
 public:
  Row(std::shared_ptr<const std::vector<std::string>> columns, std::vector<Poco::Dynamic::Var> values)
      : columns_(std::move(columns)), values_(std::move(values)) {}
  bool isNull(const std::string& column) const;
  std::int64_t i64(const std::string& column) const;
  std::optional<std::int64_t> optI64(const std::string& column) const;
  double f64(const std::string& column) const;
  std::string str(const std::string& column) const;  // "" for NULL
  std::optional<std::string> optStr(const std::string& column) const;
  bool boolean(const std::string& column) const;

 private:
  const Poco::Dynamic::Var& at(const std::string& column) const;
  std::shared_ptr<const std::vector<std::string>> columns_;
  std::vector<Poco::Dynamic::Var> values_;
};

class Rows {
 public:
  std::shared_ptr<const std::vector<std::string>> columns;
  std::vector<Row> rows;
  std::size_t affected = 0;
  // SQLite only, after an INSERT: the rowid of the last row it inserted (the connection's
  // sqlite3_last_insert_rowid once a statement changed rows; 0 when it changed none).
  std::int64_t lastInsertRowid = 0;
  bool empty() const { return rows.empty(); }
  std::size_t size() const { return rows.size(); }
  const Row& front() const { return rows.front(); }
  auto begin() const { return rows.begin(); }
  auto end() const { return rows.end(); }
};

struct DatabaseOptions {
  std::string url;      // "" or sqlite path → SQLite; postgresql://... → PostgreSQL
  std::string dataDir;  // where the SQLite file lives
  int poolSize = 8;
  std::string sqliteSynchronous = "FULL";
  int busyTimeoutMs = 10000;
  std::size_t statementCacheSize = 256;  // prepared statements kept per connection
  // database.postgresql_settings, given to every PostgreSQL session as it opens.
  std::string postgresSettings;
};

class Database;
class StatementRunner;

// A pooled session and the runner that executes SQL on its native handle (the runner
// is destroyed first: it finalizes its prepared statements on the open connection).
struct PooledSession {
  std::unique_ptr<Poco::Data::Session> session;
  std::unique_ptr<StatementRunner> runner;
  PooledSession();
  PooledSession(PooledSession&&) noexcept;
  PooledSession& operator=(PooledSession&&) noexcept;
  ~PooledSession();
};

// A session borrowed from the pool; statements run on it in order. A Transaction
// wraps one in BEGIN/COMMIT and rolls back if it is destroyed without commit.
class Connection {
 public:
  Connection(Database& db, PooledSession session);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  Rows query(const std::string& sql, Params params = {});
  std::size_t exec(const std::string& sql, Params params = {}) { return query(sql, std::move(params)).affected; }
  // INSERT ... RETURNING id (both dialects support RETURNING).
  std::int64_t insert(const std::string& sql, Params params = {});
  Dialect dialect() const;

 private:
  friend class Transaction;
  Database& db_;
  PooledSession session_;
};

class Transaction {
 public:
  explicit Transaction(Connection& conn);
  ~Transaction();
  void commit();

 private:
  Connection& conn_;
  bool done_ = false;
};

class Database {
 public:
  explicit Database(DatabaseOptions options);
  ~Database();

  Dialect dialect() const { return dialect_; }
  const std::string& describe() const { return description_; }
  // libpq conninfo (PostgreSQL) or the file path (SQLite): for a dedicated connection.
  const std::string& connectionString() const { return connectionString_; }

  std::unique_ptr<Connection> acquire();
  Rows query(const std::string& sql, Params params = {});
  std::size_t exec(const std::string& sql, Params params = {});
  std::int64_t insert(const std::string& sql, Params params = {});

  // Runs fn inside one transaction on one connection; commits when fn returns, rolls
  // back when it throws. Retries (SQLite busy / PostgreSQL serialization) are not
  // attempted: callers see the error.
  template <class F>
  auto transaction(F&& fn) {
    auto conn = acquire();
    Transaction tx(*conn);
    if constexpr (std::is_void_v<decltype(fn(*conn))>) {
      fn(*conn);
      tx.commit();
    } else {
      auto result = fn(*conn);
      tx.commit();
      return result;
    }
  }

  bool ping();
  void close();

 private:
  friend class Connection;
  PooledSession openSession();
  void applySessionSettings(StatementRunner& runner);
  void release(PooledSession session);

  DatabaseOptions options_;
  Dialect dialect_;
  std::string connector_;
  std::string connectionString_;
  std::string description_;
  std::vector<PostgresSessionSetting> sessionSettings_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<PooledSession> idle_;
  int open_ = 0;
  bool closed_ = false;
};

// "?" → "$1", "$2", ... outside quoted literals.
std::string rewritePlaceholders(const std::string& sql);

}  // namespace aev::store

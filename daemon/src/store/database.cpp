#include "store/database.h"

#include <Poco/Data/PostgreSQL/Connector.h>
#include <Poco/Data/RecordSet.h>
#include <Poco/Data/SQLite/Connector.h>
#include <Poco/Data/Statement.h>
#include <Poco/Nullable.h>
#include <Poco/URI.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>

using namespace Poco::Data::Keywords;

namespace aev::store {

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

Connection::Connection(Database& db, std::unique_ptr<Poco::Data::Session> session)
    : db_(db), session_(std::move(session)) {}

Connection::~Connection() { db_.release(std::move(session_)); }

Dialect Connection::dialect() const { return db_.dialect(); }

Rows Connection::query(const std::string& sql, Params params) {
  Poco::Data::Statement stmt(*session_);
  stmt << (db_.dialect() == Dialect::PostgreSQL ? rewritePlaceholders(sql) : sql);
  // Bindings hold references: keep typed copies alive until execute() returns.
  std::vector<Poco::Int64> ints;
  std::vector<double> doubles;
  std::vector<std::string> strings;
  std::vector<Poco::Nullable<std::string>> nulls;
  ints.reserve(params.size());
  doubles.reserve(params.size());
  strings.reserve(params.size());
  nulls.reserve(params.size());
  for (auto& p : params) {
    if (std::holds_alternative<std::int64_t>(p)) {
      ints.push_back(std::get<std::int64_t>(p));
      stmt, use(ints.back());
    } else if (std::holds_alternative<double>(p)) {
      doubles.push_back(std::get<double>(p));
      stmt, use(doubles.back());
    } else if (std::holds_alternative<std::string>(p)) {
      strings.push_back(std::get<std::string>(p));
      stmt, use(strings.back());
    } else {
      nulls.emplace_back();
      stmt, use(nulls.back());
    }
  }
  Rows result;
  result.affected = stmt.execute();
  if (stmt.columnsExtracted() > 0) {
    Poco::Data::RecordSet rs(stmt);
    const std::size_t cols = rs.columnCount();
    auto names = std::make_shared<std::vector<std::string>>();
    names->reserve(cols);
    for (std::size_t c = 0; c < cols; ++c) names->push_back(rs.columnName(c));
    result.columns = names;
    const std::size_t n = rs.rowCount();
    result.rows.reserve(n);
    for (std::size_t r = 0; r < n; ++r) {
      std::vector<Poco::Dynamic::Var> values;
      values.reserve(cols);
      for (std::size_t c = 0; c < cols; ++c) values.push_back(rs.value(c, r));
      result.rows.emplace_back(result.columns, std::move(values));
    }
  }
  return result;
}

std::int64_t Connection::insert(const std::string& sql, Params params) {
  auto rows = query(sql, std::move(params));
  if (rows.empty()) throw std::runtime_error("INSERT ... RETURNING returned no row");
  return rows.front().i64(rows.columns->front());
}

// ---------------------------------------------------------------- Transaction

Transaction::Transaction(Connection& conn) : conn_(conn) {
  // IMMEDIATE takes SQLite's write lock up front, so the busy timeout applies instead of
  // a deadlock-prone lock upgrade in the middle of the transaction.
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
  conn_.exec("COMMIT");
  done_ = true;
}

// ---------------------------------------------------------------- Database

namespace {
void registerConnectors() {
  static const bool once = [] {
    Poco::Data::SQLite::Connector::registerConnector();
    Poco::Data::PostgreSQL::Connector::registerConnector();
    return true;
  }();
  (void)once;
}

bool isPostgresUrl(const std::string& url) {
  return url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0;
}

// Poco's PostgreSQL connector takes libpq key=value conninfo; translate the URL.
std::string postgresConninfo(const std::string& url) {
  Poco::URI uri(url);
  auto quote = [](const std::string& v) {
    std::string out = "'";
    for (char c : v) {
      if (c == '\\' || c == '\'') out += '\\';
      out += c;
    }
    return out + "'";
  };
  std::string info;
  auto add = [&](const std::string& k, const std::string& v) {
    if (!v.empty()) info += (info.empty() ? "" : " ") + k + "=" + quote(v);
  };
  add("host", uri.getHost());
  if (uri.getPort() != 0) add("port", std::to_string(uri.getPort()));
  const auto userInfo = uri.getUserInfo();
  const auto colon = userInfo.find(':');
  std::string user, password;
  Poco::URI::decode(userInfo.substr(0, colon), user);
  if (colon != std::string::npos) Poco::URI::decode(userInfo.substr(colon + 1), password);
  add("user", user);
  add("password", password);
  auto path = uri.getPath();
  if (!path.empty() && path[0] == '/') path.erase(0, 1);
  add("dbname", path);
  for (const auto& [k, v] : uri.getQueryParameters()) add(k, v);
  return info;
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
}  // namespace

Database::Database(DatabaseOptions options) : options_(std::move(options)) {
  registerConnectors();
  if (isPostgresUrl(options_.url)) {
    dialect_ = Dialect::PostgreSQL;
    connector_ = "postgresql";
    connectionString_ = postgresConninfo(options_.url);
    description_ = "postgresql " + redactUrl(options_.url);
  } else {
    dialect_ = Dialect::SQLite;
    connector_ = "sqlite";
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

std::unique_ptr<Poco::Data::Session> Database::openSession() {
  auto session = std::make_unique<Poco::Data::Session>(connector_, connectionString_);
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
  return session;
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
    if (!available_.wait_for(lock, std::chrono::seconds(30), [&] { return !idle_.empty() || closed_; }))
      throw std::runtime_error("timed out waiting for a database connection");
  }
}

void Database::release(std::unique_ptr<Poco::Data::Session> session) {
  if (!session) return;
  std::lock_guard lock(mutex_);
  if (closed_ || !session->isConnected()) {
    --open_;
    session.reset();
    available_.notify_one();
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
  std::vector<std::unique_ptr<Poco::Data::Session>> sessions;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    sessions.swap(idle_);
    open_ -= static_cast<int>(sessions.size());
  }
  for (auto& s : sessions) {
    try {
      s->close();
    } catch (...) {
    }
  }
  available_.notify_all();
}

}  // namespace aev::store

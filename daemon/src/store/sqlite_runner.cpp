// StatementRunner on sqlite3 directly: sqlite3_prepare_v3 once per SQL text, then
// bind/step/reset on each run.
#include <Poco/Data/SQLite/Utility.h>
#include <sqlite3.h>

#include <stdexcept>

#include "common/storage_unavailable.h"
#include "store/sqlite_sketch_function.h"
#include "store/statement_cache.h"
#include "store/statement_runner.h"
#include "store/storage_failure.h"

namespace aev::store {

namespace {

[[noreturn]] void fail(sqlite3* db, int rc, const std::string& sql) {
  // The message keeps SQLite's own text ("UNIQUE constraint failed: ...") first:
  // isUniqueViolation and the logs read it.
  std::string message =
      std::string(sqlite3_errmsg(db)) + " (sqlite " + std::to_string(rc) + ") in: " + sql.substr(0, 200);
  if (sqliteFailureIsUnavailability(rc)) throw StorageUnavailable(message);
  throw std::runtime_error(message);
}

bool onlyWhitespace(const char* s) {
  for (; s && *s; ++s)
    if (*s != ' ' && *s != '\n' && *s != '\t' && *s != '\r' && *s != ';') return false;
  return true;
}

Poco::Dynamic::Var sqliteColumnValue(sqlite3_stmt* stmt, int col) {
  switch (sqlite3_column_type(stmt, col)) {
    case SQLITE_INTEGER:
      return Poco::Int64{sqlite3_column_int64(stmt, col)};
    case SQLITE_FLOAT:
      return sqlite3_column_double(stmt, col);
    case SQLITE_NULL:
      return Poco::Dynamic::Var();
    default: {  // TEXT and BLOB: bytes as they are
      const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt, col));
      const int n = sqlite3_column_bytes(stmt, col);
      return std::string(bytes ? bytes : "", static_cast<std::size_t>(n));
    }
  }
}

class SqliteRunner final : public StatementRunner {
 public:
  SqliteRunner(sqlite3* db, std::size_t cacheSize)
      : db_(db), cache_(cacheSize, [](sqlite3_stmt*& s) { sqlite3_finalize(s); }) {}

  Rows run(const std::string& sql, const Params& params) override {
    sqlite3_stmt* stmt = prepared(sql);
    // Leave the statement reset and unbound whatever happens, ready for the next run.
    struct Reset {
      sqlite3_stmt* s;
      ~Reset() {
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
      }
    } reset{stmt};
    if (static_cast<int>(params.size()) != sqlite3_bind_parameter_count(stmt))
      throw std::logic_error("SQL expects " + std::to_string(sqlite3_bind_parameter_count(stmt)) + " parameters, got " +
                             std::to_string(params.size()) + ": " + sql.substr(0, 200));
    for (std::size_t i = 0; i < params.size(); ++i) bind(stmt, static_cast<int>(i) + 1, params[i], sql);

    Rows result;
    const int cols = sqlite3_column_count(stmt);
    if (cols > 0) {
      auto names = std::make_shared<std::vector<std::string>>();
      names->reserve(static_cast<std::size_t>(cols));
      for (int c = 0; c < cols; ++c) names->emplace_back(sqlite3_column_name(stmt, c));
      result.columns = std::move(names);
    }
    for (;;) {
      const int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) fail(db_, rc, sql);
      std::vector<Poco::Dynamic::Var> values;
      values.reserve(static_cast<std::size_t>(cols));
      for (int c = 0; c < cols; ++c) values.push_back(sqliteColumnValue(stmt, c));
      result.rows.emplace_back(result.columns, std::move(values));
    }
    // sqlite3_changes is the last INSERT/UPDATE/DELETE's count: only meaningful for one.
    if (sqlite3_stmt_readonly(stmt)) {
      result.affected = result.rows.size();
    } else {
      result.affected = static_cast<std::size_t>(sqlite3_changes(db_));
      if (result.affected) result.lastInsertRowid = sqlite3_last_insert_rowid(db_);
    }
    return result;
  }

  bool healthy() const override { return true; }

 private:
  sqlite3_stmt* prepared(const std::string& sql) {
    if (auto* cached = cache_.find(sql)) return *cached;
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    const int rc =
        sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size()) + 1, SQLITE_PREPARE_PERSISTENT, &stmt, &tail);
    if (rc != SQLITE_OK) fail(db_, rc, sql);
    if (!stmt) throw std::logic_error("empty SQL statement");
    if (!onlyWhitespace(tail)) {
      sqlite3_finalize(stmt);
      throw std::logic_error("one SQL statement per call: " + sql.substr(0, 200));
    }
    return cache_.insert(sql, stmt);
  }

  void bind(sqlite3_stmt* stmt, int index, const SqlValue& value, const std::string& sql) {
    int rc = SQLITE_OK;
    if (const auto* i = std::get_if<std::int64_t>(&value)) {
      rc = sqlite3_bind_int64(stmt, index, *i);
    } else if (const auto* d = std::get_if<double>(&value)) {
      rc = sqlite3_bind_double(stmt, index, *d);
    } else if (const auto* s = std::get_if<std::string>(&value)) {
      // The parameter outlives the step: no copy needed.
      rc = sqlite3_bind_text64(stmt, index, s->data(), s->size(), SQLITE_STATIC, SQLITE_UTF8);
    } else {
      rc = sqlite3_bind_null(stmt, index);
    }
    if (rc != SQLITE_OK) fail(db_, rc, sql);
  }

  sqlite3* db_;
  StatementCache<sqlite3_stmt*> cache_;
};

}  // namespace

std::unique_ptr<StatementRunner> makeSqliteRunner(Poco::Data::Session& session, std::size_t cacheSize) {
  auto* db = Poco::Data::SQLite::Utility::dbHandle(session);
  registerSqliteSketchFunction(db);
  return std::make_unique<SqliteRunner>(db, cacheSize);
}

}  // namespace aev::store

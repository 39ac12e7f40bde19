// store/database.h: placeholder rewriting, and the facade against a real SQLite file
// and a real PostgreSQL server (the latter skipped when PostgreSQL is not installed).
#include "store/database.h"

#include <Poco/Exception.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "common/storage_unavailable.h"
#include "store/storage_failure.h"
#include "support/postgres_server.h"
#include "support/process.h"

namespace aev::store {
namespace {

using aev::testing::PostgresServer;
using aev::testing::TempDir;

TEST(RewritePlaceholders, NumbersQuestionMarksInOrder) {
  EXPECT_EQ(rewritePlaceholders("SELECT 1"), "SELECT 1");
  EXPECT_EQ(rewritePlaceholders("SELECT * FROM t WHERE a = ? AND b = ?"), "SELECT * FROM t WHERE a = $1 AND b = $2");
  std::string many = "VALUES (?,?,?,?,?,?,?,?,?,?,?)";
  EXPECT_EQ(rewritePlaceholders(many), "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)");
}

TEST(RewritePlaceholders, LeavesQuotedTextAlone) {
  EXPECT_EQ(rewritePlaceholders("SELECT '?' , \"?\" , ?"), "SELECT '?' , \"?\" , $1");
  EXPECT_EQ(rewritePlaceholders("WHERE a = 'what?' AND b = ?"), "WHERE a = 'what?' AND b = $1");
  // A doubled quote inside a literal closes and reopens it: still inside.
  EXPECT_EQ(rewritePlaceholders("WHERE a = 'it''s ?' AND b = ?"), "WHERE a = 'it''s ?' AND b = $1");
  EXPECT_EQ(rewritePlaceholders("SELECT \"col?\" FROM t WHERE x = ? AND y = '?'"),
            "SELECT \"col?\" FROM t WHERE x = $1 AND y = '?'");
}

// ---------------------------------------------------------------- real databases

enum class Backend { SQLite, PostgreSQL };

void PrintTo(Backend b, std::ostream* os) { *os << (b == Backend::SQLite ? "SQLite" : "PostgreSQL"); }

std::string nameOf(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::SQLite ? "SQLite" : "PostgreSQL";
}

class DatabaseTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    DatabaseOptions options;
    options.poolSize = 4;
    if (GetParam() == Backend::PostgreSQL) {
      if (!PostgresServer::available()) GTEST_SKIP() << "PostgreSQL is not installed";
      options.url = PostgresServer::instance().createDatabase();
    } else {
      dir_ = std::make_unique<TempDir>("aev-unit-db");
      options.dataDir = dir_->path();
      options.sqliteSynchronous = "OFF";
    }
    try {
      db_ = std::make_unique<Database>(options);
    } catch (const Poco::Exception& e) {
      FAIL() << "opening " << (options.url.empty() ? options.dataDir : options.url) << ": " << e.displayText();
    }
    const bool pg = db_->dialect() == Dialect::PostgreSQL;
    db_->exec(std::string("CREATE TABLE items (id ") + (pg ? "BIGSERIAL" : "INTEGER") +
              " PRIMARY KEY, name TEXT NOT NULL UNIQUE, note TEXT, amount DOUBLE PRECISION, n BIGINT)");
  }
  void TearDown() override {
    db_.reset();
    dir_.reset();
  }
  std::int64_t count() { return db_->query("SELECT COUNT(*) AS c FROM items").front().i64("c"); }
  std::int64_t add(const std::string& name, SqlValue note = std::monostate{}) {
    return db_->insert("INSERT INTO items (name, note, amount, n) VALUES (?, ?, ?, ?) RETURNING id",
                       {name, note, 1.5, std::int64_t{10}});
  }

  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<Database> db_;
};

TEST_P(DatabaseTest, DialectAndDescription) {
  if (GetParam() == Backend::SQLite) {
    EXPECT_EQ(db_->dialect(), Dialect::SQLite);
    EXPECT_NE(db_->describe().find("sqlite"), std::string::npos);
    EXPECT_NE(db_->describe().find(dir_->path()), std::string::npos) << db_->describe();
  } else {
    EXPECT_EQ(db_->dialect(), Dialect::PostgreSQL);
    EXPECT_NE(db_->describe().find("postgresql"), std::string::npos);
  }
  EXPECT_TRUE(db_->ping());
}

TEST_P(DatabaseTest, InsertReturningGivesIncreasingIds) {
  auto a = add("a");
  auto b = add("b");
  EXPECT_GT(a, 0);
  EXPECT_GT(b, a);
  EXPECT_EQ(count(), 2);
}

TEST_P(DatabaseTest, QueryReadsTypedValues) {
  auto id = db_->insert("INSERT INTO items (name, note, amount, n) VALUES (?, ?, ?, ?) RETURNING id",
                        {std::string("widget"), std::string("h\xC3\xA9llo"), 2.25, std::int64_t{9007199254740993}});
  auto rows = db_->query("SELECT id, name, note, amount, n FROM items WHERE id = ?", {id});
  ASSERT_EQ(rows.size(), 1u);
  const auto& r = rows.front();
  EXPECT_EQ(r.i64("id"), id);
  EXPECT_EQ(r.str("name"), "widget");
  EXPECT_EQ(r.str("note"), "h\xC3\xA9llo");
  EXPECT_EQ(r.optStr("note"), "h\xC3\xA9llo");
  EXPECT_DOUBLE_EQ(r.f64("amount"), 2.25);
  EXPECT_EQ(r.i64("n"), 9007199254740993LL);
  EXPECT_EQ(r.optI64("n"), 9007199254740993LL);
  EXPECT_FALSE(r.isNull("name"));
  EXPECT_THROW(r.str("no_such_column"), std::logic_error);
}

TEST_P(DatabaseTest, NullsRoundTripThroughMonostate) {
  auto id = db_->insert("INSERT INTO items (name, note, amount, n) VALUES (?, ?, ?, ?) RETURNING id",
                        {std::string("empty"), nullValue(), std::monostate{}, optionalValue(std::optional<int>())});
  auto r = db_->query("SELECT note, amount, n FROM items WHERE id = ?", {id}).front();
  EXPECT_TRUE(r.isNull("note"));
  EXPECT_TRUE(r.isNull("amount"));
  EXPECT_TRUE(r.isNull("n"));
  EXPECT_EQ(r.optStr("note"), std::nullopt);
  EXPECT_EQ(r.optI64("n"), std::nullopt);
  EXPECT_EQ(r.str("note"), "");
  EXPECT_EQ(r.i64("n"), 0);
  EXPECT_EQ(r.f64("amount"), 0.0);
  // IS NULL comparisons with a bound NULL.
  EXPECT_EQ(db_->query("SELECT id FROM items WHERE note IS NULL").size(), 1u);
}

TEST_P(DatabaseTest, OptionalValueHelper) {
  EXPECT_TRUE(std::holds_alternative<std::monostate>(optionalValue(std::optional<std::string>())));
  EXPECT_EQ(std::get<std::int64_t>(optionalValue(std::optional<bool>(true))), 1);
  EXPECT_EQ(std::get<std::int64_t>(optionalValue(std::optional<int>(7))), 7);
  EXPECT_EQ(std::get<std::string>(optionalValue(std::optional<std::string>("x"))), "x");
}

TEST_P(DatabaseTest, ExecReportsAffectedRows) {
  add("a");
  add("b");
  add("c");
  EXPECT_EQ(db_->exec("UPDATE items SET n = n + 1 WHERE name <> ?", {std::string("a")}), 2u);
  EXPECT_EQ(db_->exec("DELETE FROM items WHERE name = ?", {std::string("zzz")}), 0u);
  EXPECT_EQ(db_->query("SELECT SUM(n) AS s FROM items").front().i64("s"), 32);
}

TEST_P(DatabaseTest, QuestionMarkInsideLiteralIsNotAPlaceholder) {
  add("what?", std::string("?"));
  auto rows = db_->query("SELECT name FROM items WHERE note = '?' AND name = ?", {std::string("what?")});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows.front().str("name"), "what?");
}

TEST_P(DatabaseTest, TransactionCommits) {
  auto id = db_->transaction([&](Connection& c) {
    auto first = c.insert("INSERT INTO items (name) VALUES (?) RETURNING id", {std::string("t1")});
    c.insert("INSERT INTO items (name) VALUES (?) RETURNING id", {std::string("t2")});
    return first;
  });
  EXPECT_GT(id, 0);
  EXPECT_EQ(count(), 2);
}

TEST_P(DatabaseTest, TransactionRollsBackWhenTheFunctionThrows) {
  add("kept");
  EXPECT_THROW(db_->transaction([&](Connection& c) {
    c.exec("INSERT INTO items (name) VALUES (?)", {std::string("lost1")});
    c.exec("UPDATE items SET note = ? WHERE name = ?", {std::string("changed"), std::string("kept")});
    throw std::runtime_error("boom");
  }),
               std::runtime_error);
  EXPECT_EQ(count(), 1);
  EXPECT_TRUE(db_->query("SELECT note FROM items WHERE name = 'kept'").front().isNull("note"));
  // The pool still works after the rollback.
  add("after");
  EXPECT_EQ(count(), 2);
}

TEST_P(DatabaseTest, TransactionRollsBackOnConstraintViolation) {
  add("dup");
  EXPECT_ANY_THROW(db_->transaction([&](Connection& c) {
    c.exec("INSERT INTO items (name) VALUES (?)", {std::string("fresh")});
    c.exec("INSERT INTO items (name) VALUES (?)", {std::string("dup")});  // UNIQUE violation
  }));
  EXPECT_EQ(count(), 1);
  EXPECT_TRUE(db_->query("SELECT id FROM items WHERE name = 'fresh'").empty());
}

TEST_P(DatabaseTest, UncommittedTransactionObjectRollsBack) {
  {
    auto conn = db_->acquire();
    Transaction tx(*conn);
    conn->exec("INSERT INTO items (name) VALUES (?)", {std::string("never")});
  }
  EXPECT_EQ(count(), 0);
  {
    auto conn = db_->acquire();
    Transaction tx(*conn);
    conn->exec("INSERT INTO items (name) VALUES (?)", {std::string("yes")});
    tx.commit();
  }
  EXPECT_EQ(count(), 1);
}

// PostgreSQL sends a transaction's BEGIN together with its first statement (one round
// trip): the transaction must behave exactly as if BEGIN had gone alone.
TEST_P(DatabaseTest, TransactionWhoseFirstStatementFailsRollsBackAndTheConnectionWorks) {
  add("dup");
  for (int i = 0; i < 6; ++i) {  // more than the pool: every connection goes through it
    EXPECT_ANY_THROW(db_->transaction([&](Connection& c) {
      c.exec("INSERT INTO items (name) VALUES (?)", {std::string("dup")});  // the first statement fails
      c.exec("INSERT INTO items (name) VALUES (?)", {std::string("never")});
    }));
  }
  EXPECT_EQ(count(), 1);
  db_->transaction([&](Connection& c) { c.exec("INSERT INTO items (name) VALUES (?)", {std::string("fine")}); });
  EXPECT_EQ(count(), 2);
}

TEST_P(DatabaseTest, TransactionsWithoutStatementsCommitAndRollBack) {
  db_->transaction([](Connection&) {});
  EXPECT_THROW(db_->transaction([](Connection&) { throw std::runtime_error("before any statement"); }),
               std::runtime_error);
  {
    auto conn = db_->acquire();
    Transaction tx(*conn);
  }
  add("after");
  EXPECT_EQ(count(), 1);
}

TEST_P(DatabaseTest, UncommittedRowsAreInvisibleToOtherConnections) {
  auto writer = db_->acquire();
  Transaction tx(*writer);
  writer->exec("INSERT INTO items (name) VALUES (?)", {std::string("pending")});
  if (db_->dialect() == Dialect::PostgreSQL) {  // SQLite's IMMEDIATE lock would make the reader wait
    auto reader = db_->acquire();
    EXPECT_EQ(reader->query("SELECT COUNT(*) AS c FROM items").front().i64("c"), 0);
  }
  EXPECT_EQ(writer->query("SELECT COUNT(*) AS c FROM items").front().i64("c"), 1);
  tx.commit();
  EXPECT_EQ(count(), 1);
}

TEST_P(DatabaseTest, ConstraintViolationOutsideTransactionThrowsAndPoolRecovers) {
  add("x");
  EXPECT_ANY_THROW(add("x"));
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(db_->ping());
}

TEST_P(DatabaseTest, ConcurrentUseOfThePool) {
  constexpr int kThreads = 8, kEach = 10;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        try {
          db_->transaction([&](Connection& c) {
            c.exec("INSERT INTO items (name) VALUES (?)",
                   {std::string("t") + std::to_string(t) + "-" + std::to_string(i)});
          });
        } catch (const std::exception&) {
          ++failures;
        }
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(count(), kThreads * kEach);
}

TEST_P(DatabaseTest, ClosedDatabaseRefusesWork) {
  db_->close();
  EXPECT_THROW(db_->acquire(), std::runtime_error);
  EXPECT_FALSE(db_->ping());
}

INSTANTIATE_TEST_SUITE_P(Dialects, DatabaseTest, ::testing::Values(Backend::SQLite, Backend::PostgreSQL), nameOf);

TEST(DatabaseSQLite, ExplicitPathAndSqlitePrefix) {
  TempDir dir("aev-unit-db");
  {
    DatabaseOptions o;
    o.url = dir.file("nested/dir/explicit.db");
    Database db(o);
    EXPECT_TRUE(db.ping());
  }
  EXPECT_TRUE(std::filesystem::exists(dir.file("nested/dir/explicit.db")));
  {
    DatabaseOptions o;
    o.url = "sqlite://" + dir.file("prefixed.db");
    Database db(o);
    EXPECT_TRUE(db.ping());
  }
  EXPECT_TRUE(std::filesystem::exists(dir.file("prefixed.db")));
  {
    DatabaseOptions o;
    o.dataDir = dir.file("datadir");
    Database db(o);
    EXPECT_TRUE(db.ping());
  }
  EXPECT_TRUE(std::filesystem::exists(dir.file("datadir/agent-events.db")));
}

// SQLite reads an unknown synchronous value as NORMAL; the store refuses it instead.
TEST(DatabaseSQLite, SynchronousMustBeOneOfTheFourNames) {
  TempDir dir("aev-unit-db");
  DatabaseOptions o;
  o.dataDir = dir.path();
  for (const char* bad : {"FULLL", "", "2", "yes"}) {
    o.sqliteSynchronous = bad;
    EXPECT_THROW(Database{o}, std::invalid_argument) << bad;
  }
  o.sqliteSynchronous = "normal";  // any case
  Database db(o);
  auto rows = db.query("PRAGMA synchronous");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows.front().i64("synchronous"), 1);  // NORMAL
}

// Which failures are the store being unavailable (503) rather than a wrong statement.
TEST(StorageFailure, SqliteCodes) {
  for (int rc : {SQLITE_IOERR, SQLITE_IOERR_FSYNC, SQLITE_IOERR_WRITE, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY,
                 SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED, SQLITE_NOMEM, SQLITE_PROTOCOL})
    EXPECT_TRUE(sqliteFailureIsUnavailability(rc)) << rc;
  for (int rc : {SQLITE_ERROR, SQLITE_CONSTRAINT, SQLITE_CONSTRAINT_UNIQUE, SQLITE_MISMATCH, SQLITE_MISUSE,
                 SQLITE_RANGE, SQLITE_TOOBIG})
    EXPECT_FALSE(sqliteFailureIsUnavailability(rc)) << rc;
}

TEST(StorageFailure, PostgresStates) {
  EXPECT_TRUE(postgresFailureIsUnavailability(false, nullptr));  // the connection is gone
  EXPECT_TRUE(postgresFailureIsUnavailability(false, "23505"));  // whatever the state says
  for (const char* state : {"08006", "08001", "53100", "53300", "57P01", "57P03", "58030"})
    EXPECT_TRUE(postgresFailureIsUnavailability(true, state)) << state;
  for (const char* state : {"23505", "23503", "42P01", "22001", "40001", "57014", "5", ""})
    EXPECT_FALSE(postgresFailureIsUnavailability(true, state)) << state;
  EXPECT_FALSE(postgresFailureIsUnavailability(true, nullptr));
}

// A statement that fails because the database cannot be written (here read-only by
// pragma, as after a remount) throws StorageUnavailable; a wrong statement does not.
TEST(StorageFailure, SqliteRunnerThrowsStorageUnavailable) {
  TempDir dir("aev-unit-db");
  DatabaseOptions o;
  o.dataDir = dir.path();
  o.poolSize = 1;
  Database db(o);
  db.exec("CREATE TABLE t(x INTEGER UNIQUE)");
  db.exec("INSERT INTO t(x) VALUES (1)");
  EXPECT_THROW(db.exec("INSERT INTO t(x) VALUES (1)"), std::runtime_error);
  try {
    db.exec("INSERT INTO t(x) VALUES (1)");
  } catch (const StorageUnavailable&) {
    ADD_FAILURE() << "a UNIQUE violation is not the store being unavailable";
  } catch (const std::runtime_error&) {
  }
  db.exec("PRAGMA query_only=1");
  EXPECT_THROW(db.exec("INSERT INTO t(x) VALUES (2)"), StorageUnavailable);
  db.exec("PRAGMA query_only=0");
}

// A server restart cuts every connection, but an idle one shows it only when used. The
// first request that meets a cut connection fails (StorageUnavailable: a 503); the pool
// then drops its other idle connections, so the next request gets a new one instead of
// failing on the next cut one.
TEST(DatabasePostgreSQL, ALostConnectionEmptiesTheIdlePool) {
  if (!PostgresServer::available()) GTEST_SKIP() << "PostgreSQL is not installed";
  auto& pg = PostgresServer::instance();
  const std::string name = "aev_pool_" + std::to_string(::getpid());
  DatabaseOptions o;
  o.url = pg.createDatabase(name);
  o.poolSize = 4;
  Database db(o);
  {
    auto a = db.acquire(), b = db.acquire(), c = db.acquire();  // three connections, idle after this
  }
  pg.psql(name,
          "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND "
          "pid <> pg_backend_pid()");
  EXPECT_THROW(db.query("SELECT 1 AS one"), StorageUnavailable);
  EXPECT_TRUE(db.ping()) << "the pool handed out another connection the restart had cut";
  EXPECT_TRUE(db.ping());
}

TEST(DatabasePostgreSQL, BadUrlFailsAtConstruction) {
  if (!PostgresServer::available()) GTEST_SKIP() << "PostgreSQL is not installed";
  DatabaseOptions o;
  o.url = "postgresql://nobody@127.0.0.1:1/none";  // port 1: nothing listens
  EXPECT_ANY_THROW(Database db(o));
}

TEST(DatabasePostgreSQL, DescriptionRedactsPassword) {
  if (!PostgresServer::available()) GTEST_SKIP() << "PostgreSQL is not installed";
  auto& pg = PostgresServer::instance();
  auto url = pg.createDatabase();
  // Trust authentication ignores the password, so the URL still connects.
  std::string withPassword =
      "postgresql://" + pg.user() + ":s3cret@127.0.0.1:" + std::to_string(pg.port()) + url.substr(url.rfind('/'));
  DatabaseOptions o;
  o.url = withPassword;
  Database db(o);
  EXPECT_TRUE(db.ping());
  EXPECT_EQ(db.describe().find("s3cret"), std::string::npos) << db.describe();
}

// database.postgresql_settings reach every pooled session, each as it opens; a setting
// the server refuses stops the store from opening, naming the key.
TEST(DatabasePostgreSQL, SessionSettingsReachEveryPooledConnection) {
  if (!PostgresServer::available()) GTEST_SKIP() << "PostgreSQL is not installed";
  DatabaseOptions o;
  o.url = PostgresServer::instance().createDatabase();
  o.poolSize = 3;
  o.postgresSettings = "jit=off, random_page_cost=1.1,work_mem=17MB";
  Database db(o);
  // Three connections at once: the one opened at start-up and two opened on demand.
  std::vector<std::unique_ptr<Connection>> held;
  for (int i = 0; i < 3; ++i) held.push_back(db.acquire());
  for (auto& c : held) {
    auto rows = c->query(
        "SELECT current_setting('jit') AS jit, current_setting('random_page_cost') AS rpc, "
        "current_setting('work_mem') AS wm");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows.front().str("jit"), "off");
    EXPECT_EQ(rows.front().str("rpc"), "1.1");
    EXPECT_EQ(rows.front().str("wm"), "17MB");
  }
  held.clear();

  for (const char* refused : {"random_page_cost=cheap", "no_such_setting=1", "jit=off, work_mem=-5"}) {
    o.postgresSettings = refused;
    try {
      Database bad(o);
      ADD_FAILURE() << refused << " was accepted";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("database.postgresql_settings: PostgreSQL refused"), std::string::npos) << what;
    }
  }
  o.postgresSettings = "jit";  // malformed: refused before connecting
  EXPECT_THROW(Database{o}, std::invalid_argument);
}

}  // namespace
}  // namespace aev::store

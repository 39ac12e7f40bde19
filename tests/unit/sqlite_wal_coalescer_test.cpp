// store/sqlite_wal_coalescer.h: a commit reaches the WAL file in a few writes, other
// connections read every commit at once whatever `synchronous` is, and the WAL file on disk
// is one SQLite recovers from (so every frame, header and checksum is in place), including
// after a transaction that spilled pages into the WAL and then rolled back.
#include "store/sqlite_wal_coalescer.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "support/process.h"

namespace aev::store {
namespace {

using aev::testing::TempDir;

class Db {
 public:
  explicit Db(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK)
      throw std::runtime_error("open " + path + ": " + sqlite3_errmsg(db_));
    exec("PRAGMA busy_timeout=5000");
  }
  ~Db() { sqlite3_close(db_); }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      std::string message = error ? error : "?";
      sqlite3_free(error);
      throw std::runtime_error(sql + ": " + message);
    }
  }
  std::string text(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
      throw std::runtime_error(sql + ": " + sqlite3_errmsg(db_));
    std::string value;
    if (sqlite3_step(stmt) == SQLITE_ROW) value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    sqlite3_finalize(stmt);
    return value;
  }
  long long number(const std::string& sql) { return std::stoll(text(sql)); }
  std::string vfsName() {
    sqlite3_vfs* vfs = nullptr;
    sqlite3_file_control(db_, "main", SQLITE_FCNTL_VFS_POINTER, &vfs);
    return vfs ? vfs->zName : "";
  }

 private:
  sqlite3* db_ = nullptr;
};

// Inserts `rows` rows of ~600 bytes in one transaction: about rows/6 pages.
void insertRows(Db& db, int first, int rows) {
  db.exec("BEGIN");
  for (int i = first; i < first + rows; ++i)
    db.exec("INSERT INTO t(id, body) VALUES (" + std::to_string(i) + ", printf('%.*c', 600, 'x') || '" +
            std::to_string(i) + "')");
  db.exec("COMMIT");
}

// Opens a copy of the database and its WAL (no shared-memory index): SQLite rebuilds the
// index from the WAL file alone, so the copy holds exactly the frames on disk.
long long rowsRecoveredFromCopy(const std::filesystem::path& dir, const std::string& name) {
  const auto copy = dir / ("copy-" + name);
  std::filesystem::copy_file(dir / name, copy, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(dir / (name + "-wal"), copy.string() + "-wal",
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::remove(copy.string() + "-shm");
  Db recovered(copy.string());
  EXPECT_EQ(recovered.text("PRAGMA integrity_check"), "ok");
  return recovered.number("SELECT count(*) FROM t");
}

class WalWriteCoalescer : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    installWalWriteCoalescer();
    path_ = dir_.file("db.sqlite");
    writer_ = std::make_unique<Db>(path_);
    reader_ = std::make_unique<Db>(path_);
    for (Db* db : {writer_.get(), reader_.get()}) {
      db->exec("PRAGMA journal_mode=WAL");
      db->exec(std::string("PRAGMA synchronous=") + GetParam());
      db->exec("PRAGMA wal_autocheckpoint=0");  // the frames stay in the WAL for the copy
    }
    writer_->exec("CREATE TABLE t(id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    writer_->exec("CREATE INDEX t_body ON t(body)");
  }

  TempDir dir_;
  std::string path_;
  std::unique_ptr<Db> writer_;
  std::unique_ptr<Db> reader_;
};

TEST_P(WalWriteCoalescer, IsTheDefaultVfs) {
  EXPECT_STREQ(sqlite3_vfs_find(nullptr)->zName, walWriteCoalescerName());
  EXPECT_EQ(writer_->vfsName(), walWriteCoalescerName());
}

TEST_P(WalWriteCoalescer, EachCommitIsAFewWritesAndVisibleToAnotherConnectionAtOnce) {
  int rows = 0;
  for (int commit = 0; commit < 20; ++commit) {
    const auto before = walWriteCounts();
    insertRows(*writer_, rows, 40);  // ~14 pages of table and index: ~28 frame writes
    rows += 40;
    const auto after = walWriteCounts();
    const auto requested = after.requested - before.requested;
    const auto issued = after.issued - before.issued;
    EXPECT_GE(requested, 20u) << "commit " << commit;
    EXPECT_LE(issued, 3u) << "commit " << commit << ": " << requested << " writes became " << issued;
    // The other connection reads the commit from the WAL file: it must all be there now.
    EXPECT_EQ(reader_->number("SELECT count(*) FROM t"), rows);
    EXPECT_EQ(reader_->number("SELECT count(*) FROM t WHERE body LIKE '%x" + std::to_string(rows - 1) + "'"), 1);
  }
  EXPECT_EQ(rowsRecoveredFromCopy(dir_.path(), "db.sqlite"), rows);
}

TEST_P(WalWriteCoalescer, WritesFromBothConnectionsInterleaveIntoOneValidWal) {
  int rows = 0;
  for (int commit = 0; commit < 10; ++commit) {
    insertRows(commit % 2 ? *reader_ : *writer_, rows, 25);
    rows += 25;
    EXPECT_EQ((commit % 2 ? *writer_ : *reader_).number("SELECT count(*) FROM t"), rows);
  }
  EXPECT_EQ(writer_->text("PRAGMA integrity_check"), "ok");
  EXPECT_EQ(rowsRecoveredFromCopy(dir_.path(), "db.sqlite"), rows);
}

TEST_P(WalWriteCoalescer, ASpilledTransactionRolledBackLeavesNoTrace) {
  insertRows(*writer_, 0, 50);
  // A cache of 8 pages forces the transaction to write frames to the WAL before its end.
  writer_->exec("PRAGMA cache_size=8");
  writer_->exec("BEGIN");
  for (int i = 1000; i < 1600; ++i)
    writer_->exec("INSERT INTO t(id, body) VALUES (" + std::to_string(i) + ", printf('%.*c', 600, 'y'))");
  writer_->exec("ROLLBACK");
  EXPECT_EQ(reader_->number("SELECT count(*) FROM t"), 50);
  insertRows(*writer_, 50, 30);  // overwrites the rolled-back frames
  EXPECT_EQ(reader_->number("SELECT count(*) FROM t"), 80);
  EXPECT_EQ(reader_->number("SELECT count(*) FROM t WHERE body LIKE 'y%'"), 0);
  EXPECT_EQ(rowsRecoveredFromCopy(dir_.path(), "db.sqlite"), 80);
}

TEST_P(WalWriteCoalescer, CheckpointAndRestartedWalKeepEveryRow) {
  insertRows(*writer_, 0, 100);
  writer_->exec("PRAGMA wal_checkpoint(TRUNCATE)");  // the next commit starts the WAL again
  insertRows(*writer_, 100, 100);
  EXPECT_EQ(reader_->number("SELECT count(*) FROM t"), 200);
  writer_.reset();
  reader_.reset();  // the last close checkpoints the WAL into the database and removes it
  Db reopened(path_);
  EXPECT_EQ(reopened.number("SELECT count(*) FROM t"), 200);
  EXPECT_EQ(reopened.text("PRAGMA integrity_check"), "ok");
}

INSTANTIATE_TEST_SUITE_P(Synchronous, WalWriteCoalescer, ::testing::Values("FULL", "NORMAL", "OFF"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace aev::store

#include "backup/store_backup.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "backup/key_files.h"
#include "backup/postgres_tools.h"
#include "common/clock.h"
#include "store/database_url.h"
#include "store/migrations.h"
#include "store/store_identity.h"

namespace aev::backup {

namespace fs = std::filesystem;

namespace {

constexpr int kFirstSchemaWithIdentity = 14;

void syncFile(const std::string& path);

void requireEmptyDirectory(const fs::path& dir) {
  if (fs::exists(dir) && !fs::is_empty(dir))
    throw std::runtime_error(dir.string() + " is not empty: back up into a new directory");
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_all);  // the keys are inside
}

void writeFileDurably(const fs::path& path, const std::string& text) {
  const auto tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc | std::ios::binary);
    out << text;
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp);
  }
  syncFile(tmp);
  fs::rename(tmp, path);
}

void syncFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("cannot sync " + path);
  }
  ::close(fd);
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

store::DatabaseOptions sqliteFileOptions(const store::DatabaseOptions& base, const std::string& file) {
  auto o = base;
  o.url = file;
  return o;
}

void copySqlite(store::Database& db, const fs::path& target) {
  auto c = db.acquire();
  c->exec("VACUUM INTO ?", {target.string()});
}

int checkedSchemaVersion(store::Database& db) {
  const int version = store::currentSchemaVersion(db);
  const int known = store::latestSchemaVersion(db.dialect());
  if (version > known) throw store::SchemaTooNew(version, known);
  return version;
}

RestoreResult makeLive(store::Database& db, std::ostream& out) {
  const int applied = store::migrate(db);
  if (applied) out << "migrated the store to schema version " << store::currentSchemaVersion(db) << "\n";
  RestoreResult r;
  r.schemaVersion = store::currentSchemaVersion(db);
  r.nextEventId = store::makeRestoredStoreLive(db, clock::nowMicros());
  out << "ids advanced by " << store::kRestoreIdGap << ": the next event id is " << r.nextEventId
      << "; a subscriber resuming from an id the original issued after the backup gets `event: reset`\n";
  return r;
}

}  // namespace

BackupManifest takeBackup(const StoreLocation& where, const std::string& dirText, std::ostream& out) {
  const fs::path dir = dirText;
  requireEmptyDirectory(dir);
  const auto started = std::chrono::steady_clock::now();
  BackupManifest m;
  m.daemonVersion = AEV_VERSION;
  m.takenAt = clock::nowMicros();
  store::Database db(where.database);
  m.schemaVersion = checkedSchemaVersion(db);
  out << "backing up " << db.describe() << " (schema version " << m.schemaVersion << ") into " << dir.string()
      << std::endl;
  if (db.dialect() == store::Dialect::SQLite) {
    m.store = "sqlite";
    const auto copy = dir / kSqliteCopyName;
    copySqlite(db, copy);
    store::Database copied(sqliteFileOptions(where.database, copy.string()));
    auto c = copied.acquire();
    const auto check = c->query("PRAGMA quick_check").front().str("quick_check");
    if (check != "ok") throw std::runtime_error("the copy failed quick_check: " + check);
    m.highestEventId = store::highestEventId(*c);
    // A copy put in place by hand must not be served as it is (store_identity.h).
    if (m.schemaVersion >= kFirstSchemaWithIdentity) store::markAsBackup(*c, m.takenAt);
    c.reset();
    copied.close();
    for (const char* leftover : {"-wal", "-shm"}) fs::remove(copy.string() + leftover);
    syncFile(copy.string());
    m.files.push_back(describeFile(dir.string(), kSqliteCopyName));
  } else {
    m.store = "postgresql";
    {
      auto c = db.acquire();
      m.highestEventId = store::highestEventId(*c);  // at least this: the dump's snapshot is a little later
    }
    dumpDatabase(db.connectionString(), (dir / kPostgresDumpName).string());
    syncFile((dir / kPostgresDumpName).string());
    m.files.push_back(describeFile(dir.string(), kPostgresDumpName));
  }
  for (const auto& name : backUpKeys(*where.config, where.auditKeyPath, dir.string()))
    m.files.push_back(describeFile(dir.string(), name));
  m.durationMicros =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started).count();
  writeFileDurably(dir / kManifestName, m.toJson());
  return m;
}

RestoreResult restoreBackup(const StoreLocation& where, const std::string& dirText, std::ostream& out) {
  const fs::path dir = dirText;
  if (!fs::exists(dir / kManifestName))
    throw std::runtime_error(dir.string() + " has no " + kManifestName +
                             ": not a backup written by `agent-eventsd backup`, or one that did not finish");
  const auto m = BackupManifest::fromJson(readFile(dir / kManifestName));
  for (const auto& f : m.files) {
    const auto now = describeFile(dir.string(), f.name);
    if (now.bytes != f.bytes || now.sha256 != f.sha256)
      throw std::runtime_error(f.name + " in " + dir.string() + " is not the file the backup wrote (size or SHA-256)");
  }
  const bool toPostgres = store::isPostgresUrl(where.database.url);
  if ((m.store == "postgresql") != toPostgres)
    throw std::runtime_error("this is a " + m.store + " backup; the configured store is " +
                             (toPostgres ? "PostgreSQL" : "SQLite"));
  if (!toPostgres) {
    const fs::path dataDir = where.database.dataDir;
    const auto target = dataDir / kSqliteCopyName;
    if (!where.database.url.empty())
      throw std::runtime_error("database.url names a SQLite file; restore into the data dir's store instead");
    if (fs::exists(target))
      throw std::runtime_error(target.string() + " exists: restore into an empty data dir (or move the store away)");
    fs::create_directories(dataDir);
    restoreKeys(*where.config, where.auditKeyPath, dir.string(), out);
    const auto tmp = target.string() + ".restoring";
    fs::copy_file(dir / kSqliteCopyName, tmp, fs::copy_options::overwrite_existing);
    syncFile(tmp);  // on disk before it takes the store's name
    fs::rename(tmp, target);
    store::Database db(where.database);
    return makeLive(db, out);
  }
  store::Database db(where.database);
  {
    auto c = db.acquire();
    const auto tables =
        c->query("SELECT COUNT(*) AS n FROM pg_tables WHERE schemaname = current_schema()").front().i64("n");
    if (tables > 0)
      throw std::runtime_error("the database at " + db.describe() + " is not empty (" + std::to_string(tables) +
                               " tables): restore into a new database");
  }
  restoreKeys(*where.config, where.auditKeyPath, dir.string(), out);
  restoreDatabase(db.connectionString(), (dir / kPostgresDumpName).string());
  return makeLive(db, out);
}

RestoreResult restoreInPlace(const StoreLocation& where, std::ostream& out) {
  store::Database db(where.database);
  return makeLive(db, out);
}

}  // namespace aev::backup

#include "store/store_identity.h"

#include "common/clock.h"
#include "common/crypto.h"
#include "common/encoding.h"

namespace aev::store {

namespace {

std::optional<std::int64_t> databaseOidOf(Connection& c) {
  if (c.dialect() != Dialect::PostgreSQL) return std::nullopt;
  return c.query("SELECT oid::BIGINT AS oid FROM pg_database WHERE datname = current_database()").front().i64("oid");
}

std::string newInstanceId() { return hexEncode(crypto::randomBytes(16)); }

void advanceSqliteSequences(Connection& c, std::int64_t gap) {
  // Every AUTOINCREMENT table, also those that have issued nothing yet: the original may
  // have issued their first ids after the backup.
  auto tables = c.query("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%'");
  for (const auto& t : tables) {
    const auto name = t.str("name");
    if (c.exec("UPDATE sqlite_sequence SET seq = seq + ? WHERE name = ?", {gap, name}) == 0)
      c.exec("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", {name, gap});
  }
}

void advancePostgresSequences(Connection& c, std::int64_t gap) {
  auto seqs = c.query(
      "SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name, "
      "COALESCE(last_value, 0) AS last FROM pg_sequences WHERE schemaname = current_schema()");
  for (const auto& s : seqs) c.query("SELECT setval(?::regclass, ?, true)", {s.str("name"), s.i64("last") + gap});
}

}  // namespace

std::optional<StoreIdentity> readStoreIdentity(Connection& c) {
  auto rows = c.query(
      "SELECT instance_id, state, database_oid, created_at, backup_taken_at, restored_at FROM store_identity "
      "WHERE singleton = 1");
  if (rows.empty()) return std::nullopt;
  const auto& r = rows.front();
  return StoreIdentity{r.str("instance_id"),        r.str("state"),
                       r.optI64("database_oid"),    r.i64("created_at"),
                       r.optI64("backup_taken_at"), r.optI64("restored_at")};
}

void checkStoreServable(Database& db, const std::string& restoreHint) {
  auto c = db.acquire();
  auto identity = readStoreIdentity(*c);
  const auto oid = databaseOidOf(*c);
  if (!identity) {
    // A new store, or the first start after the upgrade that added identities.
    c->exec(
        "INSERT INTO store_identity (singleton, instance_id, state, database_oid, created_at) VALUES (1, ?, 'live', ?, "
        "?) ON CONFLICT (singleton) DO NOTHING",
        {newInstanceId(), optionalValue(oid), clock::nowMicros()});
    return;
  }
  if (identity->state == "backup")
    throw StoreNotServable("the store at " + db.describe() + " is a backup taken " +
                           clock::toRfc3339(identity->backupTakenAt.value_or(0)) +
                           " by `agent-eventsd backup`, copied into place by hand. Served as it is, it would give "
                           "again the event ids the original issued after the backup, and a subscriber holding one "
                           "would resume in the wrong place. Restore it with: " +
                           restoreHint);
  if (oid && identity->databaseOid && *oid != *identity->databaseOid)
    throw StoreNotServable("the database at " + db.describe() +
                           " was restored by hand (pg_restore or psql): it is not the database this store was "
                           "written in (oid " +
                           std::to_string(*identity->databaseOid) + ", now " + std::to_string(*oid) +
                           "). Served as it is, it would give again the event ids the original issued after the "
                           "dump, and a subscriber holding one would resume in the wrong place. Make it safe with: " +
                           restoreHint);
}

void markAsBackup(Connection& c, std::int64_t takenAt) {
  c.exec("UPDATE store_identity SET state = 'backup', backup_taken_at = ? WHERE singleton = 1", {takenAt});
}

std::int64_t highestEventId(Connection& c) {
  return c.query("SELECT COALESCE(MAX(id), 0) AS id FROM events").front().i64("id");
}

std::int64_t makeRestoredStoreLive(Database& db, std::int64_t restoredAt) {
  return db.transaction([&](Connection& c) {
    if (c.dialect() == Dialect::SQLite)
      advanceSqliteSequences(c, kRestoreIdGap);
    else
      advancePostgresSequences(c, kRestoreIdGap);
    c.exec("DELETE FROM store_identity");
    c.exec(
        "INSERT INTO store_identity (singleton, instance_id, state, database_oid, created_at, restored_at) VALUES "
        "(1, ?, 'live', ?, ?, ?)",
        {newInstanceId(), optionalValue(databaseOidOf(c)), restoredAt, restoredAt});
    // The next event gets the sequence's value + 1, whatever the events table holds.
    if (c.dialect() == Dialect::SQLite)
      return c.query("SELECT seq FROM sqlite_sequence WHERE name = 'events'").front().i64("seq") + 1;
    return c.query("SELECT last_value FROM events_id_seq").front().i64("last_value") + 1;
  });
}

}  // namespace aev::store

#pragma once
// Which store this is, so that a copy is never served as if it were the original.
//
// A stream position (an event id, a webhook-id) names one event for ever. A store put back
// from a backup has forgotten the ids the original issued after the backup; if it issued
// them again, a subscriber holding one would resume silently in the wrong place. So a store
// is served only as what it is (docs/decisions/0006-restore-advances-ids.md):
//   * `live`: the store a daemon runs on;
//   * `backup`: a copy written by `agent-eventsd backup`, never served until
//     `agent-eventsd restore` has advanced its ids past anything the original could have
//     issued since (advanceIdSequences) and made it live;
//   * on PostgreSQL, a live store also records the oid of its database: pg_restore by hand
//     makes a new database, so a database restored without the command is recognised.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "store/database.h"

namespace aev::store {

struct StoreIdentity {
  std::string instanceId;                   // random, made when the store was first opened (or restored)
  std::string state;                        // "live" or "backup"
  std::optional<std::int64_t> databaseOid;  // PostgreSQL only
  std::int64_t createdAt = 0;
  std::optional<std::int64_t> backupTakenAt;
  std::optional<std::int64_t> restoredAt;
};

// The store is not to be served as it is: the message says what to run.
struct StoreNotServable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// How far a restore moves every id sequence: 2^40 ids, more than a store issues in 127
// days at 100,000 a second, and still 8,192 restores below 2^53 (ids stay exact in
// JavaScript numbers).
inline constexpr std::int64_t kRestoreIdGap = std::int64_t{1} << 40;

std::optional<StoreIdentity> readStoreIdentity(Connection& c);

// At start-up, after migrations: records the identity of a store that has none (a new
// store, or one from a release before identities) and throws StoreNotServable for a
// backup or a PostgreSQL database restored by hand. `restoreHint` is the command line to
// suggest.
void checkStoreServable(Database& db, const std::string& restoreHint);

// The copy just written by a backup: marked `backup` (SQLite; a PostgreSQL dump keeps its
// database's oid, which no restored database has).
void markAsBackup(Connection& c, std::int64_t takenAt);

// Makes a restored store live: every id sequence moved by kRestoreIdGap past the highest
// value it has issued, a new instance id, this database's oid. One transaction.
// Returns the new lowest event id.
std::int64_t makeRestoredStoreLive(Database& db, std::int64_t restoredAt);

// The highest event id issued (0 when none).
std::int64_t highestEventId(Connection& c);

}  // namespace aev::store

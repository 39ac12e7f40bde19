#pragma once
// Which database failures mean "the store is unavailable right now" (StorageUnavailable,
// answered 503) rather than "this statement is wrong" (a plain error, answered 500 or
// mapped by the service, e.g. a UNIQUE violation to 409).

namespace aev::store {

// SQLite: I/O errors (a failed write or fsync), a full disk, a database that cannot be
// opened or is read-only, locked or busy past busy_timeout, out of memory, a WAL-index
// protocol error. `rc` may be an extended result code.
bool sqliteFailureIsUnavailability(int rc);

// PostgreSQL: the connection is gone (`connectionOk` false), or the SQLSTATE is of class
// 08 (connection exception), 53 (insufficient resources: disk full, out of memory, too
// many connections), 57P0x (the server is shutting down or starting) or 58 (system error:
// I/O). `sqlstate` may be null.
bool postgresFailureIsUnavailability(bool connectionOk, const char* sqlstate);

}  // namespace aev::store

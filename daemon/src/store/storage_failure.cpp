#include "store/storage_failure.h"

#include <sqlite3.h>

#include <cstring>

namespace aev::store {

bool sqliteFailureIsUnavailability(int rc) {
  switch (rc & 0xff) {  // the primary code of an extended one
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_NOMEM:
    case SQLITE_PROTOCOL:
      return true;
    default:
      return false;
  }
}

bool postgresFailureIsUnavailability(bool connectionOk, const char* sqlstate) {
  if (!connectionOk) return true;
  if (sqlstate == nullptr || std::strlen(sqlstate) != 5) return false;
  return std::strncmp(sqlstate, "08", 2) == 0 || std::strncmp(sqlstate, "53", 2) == 0 ||
         std::strncmp(sqlstate, "57P0", 4) == 0 || std::strncmp(sqlstate, "58", 2) == 0;
}

}  // namespace aev::store

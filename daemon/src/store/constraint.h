#pragma once
#include <exception>

namespace aev::store {

// True when a database exception is a UNIQUE violation (SQLite or PostgreSQL), so a
// service can answer 409 for the race its own pre-check could not see.
bool isUniqueViolation(const std::exception& e);

}  // namespace aev::store

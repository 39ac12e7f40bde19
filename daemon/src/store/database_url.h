#pragma once
#include <string>

namespace aev::store {

// database.url names PostgreSQL (postgresql:// or postgres://); anything else is SQLite.
bool isPostgresUrl(const std::string& url);

}  // namespace aev::store

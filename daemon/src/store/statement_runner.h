#pragma once
// Runs SQL on one pooled session through the driver's own prepared statements.
//
// Why not Poco::Data::Statement: Poco 1.11 compiles a statement on every execution
// (sqlite3_prepare_v2 each time; on PostgreSQL a PQprepare + PQexecPrepared round-trip
// pair each time), which was a third of the CPU of a publish. Poco::Data still opens,
// configures and pools the sessions; a runner borrows the session's native handle and
// keeps each distinct SQL text prepared once per connection (LRU-bounded).
#include <Poco/Data/Session.h>

#include <memory>
#include <string>

#include "store/database.h"

namespace aev::store {

class StatementRunner {
 public:
  virtual ~StatementRunner() = default;
  // `sql` uses `?` placeholders; the PostgreSQL runner rewrites them to $n once, when
  // it prepares the text.
  virtual Rows run(const std::string& sql, const Params& params) = 0;
  // False once the connection is known to be broken, so the pool drops it.
  virtual bool healthy() const = 0;
};

// The runner for a session opened by Database::openSession (it must outlive the runner).
std::unique_ptr<StatementRunner> makeSqliteRunner(Poco::Data::Session& session, std::size_t cacheSize);
std::unique_ptr<StatementRunner> makePostgresRunner(Poco::Data::Session& session, std::size_t cacheSize);

}  // namespace aev::store

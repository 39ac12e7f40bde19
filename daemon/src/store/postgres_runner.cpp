// StatementRunner on libpq directly: each distinct SQL text (and parameter type
// signature) is prepared once per connection, then run with PQexecPrepared: one round
// trip per statement instead of Poco's prepare + execute pair.
#include <Poco/Data/PostgreSQL/SessionImpl.h>
#include <libpq-fe.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "common/blocking_hint.h"
#include "common/storage_unavailable.h"
#include "store/statement_cache.h"
#include "store/statement_runner.h"
#include "store/storage_failure.h"

namespace aev::store {

namespace {

// Type OIDs (pg_type.h) of the results we convert, and of the parameters we type.
constexpr Oid kBool = 16, kInt8 = 20, kInt2 = 21, kInt4 = 23, kOid = 26, kFloat4 = 700, kFloat8 = 701, kNumeric = 1700;

struct ResultGuard {
  PGresult* r;
  ~ResultGuard() { PQclear(r); }
};

[[noreturn]] void fail(PGconn* conn, const PGresult* res, const std::string& sql) {
  std::string message = res ? PQresultErrorMessage(res) : PQerrorMessage(conn);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  const char* state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
  // SQLSTATE in the text: isUniqueViolation looks for 23505.
  message += (state ? std::string(" (SQLSTATE ") + state + ")" : "") + " in: " + sql.substr(0, 200);
  if (postgresFailureIsUnavailability(PQstatus(conn) == CONNECTION_OK, state)) throw StorageUnavailable(message);
  throw std::runtime_error(message);
}

Poco::Dynamic::Var pgColumnValue(const PGresult* res, int row, int col) {
  if (PQgetisnull(res, row, col)) return Poco::Dynamic::Var();
  const char* text = PQgetvalue(res, row, col);
  switch (PQftype(res, col)) {
    case kInt8:
    case kInt2:
    case kInt4:
    case kOid:
      return Poco::Int64{std::strtoll(text, nullptr, 10)};
    case kBool:
      return Poco::Int64{text[0] == 't' ? 1 : 0};
    case kFloat4:
    case kFloat8:
      return std::strtod(text, nullptr);
    case kNumeric:  // SUM(bigint) is numeric: keep integers exact
      if (!std::strpbrk(text, ".eEN")) return Poco::Int64{std::strtoll(text, nullptr, 10)};
      return std::strtod(text, nullptr);
    default:
      return std::string(text, static_cast<std::size_t>(PQgetlength(res, row, col)));
  }
}

struct Prepared {
  std::string name;  // server-side statement name, unique per connection
};

class PostgresRunner final : public StatementRunner {
 public:
  PostgresRunner(PGconn* conn, std::size_t cacheSize)
      : conn_(conn), cache_(cacheSize, [this](Prepared& p) { deallocate(p); }) {}
  ~PostgresRunner() override { cache_.clear(); }

  Rows run(const std::string& sql, const Params& params) override {
    std::string signature;
    signature.reserve(params.size());
    for (const auto& p : params)
      signature += std::holds_alternative<std::int64_t>(p) ? 'i' : std::holds_alternative<double>(p) ? 'd' : 'u';
    const Prepared& stmt = prepared(sql, params, signature);

    std::vector<std::string> texts(params.size());
    std::vector<const char*> values(params.size(), nullptr);
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (const auto* n = std::get_if<std::int64_t>(&params[i])) {
        texts[i] = std::to_string(*n);
        values[i] = texts[i].c_str();
      } else if (const auto* d = std::get_if<double>(&params[i])) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", *d);
        texts[i] = buf;
        values[i] = texts[i].c_str();
      } else if (const auto* s = std::get_if<std::string>(&params[i])) {
        values[i] = s->c_str();  // text format: NUL-terminated
      }
    }
    BlockingHint::aboutToBlock();  // a round trip to the server
    ResultGuard res{
        PQexecPrepared(conn_, stmt.name.c_str(), static_cast<int>(params.size()), values.data(), nullptr, nullptr, 0)};
    const auto status = PQresultStatus(res.r);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(conn_, res.r, sql);

    Rows result;
    const int cols = PQnfields(res.r);
    const int rows = PQntuples(res.r);
    if (cols > 0) {
      auto names = std::make_shared<std::vector<std::string>>();
      names->reserve(static_cast<std::size_t>(cols));
      for (int c = 0; c < cols; ++c) names->emplace_back(PQfname(res.r, c));
      result.columns = std::move(names);
    }
    result.rows.reserve(static_cast<std::size_t>(rows));
    for (int r = 0; r < rows; ++r) {
      std::vector<Poco::Dynamic::Var> values;
      values.reserve(static_cast<std::size_t>(cols));
      for (int c = 0; c < cols; ++c) values.push_back(pgColumnValue(res.r, r, c));
      result.rows.emplace_back(result.columns, std::move(values));
    }
    const char* affected = PQcmdTuples(res.r);
    result.affected = affected && *affected ? std::strtoull(affected, nullptr, 10) : static_cast<std::size_t>(rows);
    return result;
  }

  bool healthy() const override { return PQstatus(conn_) == CONNECTION_OK; }

 private:
  const Prepared& prepared(const std::string& sql, const Params& params, const std::string& signature) {
    const std::string key = signature + '\x1f' + sql;
    if (auto* cached = cache_.find(key)) return *cached;
    // Integers and doubles are typed; text and NULL are left for the server to infer
    // from context (a JSON or timestamp column accepts them that way).
    std::vector<Oid> types(params.size(), 0);
    for (std::size_t i = 0; i < params.size(); ++i)
      types[i] = signature[i] == 'i' ? kInt8 : signature[i] == 'd' ? kFloat8 : 0;
    Prepared p;
    p.name = "aev_" + std::to_string(++counter_);
    const std::string text = rewritePlaceholders(sql);
    ResultGuard res{PQprepare(conn_, p.name.c_str(), text.c_str(), static_cast<int>(types.size()), types.data())};
    if (PQresultStatus(res.r) != PGRES_COMMAND_OK) fail(conn_, res.r, sql);
    return cache_.insert(key, std::move(p));
  }

  void deallocate(const Prepared& p) {
    if (PQstatus(conn_) != CONNECTION_OK) return;
    // Best effort: in an aborted transaction this fails and the server keeps the
    // statement until the connection closes.
    PQclear(PQexec(conn_, ("DEALLOCATE " + p.name).c_str()));
  }

  PGconn* conn_;
  std::uint64_t counter_ = 0;
  StatementCache<Prepared> cache_;
};

}  // namespace

std::unique_ptr<StatementRunner> makePostgresRunner(Poco::Data::Session& session, std::size_t cacheSize) {
  auto* impl = dynamic_cast<Poco::Data::PostgreSQL::SessionImpl*>(session.impl());
  if (!impl) throw std::logic_error("not a PostgreSQL session");
  PGconn* conn = impl->handle();
  if (!conn) throw std::runtime_error("PostgreSQL session is not connected");
  return std::make_unique<PostgresRunner>(conn, cacheSize);
}

}  // namespace aev::store

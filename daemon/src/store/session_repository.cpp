#include "store/session_repository.h"

#include <map>

namespace aev::store {

namespace {

// The totals of a group of traces. SUM of a BIGINT is NUMERIC on PostgreSQL: cast back.
constexpr const char* kTotals =
    "COUNT(*) AS trace_count, MIN(start_time) AS first_seen, MAX(end_time) AS last_seen, "
    "CAST(SUM(input_tokens) AS BIGINT) AS input_tokens, CAST(SUM(output_tokens) AS BIGINT) AS output_tokens, "
    "CAST(SUM(input_tokens + output_tokens) AS BIGINT) AS total_tokens, SUM(cost_usd) AS cost_usd, "
    "CAST(SUM(error_count) AS BIGINT) AS error_count";

// Fixed aliases only (never text from the request); ties by the group's key.
std::string orderClause(const GroupQuery& q, const char* key) {
  const char* column = "last_seen";
  switch (q.orderBy) {
    case GroupQuery::Order::First:
      column = "first_seen";
      break;
    case GroupQuery::Order::Traces:
      column = "trace_count";
      break;
    case GroupQuery::Order::Cost:
      column = "cost_usd";
      break;
    case GroupQuery::Order::Tokens:
      column = "total_tokens";
      break;
    case GroupQuery::Order::Errors:
      column = "error_count";
      break;
    case GroupQuery::Order::Last:
      break;
  }
  const char* dir = q.ascending ? " ASC" : " DESC";
  return std::string(" ORDER BY ") + column + dir + ", " + key + dir;
}

// The WHERE clause of a group query over the traces: the organization, a key, the filters.
std::string whereOf(Connection& c, std::int64_t orgId, const GroupQuery& q, const char* key, Params& params) {
  params.emplace_back(orgId);
  std::string sql = std::string(" FROM traces WHERE org_id = ? AND ") + key + " IS NOT NULL" +
                    traceConditions(c.dialect(), orgId, q.traces, params, TraceFacetRepository().complete(c));
  if (q.userPrefix && !q.userPrefix->empty()) {
    // A prefix compared as characters (substr counts characters on both dialects), not
    // as a LIKE pattern: '%' and '_' in a user id are only themselves.
    std::int64_t chars = 0;
    for (unsigned char ch : *q.userPrefix) chars += (ch & 0xC0) != 0x80;
    sql += " AND substr(user_id, 1, CAST(? AS INTEGER)) = ?";
    params.emplace_back(chars);
    params.emplace_back(*q.userPrefix);
  }
  return sql;
}

SessionRecord sessionFromRow(const Row& r) {
  SessionRecord s;
  s.sessionId = r.str("session_id");
  s.traceCount = r.i64("trace_count");
  s.firstSeen = r.i64("first_seen");
  s.lastSeen = r.i64("last_seen");
  s.inputTokens = r.i64("input_tokens");
  s.outputTokens = r.i64("output_tokens");
  s.costUsd = r.f64("cost_usd");
  s.errorCount = r.i64("error_count");
  s.userCount = r.i64("user_count");
  return s;
}

// The first kSessionUserIds distinct end users of each session, among the traces q counts.
void addUserIds(Connection& c, std::int64_t orgId, const GroupQuery& q, std::vector<SessionRecord>& sessions) {
  if (sessions.empty()) return;
  Params params;
  std::string sql = "SELECT DISTINCT session_id, user_id" + whereOf(c, orgId, q, "session_id", params) +
                    " AND user_id IS NOT NULL AND session_id IN (?";
  for (std::size_t i = 1; i < sessions.size(); ++i) sql += ", ?";
  sql += ") ORDER BY session_id, user_id";
  std::map<std::string, SessionRecord*> byId;
  for (auto& s : sessions) {
    params.emplace_back(s.sessionId);
    byId[s.sessionId] = &s;
  }
  for (const auto& r : c.query(sql, std::move(params))) {
    auto it = byId.find(r.str("session_id"));
    if (it != byId.end() && it->second->userIds.size() < kSessionUserIds)
      it->second->userIds.push_back(r.str("user_id"));
  }
}

}  // namespace

std::vector<SessionRecord> SessionRepository::sessions(Connection& c, std::int64_t orgId, const GroupQuery& q,
                                                       std::int64_t offset, std::int64_t limit) {
  Params params;
  // Appended, not `std::string(...) + ... + ...`: through the precompiled header GCC 12 at -O2
  // reports that chain as -Warray-bounds (GCC bug 105651).
  std::string sql = "SELECT session_id, ";
  sql += kTotals;
  sql += ", COUNT(DISTINCT user_id) AS user_count";
  sql += whereOf(c, orgId, q, "session_id", params);
  sql += " GROUP BY session_id";
  sql += orderClause(q, "session_id");
  sql += " LIMIT ? OFFSET ?";
  params.emplace_back(limit);
  params.emplace_back(offset);
  std::vector<SessionRecord> out;
  for (const auto& r : c.query(sql, std::move(params))) out.push_back(sessionFromRow(r));
  addUserIds(c, orgId, q, out);
  return out;
}

std::int64_t SessionRepository::sessionCount(Connection& c, std::int64_t orgId, const GroupQuery& q) {
  Params params;
  std::string sql = "SELECT COUNT(DISTINCT session_id) AS n" + whereOf(c, orgId, q, "session_id", params);
  return c.query(sql, std::move(params)).front().i64("n");
}

std::optional<SessionRecord> SessionRepository::session(Connection& c, std::int64_t orgId,
                                                        const std::string& sessionId) {
  GroupQuery q;
  q.traces.sessionId = sessionId;
  auto found = sessions(c, orgId, q, 0, 1);
  if (found.empty()) return std::nullopt;
  return found.front();
}

std::vector<TraceRecord> SessionRepository::sessionTraces(Connection& c, std::int64_t orgId,
                                                          const std::string& sessionId, std::int64_t limit) {
  std::vector<TraceRecord> out;
  for (const auto& r : c.query(std::string("SELECT ") + kTraceColumns +
                                   " FROM traces WHERE org_id = ? AND session_id = ? ORDER BY start_time, id LIMIT ?",
                               {orgId, sessionId, limit}))
    out.push_back(traceFromRow(r));
  return out;
}

std::vector<EndUserRecord> SessionRepository::endUsers(Connection& c, std::int64_t orgId, const GroupQuery& q,
                                                       std::int64_t offset, std::int64_t limit) {
  Params params;
  std::string sql = "SELECT user_id, ";  // appended: see sessions()
  sql += kTotals;
  sql += ", COUNT(DISTINCT session_id) AS session_count";
  sql += whereOf(c, orgId, q, "user_id", params);
  sql += " GROUP BY user_id";
  sql += orderClause(q, "user_id");
  sql += " LIMIT ? OFFSET ?";
  params.emplace_back(limit);
  params.emplace_back(offset);
  std::vector<EndUserRecord> out;
  for (const auto& r : c.query(sql, std::move(params))) {
    EndUserRecord u;
    u.userId = r.str("user_id");
    u.traceCount = r.i64("trace_count");
    u.sessionCount = r.i64("session_count");
    u.inputTokens = r.i64("input_tokens");
    u.outputTokens = r.i64("output_tokens");
    u.costUsd = r.f64("cost_usd");
    u.errorCount = r.i64("error_count");
    u.firstSeen = r.i64("first_seen");
    u.lastSeen = r.i64("last_seen");
    out.push_back(std::move(u));
  }
  return out;
}

std::int64_t SessionRepository::endUserCount(Connection& c, std::int64_t orgId, const GroupQuery& q) {
  Params params;
  std::string sql = "SELECT COUNT(DISTINCT user_id) AS n" + whereOf(c, orgId, q, "user_id", params);
  return c.query(sql, std::move(params)).front().i64("n");
}

}  // namespace aev::store

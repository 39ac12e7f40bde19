#include "store/ingest_problem_repository.h"

namespace aev::store {

void IngestProblemRepository::add(Connection& c, const IngestProblemRecord& p) {
  c.exec(
      "INSERT INTO ingest_problems (org_id, occurred_at, route, status, reason, detail, api_key_id, rejected_spans) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      {p.orgId, p.occurredAt, p.route, static_cast<std::int64_t>(p.status), p.reason, p.detail,
       optionalValue(p.apiKeyId), p.rejectedSpans});
  // The id of the newest row past the bound; everything at or below it goes. No such row
  // (fewer rows kept) leaves the comparison NULL and deletes nothing.
  c.exec(
      "DELETE FROM ingest_problems WHERE org_id = ? AND id <= (SELECT id FROM ingest_problems WHERE org_id = ? "
      "ORDER BY id DESC LIMIT 1 OFFSET ?)",
      {p.orgId, p.orgId, kKeptPerOrganization});
}

std::vector<IngestProblemRecord> IngestProblemRepository::list(Connection& c, std::int64_t orgId, std::int64_t limit,
                                                               std::int64_t offset) {
  auto rows = c.query(
      "SELECT id, org_id, occurred_at, route, status, reason, detail, api_key_id, rejected_spans FROM ingest_problems "
      "WHERE org_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
      {orgId, limit, offset});
  std::vector<IngestProblemRecord> out;
  out.reserve(rows.size());
  for (const auto& r : rows) {
    IngestProblemRecord p;
    p.id = r.i64("id");
    p.orgId = r.i64("org_id");
    p.occurredAt = r.i64("occurred_at");
    p.route = r.str("route");
    p.status = static_cast<int>(r.i64("status"));
    p.reason = r.str("reason");
    p.detail = r.str("detail");
    p.apiKeyId = r.optI64("api_key_id");
    p.rejectedSpans = r.i64("rejected_spans");
    out.push_back(std::move(p));
  }
  return out;
}

std::int64_t IngestProblemRepository::count(Connection& c, std::int64_t orgId) {
  auto rows = c.query("SELECT COUNT(*) AS n FROM ingest_problems WHERE org_id = ?", {orgId});
  return rows.empty() ? 0 : rows.front().i64("n");
}

}  // namespace aev::store

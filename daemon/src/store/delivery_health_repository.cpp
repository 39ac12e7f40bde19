#include "store/delivery_health_repository.h"

#include <cstddef>

namespace aev::store {

namespace {
constexpr std::size_t kReasonChars = 300;  // the reason is a response body: its start says enough

// Cuts at a UTF-8 character boundary (the answer is JSON).
std::string cut(std::string text) {
  if (text.size() <= kReasonChars) return text;
  std::size_t end = kReasonChars;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text + "…";
}
}  // namespace

std::map<std::int64_t, DeliveryHealth24h> DeliveryHealthRepository::since(Connection& c, std::int64_t orgId,
                                                                          const std::string& targetKind,
                                                                          std::int64_t since,
                                                                          std::optional<std::int64_t> targetId) {
  std::map<std::int64_t, DeliveryHealth24h> out;
  std::string where = "org_id = ? AND target_kind = ? AND created_at >= ?";
  Params params = {orgId, targetKind, since};
  if (targetId) {
    where += " AND target_id = ?";
    params.emplace_back(*targetId);
  }
  std::string failures;
  for (const auto& r :
       c.query("SELECT target_id, COUNT(*) AS n, SUM(CASE WHEN outcome = 'delivered' THEN 1 ELSE 0 END) AS ok, "
               "MAX(CASE WHEN outcome <> 'delivered' THEN id END) AS failure_id FROM delivery_attempts WHERE " +
                   where + " GROUP BY target_id",
               params)) {
    auto& h = out[r.i64("target_id")];
    h.deliveries = r.i64("n");
    h.succeeded = r.i64("ok");
    if (auto id = r.optI64("failure_id")) failures += (failures.empty() ? "" : ",") + std::to_string(*id);
  }
  if (failures.empty()) return out;
  // Ids this query just read (integers): safe to inline, and one statement for all.
  for (const auto& r : c.query("SELECT target_id, created_at, status_code, response_body FROM delivery_attempts WHERE "
                               "org_id = ? AND id IN (" +
                                   failures + ")",
                               {orgId})) {
    auto& h = out[r.i64("target_id")];
    h.lastFailureAt = r.i64("created_at");
    if (const auto status = r.i64("status_code"); status > 0) h.lastFailureStatus = status;
    const auto body = r.str("response_body");
    if (!body.empty()) h.lastFailureReason = cut(body);
  }
  return out;
}

}  // namespace aev::store

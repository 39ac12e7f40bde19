#include "store/outbox_repository.h"

namespace aev::store {

namespace {

const char* const kAttemptColumns =
    "id, org_id, outbox_id, target_kind, target_id, event_id, message_id, attempt, status_code, response_body, "
    "outcome, duration_ms, next_attempt_at, created_at";

DeliveryAttemptRecord attemptFromRow(const Row& r) {
  DeliveryAttemptRecord a;
  a.id = r.i64("id");
  a.orgId = r.i64("org_id");
  a.outboxId = r.i64("outbox_id");
  a.targetKind = r.str("target_kind");
  a.targetId = r.i64("target_id");
  a.eventId = r.optI64("event_id");
  a.messageId = r.str("message_id");
  a.attempt = r.i64("attempt");
  a.statusCode = r.i64("status_code");
  a.responseBody = r.str("response_body");
  a.outcome = r.str("outcome");
  a.durationMs = r.i64("duration_ms");
  a.nextAttemptAt = r.optI64("next_attempt_at");
  a.createdAt = r.i64("created_at");
  return a;
}

}  // namespace

std::int64_t OutboxRepository::enqueue(Connection& c, std::int64_t orgId, const std::string& targetKind,
                                       std::int64_t targetId, std::optional<std::int64_t> eventId,
                                       std::optional<std::string> messageId, std::optional<std::string> payload,
                                       std::int64_t dueAt) {
  return c.insert(
      "INSERT INTO delivery_outbox (org_id, target_kind, target_id, event_id, message_id, payload, state, attempts, "
      "next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?) RETURNING id",
      {orgId, targetKind, targetId, optionalValue(eventId), optionalValue(messageId), optionalValue(payload), dueAt,
       dueAt, dueAt});
}

bool OutboxRepository::anyDue(Connection& c, std::int64_t now) {
  return !c.query("SELECT id FROM delivery_outbox WHERE state = 'pending' AND next_attempt_at <= ? AND "
                  "(claimed_until IS NULL OR claimed_until < ?) LIMIT 1",
                  {now, now})
              .empty();
}

std::vector<OutboxMessage> OutboxRepository::claim(Connection& c, std::int64_t now, std::int64_t leaseUntil,
                                                   std::int64_t limit) {
  // The head of a target is its lowest pending id: a later message waits until the one
  // before it is delivered or has failed for good (ordering, one in flight per target).
  std::string pick =
      "SELECT o.id FROM delivery_outbox o WHERE o.state = 'pending' AND o.next_attempt_at <= ? AND "
      "(o.claimed_until IS NULL OR o.claimed_until < ?) AND NOT EXISTS (SELECT 1 FROM delivery_outbox p WHERE "
      "p.target_kind = o.target_kind AND p.target_id = o.target_id AND p.state = 'pending' AND p.id < o.id) "
      "ORDER BY o.next_attempt_at, o.id LIMIT ?";
  if (c.dialect() == Dialect::PostgreSQL) pick += " FOR UPDATE SKIP LOCKED";
  auto rows = c.query(
      "UPDATE delivery_outbox SET claimed_until = ?, attempts = attempts + 1, updated_at = ? WHERE id IN (" + pick +
          ") RETURNING id, org_id, target_kind, target_id, event_id, message_id, payload, attempts, claimed_until, "
          "created_at",
      {leaseUntil, now, now, now, limit});
  std::vector<OutboxMessage> out;
  for (const auto& r : rows) {
    OutboxMessage m;
    m.id = r.i64("id");
    m.orgId = r.i64("org_id");
    m.targetKind = r.str("target_kind");
    m.targetId = r.i64("target_id");
    m.eventId = r.optI64("event_id");
    m.messageId = r.optStr("message_id").value_or("msg_" + std::to_string(m.id));
    m.payload = r.optStr("payload");
    m.attempt = r.i64("attempts");
    m.claimedUntil = r.i64("claimed_until");
    m.createdAt = r.i64("created_at");
    out.push_back(std::move(m));
  }
  return out;
}

bool OutboxRepository::finish(Connection& c, const OutboxMessage& m) {
  return c.exec("DELETE FROM delivery_outbox WHERE id = ? AND claimed_until = ?", {m.id, m.claimedUntil}) > 0;
}

bool OutboxRepository::reschedule(Connection& c, const OutboxMessage& m, std::int64_t nextAttemptAt,
                                  const std::string& lastError) {
  return c.exec(
             "UPDATE delivery_outbox SET next_attempt_at = ?, claimed_until = NULL, last_error = ?, updated_at = ? "
             "WHERE id = ? AND claimed_until = ?",
             {nextAttemptAt, lastError.substr(0, 1000), nextAttemptAt, m.id, m.claimedUntil}) > 0;
}

void OutboxRepository::recordAttempt(Connection& c, const DeliveryAttemptRecord& a) {
  c.exec(
      "INSERT INTO delivery_attempts (org_id, outbox_id, target_kind, target_id, event_id, message_id, attempt, "
      "status_code, response_body, outcome, duration_ms, next_attempt_at, created_at) VALUES "
      "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      {a.orgId, a.outboxId, a.targetKind, a.targetId, optionalValue(a.eventId), a.messageId, a.attempt, a.statusCode,
       a.responseBody, a.outcome, a.durationMs, optionalValue(a.nextAttemptAt), a.createdAt});
}

void OutboxRepository::dropTarget(Connection& c, std::int64_t orgId, const std::string& targetKind,
                                  std::int64_t targetId, bool forgetAttempts) {
  c.exec("DELETE FROM delivery_outbox WHERE org_id = ? AND target_kind = ? AND target_id = ?",
         {orgId, targetKind, targetId});
  if (forgetAttempts)
    c.exec("DELETE FROM delivery_attempts WHERE org_id = ? AND target_kind = ? AND target_id = ?",
           {orgId, targetKind, targetId});
}

std::int64_t OutboxRepository::pendingCount(Connection& c, std::int64_t orgId, const std::string& targetKind,
                                            std::int64_t targetId) {
  return c
      .query("SELECT COUNT(*) AS n FROM delivery_outbox WHERE org_id = ? AND target_kind = ? AND target_id = ? AND "
             "state = 'pending'",
             {orgId, targetKind, targetId})
      .front()
      .i64("n");
}

std::vector<DeliveryAttemptRecord> OutboxRepository::attempts(Connection& c, std::int64_t orgId,
                                                              const std::string& targetKind, std::int64_t targetId,
                                                              std::int64_t limit, const AttemptFilter& filter) {
  std::string sql = std::string("SELECT ") + kAttemptColumns +
                    " FROM delivery_attempts WHERE org_id = ? AND target_kind = ? AND target_id = ?";
  Params params{orgId, targetKind, targetId};
  if (filter.outcome) {
    sql += " AND outcome = ?";
    params.emplace_back(*filter.outcome);
  }
  if (filter.statusClass) {
    if (*filter.statusClass == 0) {
      sql += " AND status_code = 0";
    } else {
      sql += " AND status_code >= ? AND status_code < ?";
      params.emplace_back(std::int64_t{*filter.statusClass} * 100);
      params.emplace_back(std::int64_t{*filter.statusClass} * 100 + 100);
    }
  }
  sql += " ORDER BY id DESC LIMIT ?";
  params.emplace_back(limit);
  std::vector<DeliveryAttemptRecord> out;
  for (const auto& r : c.query(sql, std::move(params))) out.push_back(attemptFromRow(r));
  return out;
}

std::optional<DeliveryAttemptRecord> OutboxRepository::attempt(Connection& c, std::int64_t orgId,
                                                               std::int64_t attemptId) {
  auto rows = c.query(std::string("SELECT ") + kAttemptColumns + " FROM delivery_attempts WHERE org_id = ? AND id = ?",
                      {orgId, attemptId});
  if (rows.empty()) return std::nullopt;
  return attemptFromRow(rows.front());
}

std::size_t OutboxRepository::pruneAttempts(Connection& c, std::int64_t before) {
  return c.exec("DELETE FROM delivery_attempts WHERE created_at < ?", {before});
}

}  // namespace aev::store

#pragma once
// The delivery engine's tables (schema_delivery.cpp): the outbox, one row per message to
// one target, and the log of every attempt. Claims lease the head message of each target
// (its lowest pending id), so a target has at most one message in flight and receives its
// messages in order; a crashed worker's lease runs out and the message is taken again.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct OutboxMessage {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::string targetKind;  // "webhook", "export", ...
  std::int64_t targetId = 0;
  std::optional<std::int64_t> eventId;
  std::string messageId;  // stable across attempts and redeliveries
  std::optional<std::string> payload;
  std::int64_t attempt = 0;  // this attempt's number, 1-based
  std::int64_t claimedUntil = 0;  // the lease; finishing needs it unchanged
  std::int64_t createdAt = 0;
};

struct DeliveryAttemptRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::int64_t outboxId = 0;
  std::string targetKind;
  std::int64_t targetId = 0;
  std::optional<std::int64_t> eventId;
  std::string messageId;
  std::int64_t attempt = 0;
  std::int64_t statusCode = 0;
  std::string responseBody;
  std::string outcome;  // delivered | retrying | failed
  std::int64_t durationMs = 0;
  std::optional<std::int64_t> nextAttemptAt;
  std::int64_t createdAt = 0;
};

// Which attempts a listing keeps (each field optional, ANDed): an outcome (delivered,
// retrying, failed) and a status class: 2 to 5 for 2xx to 5xx, 0 for no HTTP answer.
struct AttemptFilter {
  std::optional<std::string> outcome;
  std::optional<int> statusClass;
};

class OutboxRepository {
 public:
  // A new pending message, due at `dueAt`. Runs in the caller's transaction.
  std::int64_t enqueue(Connection& c, std::int64_t orgId, const std::string& targetKind, std::int64_t targetId,
                       std::optional<std::int64_t> eventId, std::optional<std::string> messageId,
                       std::optional<std::string> payload, std::int64_t dueAt);

  // Is any message due (a cheap probe before taking the write lock to claim)?
  bool anyDue(Connection& c, std::int64_t now);
  // Leases up to `limit` due head-of-target messages until `leaseUntil` and counts the
  // attempt. PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: the caller's IMMEDIATE
  // transaction holds the write lock. Call inside a transaction.
  std::vector<OutboxMessage> claim(Connection& c, std::int64_t now, std::int64_t leaseUntil, std::int64_t limit);

  // Ends a message (delivered, failed for good, cancelled): the row goes, its attempts
  // stay. False when the lease was lost (the row changed or went meanwhile).
  bool finish(Connection& c, const OutboxMessage& m);
  // Schedules the next attempt and releases the lease. False when the lease was lost.
  bool reschedule(Connection& c, const OutboxMessage& m, std::int64_t nextAttemptAt, const std::string& lastError);
  void recordAttempt(Connection& c, const DeliveryAttemptRecord& a);

  // Drops a target's pending messages (and with forget, its attempt log too).
  void dropTarget(Connection& c, std::int64_t orgId, const std::string& targetKind, std::int64_t targetId,
                  bool forgetAttempts);
  std::int64_t pendingCount(Connection& c, std::int64_t orgId, const std::string& targetKind, std::int64_t targetId);

  // Newest first.
  std::vector<DeliveryAttemptRecord> attempts(Connection& c, std::int64_t orgId, const std::string& targetKind,
                                              std::int64_t targetId, std::int64_t limit,
                                              const AttemptFilter& filter = {});
  std::optional<DeliveryAttemptRecord> attempt(Connection& c, std::int64_t orgId, std::int64_t attemptId);
  // Forgets attempts recorded before `before` (all organizations); returns how many.
  std::size_t pruneAttempts(Connection& c, std::int64_t before);
};

}  // namespace aev::store

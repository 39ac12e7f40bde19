#pragma once
// The tamper-evident audit log (docs/features.md#audit-log). Services call
// record() inside the transaction of the change they make, so a change and its entry
// commit or roll back together; appends to one organization's chain are serialized by
// the head row's lock, so the seq is gapless and the chain never forks.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit/actor.h"
#include "audit/chain_verifier.h"
#include "audit/checkpoint_signer.h"
#include "store/audit_repository.h"
#include "store/database.h"

namespace aev::audit {

struct AuditQuery {
  std::optional<std::string> action;
  std::optional<std::string> resourceType;
  std::optional<std::string> source;
  std::optional<std::int64_t> before;     // µs, exclusive; default now
  std::optional<std::int64_t> beforeSeq;  // exclusive: the next page after an entry, exact where times tie
  std::optional<std::int64_t> afterSeq;   // exclusive: the page just newer than an entry (still newest first)
  std::optional<std::int64_t> limit;   // 1..200, default 50
};

class AuditLog {
 public:
  // signer may be null (then no checkpoints are written and none can be checked).
  AuditLog(store::Database& db, const CheckpointSigner* signer) : db_(db), signer_(signer) {}

  void record(store::Connection& c, std::int64_t orgId, const Actor& actor, const Change& change);
  // An entry of its own, in its own transaction: for what changes no state (MCP tool calls).
  void append(std::int64_t orgId, const Actor& actor, const Change& change);

  std::vector<store::AuditRecord> list(std::int64_t orgId, const AuditQuery& query);

  // Checks the chain; when it holds, signs a checkpoint of the head (unless one exists).
  VerifyReport verify(std::int64_t orgId);
  // Signs a checkpoint of every organization whose head moved since its last one.
  std::size_t checkpointAll();

  const CheckpointSigner* signer() const { return signer_; }

 private:
  std::optional<store::AuditCheckpointRecord> signHead(store::Connection& c, std::int64_t orgId,
                                                       const store::AuditHead& head);
  store::Database& db_;
  const CheckpointSigner* signer_;
  store::AuditRepository repo_;
};

}  // namespace aev::audit

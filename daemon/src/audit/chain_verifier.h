#pragma once
// Recomputes an organization's audit chain (docs/features.md#audit-log) and checks it against the head
// row and the signed checkpoints. Shared by GET /audit-logs/verify and the offline
// `agent-eventsd audit verify`.
#include <cstdint>
#include <optional>
#include <string>

#include "audit/checkpoint_signer.h"
#include "store/audit_repository.h"

namespace aev::audit {

struct VerifyReport {
  bool ok = true;
  std::int64_t checked = 0;                 // entries whose hashes were recomputed
  std::optional<std::int64_t> brokenAtSeq;  // the first seq that is missing, altered or out of place
  std::string reason;                       // why, for a human ("" when ok)
  std::optional<store::AuditHead> head;
  std::int64_t checkpointsVerified = 0;                          // signed checkpoints compared with the chain
  std::int64_t checkpointsUnverifiable = 0;                      // signed with a key this node does not hold
  std::optional<store::AuditCheckpointRecord> latestCheckpoint;  // newest verified one
};

// Reads the head first and checks the chain up to it, so entries appended while it runs
// are left for the next check instead of looking like a mismatch. With a rewrite of the
// whole chain (hashes recomputed), brokenAtSeq is the first signed checkpoint the
// rewrite contradicts: entries up to the checkpoint before it are proven intact.
VerifyReport verifyChain(store::Connection& c, std::int64_t orgId, const CheckpointSigner* signer);

}  // namespace aev::audit

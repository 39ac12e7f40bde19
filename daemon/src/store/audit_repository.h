#pragma once
// The audit log's rows (docs/features.md#audit-log): entries, the per-organization
// head, signed checkpoints. Every call is scoped by organization id. The chain itself
// (hashing, signing, verification) lives in the audit module; this is only SQL.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct AuditRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::int64_t seq = 0;
  std::string actorId;
  std::string actorEmail;
  std::string action;
  std::string resourceType;
  std::string resourceId;
  std::string source;
  std::string ipAddress;
  std::string requestId;
  std::optional<std::string> metadata;  // canonical JSON text
  std::int64_t createdAt = 0;
  std::string prevHash;
  std::string entryHash;
};

struct AuditHead {
  std::int64_t seq = 0;
  std::string entryHash;
};

struct AuditCheckpointRecord {
  std::int64_t orgId = 0;
  std::int64_t seq = 0;
  std::string entryHash;
  std::int64_t signedAt = 0;
  std::string keyId;
  std::string signature;
};

struct AuditFilter {
  std::int64_t orgId = 0;
  std::int64_t before = 0;  // exclusive, µs
  std::optional<std::int64_t> beforeSeq;  // exclusive
  std::optional<std::int64_t> afterSeq;   // exclusive; the `limit` entries nearest to it
  std::optional<std::string> action;
  std::optional<std::string> resourceType;
  std::optional<std::string> source;
  std::int64_t limit = 50;
};

class AuditRepository {
 public:
  // Advances the organization's head by one and returns the previous head (seq 0 and
  // `genesisHash` for the first entry). Holds the head's lock until the transaction ends.
  AuditHead advanceHead(Connection& c, std::int64_t orgId, const std::string& genesisHash);
  void setHeadHash(Connection& c, std::int64_t orgId, const std::string& entryHash);
  std::optional<AuditHead> head(Connection& c, std::int64_t orgId);
  std::int64_t insert(Connection& c, const AuditRecord& r);

  // Newest first.
  std::vector<AuditRecord> list(Connection& c, const AuditFilter& f);
  // Entries with seq > afterSeq in seq order, at most limit: how verification walks.
  std::vector<AuditRecord> chainPage(Connection& c, std::int64_t orgId, std::int64_t afterSeq, std::int64_t limit);

  void insertCheckpoint(Connection& c, const AuditCheckpointRecord& cp);              // ignores a duplicate seq
  std::vector<AuditCheckpointRecord> checkpoints(Connection& c, std::int64_t orgId);  // seq order
  std::optional<AuditCheckpointRecord> latestCheckpoint(Connection& c, std::int64_t orgId);
  // Organizations whose head has moved past their latest checkpoint (or that have none).
  std::vector<std::int64_t> orgsNeedingCheckpoint(Connection& c);
  std::vector<std::int64_t> orgsWithEntries(Connection& c);
};

}  // namespace aev::store

#pragma once
// The hash chain of docs/features.md#audit-log: entryHash = SHA-256(prevHash ‖ canonical JSON of the
// entry), hex; the first entry's prevHash is 64 zeros. The canonical JSON is an object
// of these keys (sorted, canonical_json.h): action, actorEmail, actorId, createdAt (RFC
// 3339 UTC with microseconds), ipAddress, metadata (the stored canonical text, or null),
// organizationId (string), requestId, resourceId, resourceType, seq (integer), source.
// The row id and the two hashes are not part of it.
#include <string>

#include "store/audit_repository.h"

namespace aev::audit {

inline const std::string kGenesisHash(64, '0');

std::string entryText(const store::AuditRecord& entry);
std::string entryHash(const std::string& prevHash, const store::AuditRecord& entry);

// What a checkpoint signs: canonical JSON of {entryHash, keyId, organizationId (string),
// seq, signedAt (RFC 3339)}.
std::string checkpointText(const store::AuditCheckpointRecord& checkpoint);

}  // namespace aev::audit

#include "store/audit_repository.h"

#include <algorithm>

namespace aev::store {

namespace {

constexpr const char* kAuditColumns =
    "id, org_id, seq, actor_id, actor_email, action, resource_type, resource_id, source, ip_address, request_id, "
    "metadata, created_at, prev_hash, entry_hash";

AuditRecord recordFromRow(const Row& r) {
  AuditRecord a;
  a.id = r.i64("id");
  a.orgId = r.i64("org_id");
  a.seq = r.i64("seq");
  a.actorId = r.str("actor_id");
  a.actorEmail = r.str("actor_email");
  a.action = r.str("action");
  a.resourceType = r.str("resource_type");
  a.resourceId = r.str("resource_id");
  a.source = r.str("source");
  a.ipAddress = r.str("ip_address");
  a.requestId = r.str("request_id");
  a.metadata = r.optStr("metadata");
  a.createdAt = r.i64("created_at");
  a.prevHash = r.str("prev_hash");
  a.entryHash = r.str("entry_hash");
  return a;
}

AuditCheckpointRecord checkpointFromRow(const Row& r) {
  return {r.i64("org_id"), r.i64("seq"), r.str("entry_hash"), r.i64("signed_at"), r.str("key_id"), r.str("signature")};
}

}  // namespace

AuditHead AuditRepository::advanceHead(Connection& c, std::int64_t orgId, const std::string& genesisHash) {
  // One statement: creates the head at seq 1 or bumps it. RETURNING shows the new seq;
  // entry_hash is untouched by the bump, so it is still the previous entry's hash.
  auto rows = c.query(
      "INSERT INTO audit_heads (org_id, seq, entry_hash) VALUES (?, 1, ?) "
      "ON CONFLICT (org_id) DO UPDATE SET seq = audit_heads.seq + 1 RETURNING seq, entry_hash",
      {orgId, genesisHash});
  return {rows.front().i64("seq") - 1, rows.front().str("entry_hash")};
}

void AuditRepository::setHeadHash(Connection& c, std::int64_t orgId, const std::string& entryHash) {
  c.exec("UPDATE audit_heads SET entry_hash = ? WHERE org_id = ?", {entryHash, orgId});
}

std::optional<AuditHead> AuditRepository::head(Connection& c, std::int64_t orgId) {
  auto rows = c.query("SELECT seq, entry_hash FROM audit_heads WHERE org_id = ?", {orgId});
  if (rows.empty()) return std::nullopt;
  return AuditHead{rows.front().i64("seq"), rows.front().str("entry_hash")};
}

std::int64_t AuditRepository::insert(Connection& c, const AuditRecord& r) {
  return c.insert(
      "INSERT INTO audit_log (org_id, seq, actor_id, actor_email, action, resource_type, resource_id, source, "
      "ip_address, request_id, metadata, created_at, prev_hash, entry_hash) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
      {r.orgId, r.seq, r.actorId, r.actorEmail, r.action, r.resourceType, r.resourceId, r.source, r.ipAddress,
       r.requestId, optionalValue(r.metadata), r.createdAt, r.prevHash, r.entryHash});
}

std::vector<AuditRecord> AuditRepository::list(Connection& c, const AuditFilter& f) {
  std::string sql = std::string("SELECT ") + kAuditColumns + " FROM audit_log WHERE org_id = ? AND created_at < ?";
  Params params{f.orgId, f.before};
  if (f.beforeSeq) {
    // Entries take their time under the head's lock, so seq order is time order and a
    // seq cursor pages the same newest-first list without skipping equal times.
    sql += " AND seq < ?";
    params.emplace_back(*f.beforeSeq);
  }
  if (f.afterSeq) {
    sql += " AND seq > ?";
    params.emplace_back(*f.afterSeq);
  }
  if (f.action) {
    sql += " AND action = ?";
    params.emplace_back(*f.action);
  }
  if (f.resourceType) {
    sql += " AND resource_type = ?";
    params.emplace_back(*f.resourceType);
  }
  if (f.source) {
    sql += " AND source = ?";
    params.emplace_back(*f.source);
  }
  // After a seq, the page is the entries nearest to it (oldest first), then turned around.
  sql += f.afterSeq ? " ORDER BY created_at, seq LIMIT ?" : " ORDER BY created_at DESC, seq DESC LIMIT ?";
  params.emplace_back(f.limit);
  std::vector<AuditRecord> out;
  for (const auto& r : c.query(sql, params)) out.push_back(recordFromRow(r));
  if (f.afterSeq) std::reverse(out.begin(), out.end());
  return out;
}

std::vector<AuditRecord> AuditRepository::chainPage(Connection& c, std::int64_t orgId, std::int64_t afterSeq,
                                                    std::int64_t limit) {
  std::vector<AuditRecord> out;
  for (const auto& r : c.query(std::string("SELECT ") + kAuditColumns +
                                   " FROM audit_log WHERE org_id = ? AND seq > ? ORDER BY seq, id LIMIT ?",
                               {orgId, afterSeq, limit}))
    out.push_back(recordFromRow(r));
  return out;
}

void AuditRepository::insertCheckpoint(Connection& c, const AuditCheckpointRecord& cp) {
  c.exec(
      "INSERT INTO audit_checkpoints (org_id, seq, entry_hash, signed_at, key_id, signature) VALUES (?, ?, ?, ?, ?, ?) "
      "ON CONFLICT (org_id, seq) DO NOTHING",
      {cp.orgId, cp.seq, cp.entryHash, cp.signedAt, cp.keyId, cp.signature});
}

std::vector<AuditCheckpointRecord> AuditRepository::checkpoints(Connection& c, std::int64_t orgId) {
  std::vector<AuditCheckpointRecord> out;
  for (const auto& r : c.query("SELECT org_id, seq, entry_hash, signed_at, key_id, signature FROM audit_checkpoints "
                               "WHERE org_id = ? ORDER BY seq",
                               {orgId}))
    out.push_back(checkpointFromRow(r));
  return out;
}

std::optional<AuditCheckpointRecord> AuditRepository::latestCheckpoint(Connection& c, std::int64_t orgId) {
  auto rows = c.query(
      "SELECT org_id, seq, entry_hash, signed_at, key_id, signature FROM audit_checkpoints WHERE org_id = ? "
      "ORDER BY seq DESC LIMIT 1",
      {orgId});
  if (rows.empty()) return std::nullopt;
  return checkpointFromRow(rows.front());
}

std::vector<std::int64_t> AuditRepository::orgsNeedingCheckpoint(Connection& c) {
  std::vector<std::int64_t> out;
  for (const auto& r :
       c.query("SELECT h.org_id AS org_id FROM audit_heads h WHERE h.seq > "
               "COALESCE((SELECT MAX(k.seq) FROM audit_checkpoints k WHERE k.org_id = h.org_id), 0) ORDER BY h.org_id"))
    out.push_back(r.i64("org_id"));
  return out;
}

std::vector<std::int64_t> AuditRepository::orgsWithEntries(Connection& c) {
  std::vector<std::int64_t> out;
  for (const auto& r : c.query("SELECT org_id FROM audit_heads ORDER BY org_id")) out.push_back(r.i64("org_id"));
  return out;
}

}  // namespace aev::store

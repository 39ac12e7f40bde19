#include "audit/audit_log.h"

#include <spdlog/spdlog.h>

#include "audit/canonical_json.h"
#include "audit/chain.h"
#include "common/clock.h"
#include "common/errors.h"

namespace aev::audit {

void AuditLog::record(store::Connection& c, std::int64_t orgId, const Actor& actor, const Change& change) {
  // The head first: from here until commit this transaction owns the organization's
  // chain, so the time taken next is also in seq order.
  const auto prev = repo_.advanceHead(c, orgId, kGenesisHash);
  store::AuditRecord r;
  r.orgId = orgId;
  r.seq = prev.seq + 1;
  r.prevHash = prev.entryHash;
  r.actorId = actor.actorId;
  r.actorEmail = actor.actorEmail;
  r.action = change.action;
  r.resourceType = change.resourceType;
  r.resourceId = change.resourceId;
  r.source = actor.source;
  r.ipAddress = actor.ipAddress;
  r.requestId = actor.requestId;
  if (change.metadata) r.metadata = canonicalJson(change.metadata);
  r.createdAt = clock::nowMicros();
  r.entryHash = entryHash(r.prevHash, r);
  repo_.insert(c, r);
  repo_.setHeadHash(c, orgId, r.entryHash);
}

void AuditLog::append(std::int64_t orgId, const Actor& actor, const Change& change) {
  db_.transaction([&](store::Connection& c) { record(c, orgId, actor, change); });
}

std::vector<store::AuditRecord> AuditLog::list(std::int64_t orgId, const AuditQuery& q) {
  std::vector<FieldError> problems;
  if (q.source && *q.source != "dashboard" && *q.source != "apikey" && *q.source != "mcp")
    problems.push_back({"query.source", "must be dashboard, apikey or mcp", *q.source});
  if (q.limit && (*q.limit < 1 || *q.limit > 200))
    problems.push_back({"query.limit", "must be an integer from 1 to 200", std::to_string(*q.limit)});
  if (!problems.empty()) throw errors::validation(std::move(problems));
  store::AuditFilter f;
  f.orgId = orgId;
  f.before = q.before.value_or(clock::nowMicros() + 1);
  f.beforeSeq = q.beforeSeq;
  f.afterSeq = q.afterSeq;
  f.action = q.action;
  f.resourceType = q.resourceType;
  f.source = q.source;
  f.limit = q.limit.value_or(50);
  auto c = db_.acquire();
  return repo_.list(*c, f);
}

std::optional<store::AuditCheckpointRecord> AuditLog::signHead(store::Connection& c, std::int64_t orgId,
                                                               const store::AuditHead& head) {
  if (!signer_ || head.seq == 0) return std::nullopt;
  store::AuditCheckpointRecord cp{orgId, head.seq, head.entryHash, clock::nowMicros(), signer_->keyId(), ""};
  cp.signature = signer_->sign(checkpointText(cp));
  repo_.insertCheckpoint(c, cp);
  return cp;
}

VerifyReport AuditLog::verify(std::int64_t orgId) {
  auto c = db_.acquire();
  auto report = verifyChain(*c, orgId, signer_);
  if (report.ok && report.head && (!report.latestCheckpoint || report.latestCheckpoint->seq < report.head->seq)) {
    if (auto cp = signHead(*c, orgId, *report.head)) report.latestCheckpoint = cp;
  }
  return report;
}

std::size_t AuditLog::checkpointAll() {
  if (!signer_) return 0;
  auto c = db_.acquire();
  std::size_t signedCount = 0;
  for (auto orgId : repo_.orgsNeedingCheckpoint(*c)) {
    // Only a chain that verifies gets a signature: signing a tampered head would bless it.
    auto report = verifyChain(*c, orgId, signer_);
    if (!report.ok) {
      spdlog::error("audit log of organization {} does not verify at seq {}: {}", orgId, report.brokenAtSeq.value_or(0),
                    report.reason);
      continue;
    }
    if (report.head && signHead(*c, orgId, *report.head)) ++signedCount;
  }
  return signedCount;
}

}  // namespace aev::audit

#include "app/audit_command.h"

#include "app/runtime.h"
#include "audit/chain_verifier.h"
#include "common/clock.h"
#include "store/database.h"
#include "store/migrations.h"

namespace aev::app {

namespace {

constexpr int kAuditExitOk = 0;
constexpr int kAuditExitUsage = 64;
constexpr int kAuditExitDataError = 65;
constexpr int kAuditSchemaVersion = 7;

void print(std::ostream& out, std::int64_t orgId, const audit::VerifyReport& r) {
  out << "organization " << orgId << ": " << (r.ok ? "ok" : "BROKEN") << ", " << r.checked << " entries checked";
  if (r.head) out << ", head seq " << r.head->seq;
  out << ", " << r.checkpointsVerified << " signed checkpoint(s) matched";
  if (r.checkpointsUnverifiable) out << ", " << r.checkpointsUnverifiable << " signed with another key";
  if (r.latestCheckpoint)
    out << ", newest checkpoint seq " << r.latestCheckpoint->seq << " signed "
        << clock::toRfc3339(r.latestCheckpoint->signedAt);
  out << "\n";
  if (!r.ok) out << "  broken at seq " << r.brokenAtSeq.value_or(0) << ": " << r.reason << "\n";
}

}  // namespace

int runAuditCommand(const Poco::Util::AbstractConfiguration& cfg, const std::vector<std::string>& args,
                    std::ostream& out) {
  if (args.empty() || args[0] != "verify" || args.size() > 2) {
    out << "usage: agent-eventsd [--config FILE | --data-dir DIR | --database-url URL] audit verify [ORG_ID]\n";
    return kAuditExitUsage;
  }
  std::optional<std::int64_t> onlyOrg;
  if (args.size() == 2) {
    try {
      std::size_t used = 0;
      onlyOrg = std::stoll(args[1], &used);
      if (used != args[1].size() || *onlyOrg <= 0) throw std::invalid_argument(args[1]);
    } catch (const std::exception&) {
      out << "audit verify: ORG_ID must be a positive integer, not " << args[1] << "\n";
      return kAuditExitUsage;
    }
  }

  store::Database db(databaseOptionsFrom(cfg, 2));
  if (store::currentSchemaVersion(db) < kAuditSchemaVersion) {
    out << "audit verify: the store at " << db.describe() << " has no audit log (schema older than v"
        << kAuditSchemaVersion << ")\n";
    return kAuditExitDataError;
  }
  const auto keyPath = auditKeyPath(cfg);
  const auto signer = audit::CheckpointSigner::load(keyPath);
  if (!signer) out << "warning: no signing key at " << keyPath << ": signed checkpoints cannot be checked\n";

  auto conn = db.acquire();
  store::AuditRepository repo;
  const auto orgs = onlyOrg ? std::vector<std::int64_t>{*onlyOrg} : repo.orgsWithEntries(*conn);
  int broken = 0;
  for (auto orgId : orgs) {
    const auto report = audit::verifyChain(*conn, orgId, signer ? &*signer : nullptr);
    print(out, orgId, report);
    if (!report.ok) ++broken;
  }
  out << orgs.size() << " organization(s) checked, " << broken << " broken\n";
  return broken ? kAuditExitDataError : kAuditExitOk;
}

}  // namespace aev::app

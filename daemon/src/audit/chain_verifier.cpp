#include "audit/chain_verifier.h"

#include <map>

#include "audit/chain.h"
#include "common/clock.h"

namespace aev::audit {

namespace {

constexpr std::int64_t kPage = 1000;

class Walk {
 public:
  explicit Walk(VerifyReport& report) : report_(report) {}
  bool failed() const { return !report_.ok; }
  void fail(std::int64_t seq, std::string reason) {
    if (!report_.ok) return;  // the first break is the one that counts
    report_.ok = false;
    report_.brokenAtSeq = seq;
    report_.reason = std::move(reason);
  }

 private:
  VerifyReport& report_;
};

}  // namespace

VerifyReport verifyChain(store::Connection& c, std::int64_t orgId, const CheckpointSigner* signer) {
  store::AuditRepository repo;
  VerifyReport report;
  Walk walk(report);
  report.head = repo.head(c, orgId);

  // Checkpoints whose signature holds are trusted statements about the chain.
  std::map<std::int64_t, store::AuditCheckpointRecord> trusted;
  for (auto& cp : repo.checkpoints(c, orgId)) {
    if (!signer || cp.keyId != signer->keyId()) {
      ++report.checkpointsUnverifiable;
      continue;
    }
    if (!signer->verify(checkpointText(cp), cp.signature)) {
      walk.fail(cp.seq, "the checkpoint at seq " + std::to_string(cp.seq) + " has an invalid signature");
      continue;
    }
    trusted.emplace(cp.seq, std::move(cp));
  }
  if (!trusted.empty()) report.latestCheckpoint = trusted.rbegin()->second;

  const std::int64_t stopAfter = report.head ? report.head->seq : INT64_MAX;
  std::int64_t expected = 1;
  std::string prev = kGenesisHash;
  bool more = !walk.failed();
  while (more) {
    auto page = repo.chainPage(c, orgId, expected - 1, kPage);
    more = static_cast<std::int64_t>(page.size()) == kPage;
    for (const auto& e : page) {
      if (e.seq > stopAfter) {
        more = false;
        break;
      }
      if (e.seq != expected) {
        walk.fail(expected, "entry seq " + std::to_string(expected) + " is missing (the next stored entry is seq " +
                                std::to_string(e.seq) + ")");
      } else if (e.prevHash != prev) {
        walk.fail(e.seq, "prevHash of seq " + std::to_string(e.seq) + " does not match the entry before it");
      } else if (entryHash(e.prevHash, e) != e.entryHash) {
        walk.fail(e.seq, "entryHash of seq " + std::to_string(e.seq) + " does not match its content");
      } else if (auto cp = trusted.find(e.seq); cp != trusted.end() && cp->second.entryHash != e.entryHash) {
        walk.fail(e.seq, "seq " + std::to_string(e.seq) + " differs from the checkpoint signed at " +
                             clock::toRfc3339(cp->second.signedAt));
      } else if (cp != trusted.end()) {
        ++report.checkpointsVerified;
      }
      if (walk.failed()) return report;
      prev = e.entryHash;
      ++report.checked;
      ++expected;
    }
  }

  const std::int64_t last = expected - 1;
  if (report.head && last < report.head->seq) {
    walk.fail(last + 1, "the chain ends at seq " + std::to_string(last) + " but its head is at seq " +
                            std::to_string(report.head->seq) + " (entries removed)");
  } else if (report.head && report.head->entryHash != prev) {
    walk.fail(last, "the head's hash does not match entry seq " + std::to_string(last));
  } else if (!report.head && last > 0) {
    walk.fail(last, "the organization's audit head is missing");
  } else if (!trusted.empty() && trusted.rbegin()->first > last) {
    walk.fail(last + 1, "the chain ends at seq " + std::to_string(last) + " but a signed checkpoint covers seq " +
                            std::to_string(trusted.rbegin()->first) + " (entries removed)");
  }
  return report;
}

}  // namespace aev::audit

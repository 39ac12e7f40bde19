// audit/: the hash chain, its serialization under concurrent changes, signed
// checkpoints, and verification failing at the right seq when rows are edited, deleted,
// reordered, truncated or rewritten in the database — on SQLite and a real PostgreSQL.
#include "audit/audit_log.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <vector>

#include "audit/canonical_json.h"
#include "audit/chain.h"
#include "audit/changes.h"
#include "common/crypto.h"
#include "common/errors.h"
#include "store/migrations.h"
#include "support/process.h"
#include "unit/store_test.h"

namespace aev::audit {
namespace {

using aev::testing::TempDir;

// ---------------------------------------------------------------- canonical form

TEST(AuditCanonicalJson, SortsKeysAndWritesNoWhitespace) {
  EXPECT_EQ(canonicalizeText(R"({"b": 1, "a": {"z": [true, null, "x"], "m": 2.5}})"),
            R"({"a":{"m":2.5,"z":[true,null,"x"]},"b":1})");
}

TEST(AuditCanonicalJson, EscapesOnlyWhatJsonRequires) {
  EXPECT_EQ(canonicalizeText(R"({"q": "say \"hi\"\n\u00e9\t"})"), "{\"q\":\"say \\\"hi\\\"\\n\xC3\xA9\\t\"}");
}

TEST(AuditCanonicalJson, NumbersHaveOneForm) {
  EXPECT_EQ(canonicalizeText("[1.0, -0.5, 100000, 0.1, 12345678901234]"), "[1,-0.5,100000,0.1,12345678901234]");
  // Found by tests/fuzz/audit_canonical_fuzzer: read with Poco's parser, an integer beyond
  // 64 bits wrapped (18446744073709551616 became 0, one canonical form for two documents)
  // and some numbers it had read did not read back.
  EXPECT_EQ(canonicalizeText("[18446744073709551616]"), "[18446744073709551616]");  // read as a double, not 0
  EXPECT_EQ(canonicalizeText("[18446744073709551616]"), canonicalizeText("[1.8446744073709552e19]"));
  EXPECT_EQ(canonicalizeText("[18446744073709551615, -9223372036854775808]"),
            "[18446744073709551615,-9223372036854775808]");
  const auto big = canonicalizeText("[-9223372036855384615.567890, 1e-7]");
  EXPECT_EQ(canonicalizeText(big), big);
}

TEST(AuditChain, EntryTextIsTheDocumentedCanonicalObject) {
  store::AuditRecord e;
  e.orgId = 7;
  e.seq = 3;
  e.actorId = "12";
  e.actorEmail = "ada@example.com";
  e.action = "app.create";
  e.resourceType = "app";
  e.resourceId = "4";
  e.source = "dashboard";
  e.ipAddress = "10.0.0.1";
  e.requestId = "r1";
  e.metadata = R"({"name":"x"})";
  e.createdAt = 1'700'000'000'000'001;
  EXPECT_EQ(
      entryText(e),
      R"({"action":"app.create","actorEmail":"ada@example.com","actorId":"12",)"
      R"("createdAt":"2023-11-14T22:13:20.000001Z","ipAddress":"10.0.0.1","metadata":{"name":"x"},)"
      R"("organizationId":"7","requestId":"r1","resourceId":"4","resourceType":"app","seq":3,"source":"dashboard"})");
  EXPECT_EQ(entryHash(kGenesisHash, e), crypto::sha256Hex(kGenesisHash + entryText(e)));
  e.metadata.reset();
  EXPECT_NE(entryText(e).find(R"("metadata":null)"), std::string::npos);
}

TEST(AuditChanges, ListsOnlyFieldsThatDiffer) {
  auto before = metadata({{"name", "a"}, {"n", 1}, {"gone", true}});
  auto after = metadata({{"name", "b"}, {"n", 1.0}, {"new", "x"}});
  auto diff = changes(*before, *after);
  EXPECT_EQ(canonicalJson(diff),
            R"({"gone":{"from":true,"to":null},"name":{"from":"a","to":"b"},"new":{"from":null,"to":"x"}})");
}

// ---------------------------------------------------------------- signing key

TEST(AuditSigner, KeyFileIsCreatedPrivateAndReloadsTheSameKey) {
  TempDir dir("aev-unit-audit-key");
  const auto path = dir.path() + "/keys/audit-signing.key";
  EXPECT_FALSE(CheckpointSigner::load(path).has_value());
  auto created = CheckpointSigner::loadOrCreate(path);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto loaded = CheckpointSigner::load(path);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->keyId(), created.keyId());
  const auto sig = created.sign("head 5");
  EXPECT_TRUE(loaded->verify("head 5", sig));
  EXPECT_FALSE(loaded->verify("head 6", sig));
  EXPECT_FALSE(loaded->verify("head 5", "bm90IGEgc2lnbmF0dXJl"));
}

TEST(AuditSigner, RefusesAFileThatIsNotAKey) {
  TempDir dir("aev-unit-audit-key");
  const auto path = dir.path() + "/bad.key";
  std::ofstream(path) << "not base64 of 32 bytes\n";
  EXPECT_THROW(CheckpointSigner::load(path), std::runtime_error);
}

// ---------------------------------------------------------------- the log on both stores

class AuditLogTest : public aev::testing::StoreTest {
 protected:
  void SetUp() override {
    openStore(8);
    if (IsSkipped()) return;
    signer_ = std::make_unique<CheckpointSigner>(CheckpointSigner::loadOrCreate(dir_->path() + "/audit.key"));
    log_ = std::make_unique<AuditLog>(*db_, signer_.get());
    orgA_ = addOrganization("a");
    orgB_ = addOrganization("b");
  }

  void change(std::int64_t orgId, const std::string& verb, std::int64_t id) {
    db_->transaction([&](store::Connection& c) {
      log_->record(c, orgId, actor_, Change::of("app", verb, id, metadata({{"n", id}})));
    });
  }

  void changes(std::int64_t orgId, int n) {
    for (int i = 1; i <= n; ++i) change(orgId, "create", i);
  }

  std::vector<store::AuditRecord> chain(std::int64_t orgId) {
    auto c = db_->acquire();
    return store::AuditRepository().chainPage(*c, orgId, 0, 100000);
  }

  VerifyReport check(std::int64_t orgId) {
    auto c = db_->acquire();
    return verifyChain(*c, orgId, signer_.get());
  }

  // Recomputes every hash from `fromSeq` on and moves the head, as an attacker with
  // database access (but not the signing key) would after editing an entry.
  void rehashFrom(std::int64_t orgId, std::int64_t fromSeq) {
    std::string prev = kGenesisHash;
    for (auto e : chain(orgId)) {
      if (e.seq >= fromSeq) {
        e.prevHash = prev;
        e.entryHash = entryHash(prev, e);
        db_->exec("UPDATE audit_log SET prev_hash = ?, entry_hash = ? WHERE id = ?", {e.prevHash, e.entryHash, e.id});
      }
      prev = e.entryHash;
    }
    db_->exec("UPDATE audit_heads SET entry_hash = ? WHERE org_id = ?", {prev, orgId});
  }

  std::unique_ptr<CheckpointSigner> signer_;
  std::unique_ptr<AuditLog> log_;
  const Actor actor_{"dashboard", "1", "admin@example.com", "127.0.0.1", "req-1"};
  std::int64_t orgA_ = 0;
  std::int64_t orgB_ = 0;
};

TEST_P(AuditLogTest, EntriesChainFromTheGenesisHashWithGaplessSeq) {
  changes(orgA_, 5);
  auto entries = chain(orgA_);
  ASSERT_EQ(entries.size(), 5u);
  std::string prev = kGenesisHash;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(entries[i].seq, static_cast<std::int64_t>(i + 1));
    EXPECT_EQ(entries[i].prevHash, prev);
    EXPECT_EQ(entries[i].entryHash, crypto::sha256Hex(prev + entryText(entries[i])));
    EXPECT_EQ(entries[i].actorEmail, "admin@example.com");
    EXPECT_EQ(entries[i].metadata.value_or(""), "{\"n\":" + std::to_string(i + 1) + "}");
    prev = entries[i].entryHash;
  }
  auto report = log_->verify(orgA_);
  EXPECT_TRUE(report.ok) << report.reason;
  EXPECT_EQ(report.checked, 5);
  ASSERT_TRUE(report.latestCheckpoint.has_value());
  EXPECT_EQ(report.latestCheckpoint->seq, 5);
  EXPECT_EQ(report.latestCheckpoint->entryHash, prev);
  EXPECT_TRUE(signer_->verify(checkpointText(*report.latestCheckpoint), report.latestCheckpoint->signature));
}

TEST_P(AuditLogTest, EachOrganizationHasItsOwnChainAndList) {
  changes(orgA_, 3);
  changes(orgB_, 2);
  EXPECT_EQ(chain(orgB_).front().seq, 1);
  EXPECT_EQ(chain(orgB_).front().prevHash, kGenesisHash);
  EXPECT_EQ(log_->list(orgA_, {}).size(), 3u);
  for (const auto& e : log_->list(orgB_, {})) EXPECT_EQ(e.orgId, orgB_);
  EXPECT_TRUE(check(orgA_).ok);
  EXPECT_TRUE(check(orgB_).ok);
}

TEST_P(AuditLogTest, AChangeThatRollsBackLeavesNoEntryAndNoGap) {
  changes(orgA_, 2);
  EXPECT_THROW(db_->transaction([&](store::Connection& c) {
    log_->record(c, orgA_, actor_, Change::of("app", "delete", 9));
    throw errors::conflict("the change failed after its entry was appended");
  }),
               ApiError);
  change(orgA_, "create", 3);
  auto entries = chain(orgA_);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries.back().seq, 3);
  EXPECT_EQ(entries.back().action, "app.create");
  EXPECT_TRUE(check(orgA_).ok);
}

TEST_P(AuditLogTest, FiftyConcurrentChangesNeverForkTheChain) {
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 10; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 5; ++i) {
        try {
          change(orgA_, "create", t * 100 + i);
        } catch (const std::exception&) {
          ++failures;
        }
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  auto entries = chain(orgA_);
  ASSERT_EQ(entries.size(), 50u);
  for (std::size_t i = 0; i < entries.size(); ++i) EXPECT_EQ(entries[i].seq, static_cast<std::int64_t>(i + 1));
  auto report = check(orgA_);
  EXPECT_TRUE(report.ok) << report.reason;
  EXPECT_EQ(report.checked, 50);
}

TEST_P(AuditLogTest, AnEditedEntryBreaksTheChainAtItsSeq) {
  changes(orgA_, 10);
  db_->exec("UPDATE audit_log SET action = 'app.delete' WHERE org_id = ? AND seq = 5", {orgA_});
  auto report = check(orgA_);
  EXPECT_FALSE(report.ok);
  EXPECT_EQ(report.brokenAtSeq, 5);
  EXPECT_EQ(report.checked, 4);
}

TEST_P(AuditLogTest, ADeletedEntryIsAGapAtItsSeq) {
  changes(orgA_, 10);
  db_->exec("DELETE FROM audit_log WHERE org_id = ? AND seq = 5", {orgA_});
  auto report = check(orgA_);
  EXPECT_FALSE(report.ok);
  EXPECT_EQ(report.brokenAtSeq, 5);
  EXPECT_NE(report.reason.find("missing"), std::string::npos) << report.reason;
}

TEST_P(AuditLogTest, ReorderedEntriesBreakAtTheFirstMovedSeq) {
  changes(orgA_, 10);
  // Swap seq 3 and 4 (through a free value: seq is unique per organization).
  db_->transaction([&](store::Connection& c) {
    c.exec("UPDATE audit_log SET seq = -3 WHERE org_id = ? AND seq = 3", {orgA_});
    c.exec("UPDATE audit_log SET seq = 3 WHERE org_id = ? AND seq = 4", {orgA_});
    c.exec("UPDATE audit_log SET seq = 4 WHERE org_id = ? AND seq = -3", {orgA_});
  });
  auto report = check(orgA_);
  EXPECT_FALSE(report.ok);
  EXPECT_EQ(report.brokenAtSeq, 3);
}

TEST_P(AuditLogTest, TruncationIsCaughtByTheHeadAndByASignedCheckpoint) {
  changes(orgA_, 10);
  ASSERT_TRUE(log_->verify(orgA_).ok);  // signs a checkpoint at seq 10
  db_->exec("DELETE FROM audit_log WHERE org_id = ? AND seq > 7", {orgA_});
  auto report = check(orgA_);
  EXPECT_FALSE(report.ok);
  EXPECT_EQ(report.brokenAtSeq, 8);

  // Also moving the head back to seq 7 hides it from the head check, not from the
  // signed checkpoint.
  const auto seven = chain(orgA_).back();
  db_->exec("UPDATE audit_heads SET seq = 7, entry_hash = ? WHERE org_id = ?", {seven.entryHash, orgA_});
  report = check(orgA_);
  EXPECT_FALSE(report.ok);
  EXPECT_EQ(report.brokenAtSeq, 8);
  EXPECT_NE(report.reason.find("checkpoint"), std::string::npos) << report.reason;
}

TEST_P(AuditLogTest, ARewrittenChainContradictsTheSignedCheckpoint) {
  changes(orgA_, 6);
  ASSERT_TRUE(log_->verify(orgA_).ok);  // checkpoint at 6
  changes(orgA_, 4);                    // seq 7..10, after the checkpoint
  db_->exec("UPDATE audit_log SET actor_email = 'someone-else@example.com' WHERE org_id = ? AND seq = 3", {orgA_});
  rehashFrom(orgA_, 3);
  auto report = check(orgA_);
  EXPECT_FALSE(report.ok);
  EXPECT_EQ(report.brokenAtSeq, 6);  // the first signed statement the rewrite contradicts
  EXPECT_EQ(report.checked, 5);

  // A rewrite after the newest checkpoint is only as detectable as its hashes: rehashing
  // makes it consistent, which is why checkpoints are signed periodically.
}

TEST_P(AuditLogTest, AForgedCheckpointFailsItsSignature) {
  changes(orgA_, 4);
  ASSERT_TRUE(log_->verify(orgA_).ok);
  db_->exec("UPDATE audit_checkpoints SET entry_hash = ? WHERE org_id = ?", {std::string(64, 'a'), orgA_});
  auto report = check(orgA_);
  EXPECT_FALSE(report.ok);
  EXPECT_EQ(report.brokenAtSeq, 4);
  EXPECT_NE(report.reason.find("signature"), std::string::npos) << report.reason;
}

TEST_P(AuditLogTest, CheckpointsOfAnotherKeyAreReportedNotTrusted) {
  changes(orgA_, 3);
  ASSERT_TRUE(log_->verify(orgA_).ok);
  auto other = CheckpointSigner::loadOrCreate(dir_->path() + "/other.key");
  auto c = db_->acquire();
  auto report = verifyChain(*c, orgA_, &other);
  EXPECT_TRUE(report.ok);
  EXPECT_EQ(report.checkpointsUnverifiable, 1);
  EXPECT_EQ(report.checkpointsVerified, 0);
}

TEST_P(AuditLogTest, CheckpointAllSignsMovedHeadsOnlyAndNeverABrokenOne) {
  changes(orgA_, 3);
  changes(orgB_, 2);
  EXPECT_EQ(log_->checkpointAll(), 2u);
  EXPECT_EQ(log_->checkpointAll(), 0u);  // nothing moved
  change(orgA_, "create", 4);
  db_->exec("UPDATE audit_log SET action = 'x' WHERE org_id = ? AND seq = 4", {orgA_});
  change(orgB_, "create", 3);
  EXPECT_EQ(log_->checkpointAll(), 1u);  // B only: A's new head does not verify
  auto c = db_->acquire();
  EXPECT_EQ(store::AuditRepository().latestCheckpoint(*c, orgA_)->seq, 3);
  EXPECT_EQ(store::AuditRepository().latestCheckpoint(*c, orgB_)->seq, 3);
}

TEST_P(AuditLogTest, ListFiltersNewestFirstAndValidates) {
  db_->transaction([&](store::Connection& c) {
    log_->record(c, orgA_, actor_, Change::of("app", "create", 1));
    log_->record(c, orgA_, Actor{"apikey", "9", "", "10.0.0.2", "r2"}, Change::of("apikey", "revoke", 9));
    log_->record(c, orgA_, actor_, Change::of("channel", "create", 2));
  });
  auto all = log_->list(orgA_, {});
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all.front().seq, 3);
  AuditQuery byAction;
  byAction.action = "apikey.revoke";
  EXPECT_EQ(log_->list(orgA_, byAction).size(), 1u);
  AuditQuery bySource;
  bySource.source = "apikey";
  EXPECT_EQ(log_->list(orgA_, bySource).front().actorId, "9");
  AuditQuery byType;
  byType.resourceType = "channel";
  EXPECT_EQ(log_->list(orgA_, byType).front().action, "channel.create");
  AuditQuery limited;
  limited.limit = 2;
  EXPECT_EQ(log_->list(orgA_, limited).size(), 2u);
  AuditQuery before;
  before.before = all.back().createdAt;  // exclusive
  EXPECT_TRUE(log_->list(orgA_, before).empty());
  AuditQuery bad;
  bad.source = "cli";
  bad.limit = 500;
  try {
    log_->list(orgA_, bad);
    FAIL() << "a bad source and limit must be a 422";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status(), 422);
    EXPECT_EQ(e.fieldErrors().size(), 2u);
  }
}

AEV_STORE_BACKENDS(AuditLogTest);

}  // namespace
}  // namespace aev::audit

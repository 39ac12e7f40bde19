// The delivery engine's pieces: the retry schedule (parsing, jitter bounds, Retry-After,
// exhaustion), Retry-After parsing, Standard Webhooks signing against the reference
// library's published example, and outbox claims on SQLite (one message in flight per
// target, in id order; an expired lease gives the message back).
#include <gtest/gtest.h>

#include <agentevents/http_post.hpp>

#include <memory>

#include "delivery/retry_schedule.h"
#include "store/migrations.h"
#include "store/outbox_repository.h"
#include "support/process.h"
#include "webhooks/secret_box.h"
#include "webhooks/signature.h"

namespace aev {
namespace {

using namespace std::chrono_literals;
using delivery::RetrySchedule;

TEST(RetrySchedule, ParsesTheDecidedDefault) {
  auto s = RetrySchedule::parse("5s,5m,30m,2h,5h,10h,10h");
  ASSERT_EQ(s.steps().size(), 7u);
  EXPECT_EQ(s.steps()[0], 5s);
  EXPECT_EQ(s.steps()[1], 5min);
  EXPECT_EQ(s.steps()[2], 30min);
  EXPECT_EQ(s.steps()[3], 2h);
  EXPECT_EQ(s.steps()[6], 10h);
  EXPECT_EQ(s.maxAttempts(), 8u);
  EXPECT_EQ(RetrySchedule::parse(" 250ms , 1d ").steps(), (std::vector<std::chrono::milliseconds>{250ms, 24h}));
  EXPECT_TRUE(RetrySchedule::parse("").steps().empty());
}

TEST(RetrySchedule, RefusesStepsWithoutNumberOrUnit) {
  for (const char* bad : {"5", "s", "5x", "5s,,abc", "-5s", "1.5s", "9999999999s"})
    EXPECT_THROW(RetrySchedule::parse(bad), std::invalid_argument) << bad;
}

TEST(RetrySchedule, JitterStaysWithinTenPercent) {
  RetrySchedule s({1000ms, 10000ms}, 0.1);
  EXPECT_EQ(s.delayAfter(1, std::nullopt, 0.0), 900ms);
  EXPECT_EQ(s.delayAfter(1, std::nullopt, 0.5), 1000ms);
  EXPECT_EQ(s.delayAfter(1, std::nullopt, 1.0), 1100ms);
  EXPECT_EQ(s.delayAfter(2, std::nullopt, 0.0), 9000ms);
  for (int i = 0; i < 200; ++i) {
    auto d = s.delayAfter(2, std::nullopt);
    ASSERT_TRUE(d);
    EXPECT_GE(*d, 9000ms);
    EXPECT_LE(*d, 11000ms);
  }
}

TEST(RetrySchedule, EndsAfterTheLastStep) {
  RetrySchedule s({1s, 2s});
  EXPECT_TRUE(s.delayAfter(2, std::nullopt, 0.5));
  EXPECT_FALSE(s.delayAfter(3, std::nullopt, 0.5));
  EXPECT_FALSE(s.delayAfter(0, std::nullopt, 0.5));
  EXPECT_FALSE(RetrySchedule(std::vector<std::chrono::milliseconds>{}).delayAfter(1, std::nullopt, 0.5));
}

TEST(RetrySchedule, RetryAfterIsAFloorCappedAtADay) {
  RetrySchedule s({1s});
  EXPECT_EQ(s.delayAfter(1, 30s, 0.5), 30s);                  // later than the schedule: wait for it
  EXPECT_EQ(s.delayAfter(1, 100ms, 0.5), 1s);                 // sooner: the schedule still applies
  EXPECT_EQ(s.delayAfter(1, 48h, 0.5), RetrySchedule::kMaxRetryAfter);
  EXPECT_FALSE(s.delayAfter(2, 30s, 0.5));                    // no attempts left, whatever it asks
}

TEST(RetryAfterHeader, DeltaSecondsOnly) {
  EXPECT_EQ(http::parseRetryAfter("120"), std::chrono::milliseconds(120000));
  EXPECT_EQ(http::parseRetryAfter(" 3 \r\n"), std::chrono::milliseconds(3000));
  EXPECT_EQ(http::parseRetryAfter("0"), std::chrono::milliseconds(0));
  EXPECT_FALSE(http::parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT"));
  EXPECT_FALSE(http::parseRetryAfter("-1"));
  EXPECT_FALSE(http::parseRetryAfter(""));
  EXPECT_FALSE(http::parseRetryAfter("1e3"));
}

TEST(OutboundAddressPolicy, RefusesPrivateRanges) {
  auto v4 = [](const char* text) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    inet_pton(AF_INET, text, &a.sin_addr);
    return http::isPublicAddress(reinterpret_cast<const sockaddr*>(&a));
  };
  for (const char* priv : {"127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0"})
    EXPECT_FALSE(v4(priv)) << priv;
  for (const char* pub : {"93.184.216.34", "8.8.8.8", "1.1.1.1"}) EXPECT_TRUE(v4(pub)) << pub;
}

// The example of the Standard Webhooks / Svix documentation; the reference JS library
// (tests/webhooks, npm standardwebhooks) produces the same signature.
TEST(WebhookSignature, MatchesTheReferenceExample) {
  EXPECT_EQ(webhooks::sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330,
                           R"({"test": 2432232314})"),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
}

TEST(WebhookSignature, SecretsAreFreshPrefixedBase64) {
  auto a = webhooks::newSecret();
  auto b = webhooks::newSecret();
  EXPECT_NE(a, b);
  ASSERT_EQ(a.rfind("whsec_", 0), 0u);
  EXPECT_EQ(webhooks::secretKey(a).size(), 24u);
  EXPECT_THROW(webhooks::secretKey("sk_abc"), std::invalid_argument);
  EXPECT_THROW(webhooks::secretKey("whsec_"), std::invalid_argument);
  // Another body, id or time gives another signature.
  const auto base = webhooks::sign(a, "msg_1", 100, "{}");
  EXPECT_NE(base, webhooks::sign(a, "msg_2", 100, "{}"));
  EXPECT_NE(base, webhooks::sign(a, "msg_1", 101, "{}"));
  EXPECT_NE(base, webhooks::sign(a, "msg_1", 100, "{ }"));
  EXPECT_NE(base, webhooks::sign(b, "msg_1", 100, "{}"));
}

TEST(WebhookSecretBox, SealsAndOpensOnlyWithItsKey) {
  webhooks::SecretBox box("a-key-of-at-least-thirty-two-characters");
  const std::string secret = webhooks::newSecret();
  const auto sealed = box.seal(secret);
  EXPECT_EQ(sealed.rfind("sbx1:", 0), 0u);
  EXPECT_EQ(sealed.find(secret.substr(6)), std::string::npos);  // the key bytes are not in clear
  EXPECT_NE(sealed, box.seal(secret));                          // a fresh nonce each time
  EXPECT_EQ(box.open(sealed), secret);
  EXPECT_EQ(box.open(secret), secret);  // stored before sealing existed
  webhooks::SecretBox other("another-key-of-at-least-thirty-two-chars");
  EXPECT_THROW(other.open(sealed), std::runtime_error);
  auto tampered = sealed;
  tampered[tampered.size() - 3] = tampered[tampered.size() - 3] == 'A' ? 'B' : 'A';
  EXPECT_THROW(box.open(tampered), std::runtime_error);
  EXPECT_THROW(webhooks::SecretBox("short"), std::runtime_error);
}

TEST(WebhookSecretBox, TheKeyFileIsMadeOnceAndKept) {
  testing::TempDir dir("aev-unit-secretbox");
  const auto first = webhooks::loadOrCreateSecretKey("", dir.path());
  EXPECT_GE(first.size(), 32u);
  EXPECT_EQ(webhooks::loadOrCreateSecretKey("", dir.path()), first);
  EXPECT_EQ(webhooks::loadOrCreateSecretKey("configured-key-wins-over-the-file-000", dir.path()),
            "configured-key-wins-over-the-file-000");
}

class OutboxClaims : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<testing::TempDir>("aev-unit-outbox");
    store::DatabaseOptions options;
    options.dataDir = dir_->path();
    options.sqliteSynchronous = "OFF";
    options.poolSize = 2;
    db_ = std::make_unique<store::Database>(options);
    store::migrate(*db_);
    org_ = db_->insert(
        "INSERT INTO organizations (name, slug, plan, created_at, updated_at) VALUES ('o', 'o', 'free', 0, 0) "
        "RETURNING id");
  }

  std::int64_t enqueue(std::int64_t target, std::int64_t due = 0) {
    return db_->transaction([&](store::Connection& c) {
      return outbox_.enqueue(c, org_, "test", target, std::nullopt, std::nullopt, std::string("{}"), due);
    });
  }
  std::vector<store::OutboxMessage> claim(std::int64_t now, std::int64_t limit = 10) {
    return db_->transaction([&](store::Connection& c) { return outbox_.claim(c, now, now + 1000, limit); });
  }
  static std::vector<std::int64_t> idsOf(const std::vector<store::OutboxMessage>& list) {
    std::vector<std::int64_t> out;
    for (const auto& m : list) out.push_back(m.id);
    return out;
  }

  std::unique_ptr<testing::TempDir> dir_;
  std::unique_ptr<store::Database> db_;
  store::OutboxRepository outbox_;
  std::int64_t org_ = 0;
};

TEST_F(OutboxClaims, OneMessagePerTargetInIdOrder) {
  const auto a1 = enqueue(1), a2 = enqueue(1), b1 = enqueue(2);
  auto first = claim(10);
  EXPECT_EQ(idsOf(first), (std::vector<std::int64_t>{a1, b1}));
  EXPECT_EQ(first[0].attempt, 1);
  EXPECT_EQ(first[0].messageId, "msg_" + std::to_string(a1));
  EXPECT_TRUE(claim(20).empty());  // a1 is leased and a2 waits behind it
  ASSERT_TRUE(db_->transaction([&](store::Connection& c) { return outbox_.finish(c, first[0]); }));
  EXPECT_EQ(idsOf(claim(30)), std::vector<std::int64_t>{a2});
}

TEST_F(OutboxClaims, ARescheduledHeadHoldsItsTargetUntilItIsDue) {
  const auto a1 = enqueue(1);
  enqueue(1);
  auto m = claim(10).front();
  ASSERT_TRUE(db_->transaction([&](store::Connection& c) { return outbox_.reschedule(c, m, 500, "HTTP 500"); }));
  EXPECT_TRUE(claim(100).empty());  // not due, and the next one may not overtake it
  auto again = claim(600);
  ASSERT_EQ(idsOf(again), std::vector<std::int64_t>{a1});
  EXPECT_EQ(again.front().attempt, 2);
  EXPECT_EQ(again.front().messageId, m.messageId);
}

TEST_F(OutboxClaims, AnExpiredLeaseGivesTheMessageBackAndTheOldHolderLosesIt) {
  enqueue(1);
  auto held = claim(10).front();  // leased until 1010
  EXPECT_TRUE(claim(500).empty());
  auto taken = claim(2000);        // the holder died: its lease ran out
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_EQ(taken.front().attempt, 2);
  EXPECT_FALSE(db_->transaction([&](store::Connection& c) { return outbox_.finish(c, held); }));
  EXPECT_TRUE(db_->transaction([&](store::Connection& c) { return outbox_.finish(c, taken.front()); }));
}

TEST_F(OutboxClaims, DroppingATargetRemovesItsMessages) {
  enqueue(1);
  enqueue(1);
  const auto b = enqueue(2);
  db_->transaction([&](store::Connection& c) { outbox_.dropTarget(c, org_, "test", 1, true); });
  EXPECT_EQ(idsOf(claim(10)), std::vector<std::int64_t>{b});
  auto conn = db_->acquire();
  EXPECT_EQ(outbox_.pendingCount(*conn, org_, "test", 1), 0);
}

TEST_F(OutboxClaims, OldAttemptsArePruned) {
  auto record = [&](std::int64_t at) {
    store::DeliveryAttemptRecord a;
    a.orgId = org_;
    a.outboxId = 1;
    a.targetKind = "test";
    a.targetId = 1;
    a.messageId = "msg_1";
    a.attempt = 1;
    a.statusCode = 500;
    a.outcome = "retrying";
    a.createdAt = at;
    db_->transaction([&](store::Connection& c) { outbox_.recordAttempt(c, a); });
  };
  record(100);
  record(200);
  record(300);
  auto conn = db_->acquire();
  EXPECT_EQ(outbox_.pruneAttempts(*conn, 250), 2u);
  auto left = outbox_.attempts(*conn, org_, "test", 1, 10);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left.front().createdAt, 300);
}

}  // namespace
}  // namespace aev

// spend/accountant.h with an injected clock against a migrated SQLite file and the real
// event writer: exact window sums under concurrent publishing (and equal to a rebuild
// from the events), rungs recorded once per window and again in the next, hard block
// until the window resets (Retry-After to the boundary), soft block flags, rolling_24h,
// and notifications only as often as the cooldown allows.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>

#include "events/event_writer.h"
#include "spend/accountant.h"
#include "spend/policy_cache.h"
#include "store/migrations.h"
#include "store/spend_ledger_repository.h"
#include "store/spend_policy_repository.h"
#include "support/postgres_server.h"
#include "support/process.h"

namespace aev::spend {
namespace {

Micros at(const std::string& text) { return *clock::parseRfc3339(text); }

// Each test on SQLite and on a throw-away PostgreSQL (where several connections really
// write at once: the case of several nodes on one store).
class AccountantTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    store::DatabaseOptions options;
    if (GetParam()) {
      if (!aev::testing::PostgresServer::available()) GTEST_SKIP() << "PostgreSQL is not installed";
      options.url = aev::testing::PostgresServer::instance().createDatabase();
    } else {
      dir_ = std::make_unique<aev::testing::TempDir>("aev-unit-spend");
      options.dataDir = dir_->path();
      options.sqliteSynchronous = "OFF";
    }
    options.poolSize = 8;
    db_ = std::make_unique<store::Database>(options);
    store::migrate(*db_);
    now_ = at("2026-06-10T12:00:00Z");
    cache_ = std::make_unique<PolicyCache>(*db_, std::chrono::milliseconds(0));
    accountant_ = std::make_unique<Accountant>(*db_, *cache_, [this] { return now_.load(); });
    writer_ = std::make_unique<events::EventWriter>(*db_);
    orgId_ = db_->insert(
        "INSERT INTO organizations (name, slug, plan, created_at, updated_at) VALUES ('o', 'o', 'free', 0, 0) "
        "RETURNING id");
    appId_ = db_->insert("INSERT INTO apps (org_id, name, created_at, updated_at) VALUES (?, 'a', 0, 0) RETURNING id",
                         {orgId_});
    channelId_ = db_->insert(
        "INSERT INTO channels (org_id, app_id, name, created_at, updated_at) VALUES (?, ?, 'c', 0, 0) RETURNING id",
        {orgId_, appId_});
  }
  void TearDown() override {
    if (writer_) writer_->stop();
  }

  std::int64_t addPolicy(double limitUsd, const std::string& window, std::vector<store::SpendRungRecord> rungs,
                         std::optional<std::string> model = std::nullopt, std::int64_t cooldownMins = 60) {
    store::SpendPolicyRecord p;
    p.orgId = orgId_;
    p.name = "p";
    p.limitUsd = limitUsd;
    p.windowType = window;
    p.rungs = std::move(rungs);
    p.model = std::move(model);
    p.cooldownMins = cooldownMins;
    p.destination = "https://hooks.example.com/spend";
    p.destinationType = "webhook";
    auto c = db_->acquire();
    p.id = store::SpendPolicyRepository().insert(*c, p);
    cache_->invalidate(orgId_);
    return p.id;
  }

  store::NewEvent event(double costUsd, const std::string& model = "gpt-4o") {
    store::NewEvent e;
    e.orgId = orgId_;
    e.appId = appId_;
    e.channelId = channelId_;
    e.identifier = "llm";
    e.payloadJson = "{}";
    e.metadataJson = "{}";
    e.receivedAt = now_.load();
    e.telemetry.model = model;
    e.telemetry.costUsd = costUsd;
    return e;
  }

  // The publish path of EventService: admit, commit, settle. The stored event, or the
  // refusal (429).
  std::variant<store::StoredEvent, ApiError> publish(store::NewEvent e) {
    if (auto refused = accountant_->admit({&e}).front()) return *refused;
    std::vector<store::NewEvent> one;
    one.push_back(std::move(e));
    auto stored = writer_->submit(std::move(one)).get();
    accountant_->settle(stored);
    return stored.front();
  }

  std::int64_t spentNanos(std::int64_t policyId) {
    auto c = db_->acquire();
    auto p = store::SpendPolicyRepository().byId(*c, orgId_, policyId);
    return accountant_->currentSpend(orgId_, {*p})[policyId];
  }
  std::vector<store::SpendCrossingRecord> crossings(std::int64_t policyId) {
    auto c = db_->acquire();
    return store::SpendLedgerRepository().crossings(*c, orgId_, policyId);
  }
  std::vector<store::SpendNotificationRecord> notifications(std::int64_t policyId) {
    auto c = db_->acquire();
    return store::SpendLedgerRepository().notifications(*c, orgId_, policyId);
  }
  void rebuild(std::int64_t policyId) {
    auto c = db_->acquire();
    auto p = store::SpendPolicyRepository().byId(*c, orgId_, policyId);
    c.reset();
    accountant_->rebuild(*p);
  }

  static store::SpendRungRecord rung(std::int64_t at, const std::string& action,
                                     std::optional<std::string> mode = std::nullopt,
                                     std::optional<std::string> model = std::nullopt) {
    return {at, action, std::move(mode), std::move(model)};
  }

  std::unique_ptr<aev::testing::TempDir> dir_;
  std::unique_ptr<store::Database> db_;
  std::atomic<Micros> now_{0};
  std::unique_ptr<PolicyCache> cache_;
  std::unique_ptr<Accountant> accountant_;
  std::unique_ptr<events::EventWriter> writer_;
  std::int64_t orgId_ = 0, appId_ = 0, channelId_ = 0;
};

TEST_P(AccountantTest, ConcurrentPublishingSumsExactlyAndARebuildAgrees) {
  const auto policy = addPolicy(1e6, "month", {rung(100, "alert")});
  const auto other = addPolicy(1e6, "month", {rung(100, "alert")}, "claude");  // matches nothing here
  constexpr int kThreads = 8, kPerThread = 60;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        // Costs with many decimals: a lost or doubled one shows in the integer sum.
        if (!std::holds_alternative<store::StoredEvent>(publish(event(0.000123 * (t + 1) + 0.01 * (i % 7)))))
          ++failures;
      }
    });
  for (auto& th : threads) th.join();
  ASSERT_EQ(failures.load(), 0);
  std::int64_t expected = 0;
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kPerThread; ++i) expected += nanosOf(0.000123 * (t + 1) + 0.01 * (i % 7));
  EXPECT_EQ(spentNanos(policy), expected);
  EXPECT_EQ(spentNanos(other), 0);
  // What a restart does: recount from the stored events.
  rebuild(policy);
  EXPECT_EQ(spentNanos(policy), expected);
}

TEST_P(AccountantTest, ARungIsRecordedOncePerWindowAndAgainInTheNext) {
  const auto policy = addPolicy(10, "hour", {rung(50, "alert"), rung(200, "alert")}, std::nullopt, 0);
  publish(event(4));
  EXPECT_TRUE(crossings(policy).empty());
  auto crossing = std::get<store::StoredEvent>(publish(event(1.5)));  // 55%: crosses 50
  ASSERT_TRUE(crossing.spendJson);
  EXPECT_NE(crossing.spendJson->find("\"action\":\"alert\""), std::string::npos) << *crossing.spendJson;
  publish(event(1));
  publish(event(1));
  auto recorded = crossings(policy);
  ASSERT_EQ(recorded.size(), 1u);
  EXPECT_EQ(recorded[0].atPercent, 50);
  EXPECT_EQ(recorded[0].windowStart, at("2026-06-10T12:00:00Z"));
  ASSERT_EQ(notifications(policy).size(), 1u);
  EXPECT_FALSE(notifications(policy)[0].sentAt);
  EXPECT_NE(notifications(policy)[0].payloadJson.find("\"metric\":\"cost_usd\""), std::string::npos);

  now_ = at("2026-06-10T13:00:00Z");  // the next hour: spend starts at zero
  EXPECT_EQ(spentNanos(policy), 0);
  publish(event(5));
  recorded = crossings(policy);
  ASSERT_EQ(recorded.size(), 2u);
  EXPECT_EQ(recorded[1].windowStart, at("2026-06-10T13:00:00Z"));
  EXPECT_EQ(notifications(policy).size(), 2u);  // cooldown 0
}

TEST_P(AccountantTest, TwoRequestsCrossingTogetherRecordOnce) {
  const auto policy = addPolicy(1, "day", {rung(10, "alert")}, std::nullopt, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) threads.emplace_back([&] { publish(event(0.5)); });
  for (auto& th : threads) th.join();
  EXPECT_EQ(crossings(policy).size(), 1u);
  EXPECT_EQ(notifications(policy).size(), 1u);
}

TEST_P(AccountantTest, HardBlockRefusesUntilTheWindowResets) {
  const auto policy = addPolicy(10, "day", {rung(100, "block", "hard")});
  now_ = at("2026-06-10T23:59:00Z");
  // The event whose cost crosses the rung is accepted.
  auto crossing = publish(event(12));
  ASSERT_TRUE(std::holds_alternative<store::StoredEvent>(crossing));
  EXPECT_NE(std::get<store::StoredEvent>(crossing).spendJson->find("\"action\":\"block\""), std::string::npos);
  auto refused = publish(event(0.01));
  ASSERT_TRUE(std::holds_alternative<ApiError>(refused));
  const auto& error = std::get<ApiError>(refused);
  EXPECT_EQ(error.status(), 429);
  EXPECT_EQ(error.headers().at("Retry-After"), "60");  // seconds to midnight UTC
  // Every matching event is refused while the block holds, one without a cost too.
  EXPECT_TRUE(std::holds_alternative<ApiError>(publish(event(0, "other"))));
  EXPECT_FALSE(accountant_->check(orgId_, Subject{}).allowed);

  now_ = at("2026-06-11T00:00:00Z");
  EXPECT_TRUE(accountant_->check(orgId_, Subject{}).allowed);
  EXPECT_TRUE(std::holds_alternative<store::StoredEvent>(publish(event(1))));
  EXPECT_EQ(spentNanos(policy), nanosOf(1));
}

TEST_P(AccountantTest, SoftBlockAcceptsAndFlags) {
  addPolicy(1, "week", {rung(50, "block", "soft")});
  publish(event(0.6));
  auto flagged = std::get<store::StoredEvent>(publish(event(0.1)));
  ASSERT_TRUE(flagged.metadataJson);
  EXPECT_NE(flagged.metadataJson->find("\"blockMode\":\"soft\""), std::string::npos) << *flagged.metadataJson;
  EXPECT_NE(flagged.spendJson->find("\"blockMode\":\"soft\""), std::string::npos);
}

TEST_P(AccountantTest, FallbackNamesTheModel) {
  addPolicy(1, "month", {rung(50, "alert"), rung(80, "fallback", std::nullopt, "small-model")});
  auto e = std::get<store::StoredEvent>(publish(event(0.9)));
  EXPECT_NE(e.spendJson->find("\"fallbackModel\":\"small-model\""), std::string::npos) << *e.spendJson;
  auto standing = accountant_->check(orgId_, Subject{});
  EXPECT_TRUE(standing.allowed);
  EXPECT_EQ(*standing.action, RungAction::Fallback);
  EXPECT_EQ(*standing.fallbackModel, "small-model");
}

TEST_P(AccountantTest, BatchCountsEarlierEventsForLaterOnes) {
  addPolicy(1, "month", {rung(100, "block", "hard")});
  std::vector<store::NewEvent> batch;
  for (int i = 0; i < 3; ++i) batch.push_back(event(0.6));
  std::vector<store::NewEvent*> pointers;
  for (auto& e : batch) pointers.push_back(&e);
  auto refused = accountant_->admit(pointers);
  EXPECT_FALSE(refused[0]);
  EXPECT_FALSE(refused[1]);  // crosses 100%: accepted
  ASSERT_TRUE(refused[2]);
  EXPECT_EQ(refused[2]->status(), 429);
}

TEST_P(AccountantTest, RollingWindowForgetsSpendAfter24Hours) {
  const auto policy = addPolicy(10, "rolling_24h", {rung(100, "block", "hard")});
  now_ = at("2026-06-10T08:00:30Z");
  publish(event(6));
  now_ = at("2026-06-10T09:00:10Z");
  publish(event(5));  // 110%: blocks
  auto refused = publish(event(1));
  ASSERT_TRUE(std::holds_alternative<ApiError>(refused));
  // 6 of the 11 dollars leave at 08:00 tomorrow; then 5 < 10 and publishing resumes.
  const auto retry = std::stoll(std::get<ApiError>(refused).headers().at("Retry-After"));
  EXPECT_EQ(retry, (at("2026-06-11T08:00:00Z") - now_.load()) / clock::kSecond);
  now_ = at("2026-06-11T07:59:59Z");
  EXPECT_FALSE(accountant_->check(orgId_, Subject{}).allowed);
  now_ = at("2026-06-11T08:00:00Z");
  EXPECT_TRUE(accountant_->check(orgId_, Subject{}).allowed);
  EXPECT_EQ(spentNanos(policy), nanosOf(5));
  // Publishing drops the buckets that left the window.
  publish(event(1));
  {
    auto c = db_->acquire();
    auto kept = store::SpendLedgerRepository().buckets(*c, orgId_, policy, 0);
    ASSERT_EQ(kept.size(), 2u);
    EXPECT_EQ(kept[0].first, at("2026-06-10T09:00:00Z"));
    EXPECT_EQ(kept[1].first, at("2026-06-11T08:00:00Z"));
  }
  rebuild(policy);
  EXPECT_EQ(spentNanos(policy), nanosOf(6));
}

TEST_P(AccountantTest, CooldownSpacesNotifications) {
  const auto policy = addPolicy(1, "hour", {rung(10, "alert"), rung(20, "alert"), rung(30, "alert")}, std::nullopt,
                                90);
  publish(event(0.15));  // crosses 10
  now_ = now_.load() + 10 * clock::kMinute;
  publish(event(0.1));  // crosses 20: recorded, but inside the cooldown
  EXPECT_EQ(crossings(policy).size(), 2u);
  EXPECT_EQ(notifications(policy).size(), 1u);
  now_ = at("2026-06-10T13:31:00Z");  // a later hour and 91 minutes after the first
  publish(event(0.35));               // crosses 10, 20 and 30 at once: one notification, the highest
  auto sent = notifications(policy);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[1].atPercent, 30);
  EXPECT_EQ(crossings(policy).size(), 5u);
}

TEST_P(AccountantTest, NoPolicyNoCharge) {
  auto e = std::get<store::StoredEvent>(publish(event(3)));
  EXPECT_TRUE(e.spendCharges.empty());
  EXPECT_FALSE(e.spendJson);
}

TEST_P(AccountantTest, RebuildsRacingPublishesLoseAndDoubleNothing) {
  const auto policy = addPolicy(1e6, "day", {rung(100, "alert")});
  constexpr int kThreads = 4, kPerThread = 40;
  std::atomic<bool> publishing{true};
  std::atomic<bool> rebuilding{false};
  std::atomic<int> rebuilds{0};
  // What a policy change or another node's start-up does while this node publishes. The
  // publishers wait for it to be running, and it rebuilds at least once, so the race is
  // there however a loaded machine schedules the threads.
  std::thread rebuilder([&] {
    rebuilding = true;
    do {
      rebuild(policy);
      ++rebuilds;
    } while (publishing.load());
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      while (!rebuilding.load()) std::this_thread::yield();
      for (int i = 0; i < kPerThread; ++i) publish(event(0.01 * (1 + (t + i) % 9)));
    });
  for (auto& th : threads) th.join();
  publishing = false;
  rebuilder.join();
  EXPECT_GT(rebuilds.load(), 0);
  std::int64_t expected = 0;
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kPerThread; ++i) expected += nanosOf(0.01 * (1 + (t + i) % 9));
  EXPECT_EQ(spentNanos(policy), expected);
}

INSTANTIATE_TEST_SUITE_P(Stores, AccountantTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "PostgreSQL" : "SQLite");
                         });

}  // namespace
}  // namespace aev::spend

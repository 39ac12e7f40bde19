// events/retention_sweeper.h on SQLite and a real PostgreSQL: events past their
// organization's plan retention are deleted in bounded batches (with their attributes),
// newer ones and other plans' stay, trace rollups follow, retention 0 keeps everything.
#include "events/retention_sweeper.h"

#include <gtest/gtest.h>

#include <memory>

#include "common/clock.h"
#include "unit/store_test.h"

namespace aev::events {
namespace {

constexpr std::int64_t kNow = 1'800'000'000'000'000;  // µs

class RetentionSweeperTest : public aev::testing::StoreTest {
 protected:
  void SetUp() override { openStore(); }

  // An organization on `plan` with one app and channel; returns {org, channel}.
  std::pair<std::int64_t, std::int64_t> organization(const std::string& slug, const std::string& plan) {
    const auto org = addOrganization(slug, plan);
    return {org, addAppAndChannel(org).second};
  }

  void addEvents(std::int64_t org, std::int64_t channel, int n, std::int64_t receivedAt, const std::string& traceId) {
    for (int i = 0; i < n; ++i) {
      const auto seq = ++seq_;
      const auto id = db_->insert(
          "INSERT INTO events (org_id, app_id, channel_id, seq, identifier, payload, trace_id, received_at, ts, "
          "source) SELECT org_id, app_id, id, ?, 'e', '{}', ?, ?, ?, 'api' FROM channels WHERE id = ? RETURNING id",
          {seq, traceId, receivedAt + i, receivedAt + i, channel});
      db_->exec("INSERT INTO event_attributes (event_id, org_id, ts, key, value) VALUES (?, ?, ?, 'k', 'v')",
                {id, org, receivedAt + i});
    }
    db_->transaction([&](store::Connection& c) { store::TraceRepository().rebuild(c, org, {traceId}); });
  }

  std::int64_t count(const std::string& sql, store::Params params) {
    return db_->query(sql, std::move(params)).front().i64("n");
  }
  std::int64_t events(std::int64_t org) { return count("SELECT COUNT(*) AS n FROM events WHERE org_id = ?", {org}); }

  static identity::PlanCatalog plans(std::int64_t freeDays) {
    return identity::PlanCatalog({{"free", {"free", 1000, freeDays, 5}}, {"team", {"team", 1000, 90, 5}}}, "free");
  }

  std::int64_t seq_ = 0;
};

TEST_P(RetentionSweeperTest, DeletesOnlyEventsPastTheirPlansRetentionInBatches) {
  auto [freeOrg, freeChannel] = organization("free-org", "free");
  auto [teamOrg, teamChannel] = organization("team-org", "team");
  addEvents(freeOrg, freeChannel, 7, kNow - 40 * clock::kDay, "old-trace");  // past 30 days
  addEvents(freeOrg, freeChannel, 2, kNow - 29 * clock::kDay, "mixed-trace");
  addEvents(freeOrg, freeChannel, 2, kNow - 31 * clock::kDay, "mixed-trace");
  addEvents(teamOrg, teamChannel, 3, kNow - 40 * clock::kDay, "team-trace");  // within 90 days

  const auto catalog = plans(30);
  RetentionSweeper sweeper(*db_, catalog, 3);  // batches of 3: 9 old events take 4 transactions
  EXPECT_EQ(sweeper.sweep(kNow), 9u);
  EXPECT_EQ(events(freeOrg), 2);
  EXPECT_EQ(events(teamOrg), 3);
  EXPECT_EQ(count("SELECT COUNT(*) AS n FROM event_attributes WHERE org_id = ?", {freeOrg}), 2);
  // The all-old trace has no rollup left; the mixed one counts only what remains.
  EXPECT_EQ(count("SELECT COUNT(*) AS n FROM traces WHERE org_id = ? AND trace_id = 'old-trace'", {freeOrg}), 0);
  EXPECT_EQ(count("SELECT event_count AS n FROM traces WHERE org_id = ? AND trace_id = 'mixed-trace'", {freeOrg}), 2);
  EXPECT_EQ(sweeper.sweep(kNow), 0u);  // nothing left to do
}

TEST_P(RetentionSweeperTest, ZeroDaysKeepsEverythingAndShutdownStopsBetweenBatches) {
  auto [org, channel] = organization("keep", "free");
  addEvents(org, channel, 5, kNow - 400 * clock::kDay, "t");
  const auto forever = plans(0);
  EXPECT_EQ(RetentionSweeper(*db_, forever, 2).sweep(kNow), 0u);
  EXPECT_EQ(events(org), 5);

  const auto month = plans(30);
  int batches = 0;
  EXPECT_EQ(RetentionSweeper(*db_, month, 2).sweep(kNow, [&] { return batches++ < 1; }), 2u);
  EXPECT_EQ(events(org), 3);
}

TEST_P(RetentionSweeperTest, RefusesABatchSizeBelowOne) {
  const auto catalog = plans(30);
  EXPECT_THROW(RetentionSweeper(*db_, catalog, 0), std::invalid_argument);
}

AEV_STORE_BACKENDS(RetentionSweeperTest);

}  // namespace
}  // namespace aev::events

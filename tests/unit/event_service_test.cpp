// events/event_service.h on SQLite and a real PostgreSQL: the channel → app lookup of the
// publish paths is cached (events/channel_directory.h), and a channel deleted behind the
// cache's back (another node, or between lookup and commit) is still a 404 with nothing
// stored: the writer's transaction refuses it. In a batch, only that channel's events are
// refused; the others are stored.
#include "events/event_service.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>

#include "common/metrics.h"
#include "unit/store_test.h"

namespace aev::events {
namespace {

class EventServiceTest : public aev::testing::StoreTest {
 protected:
  void SetUp() override {
    openStore();
    if (IsSkipped()) return;
    writer_ = std::make_unique<EventWriter>(*db_);
    quota_ = std::make_unique<QuotaGuard>(*db_, plans_);
    service_ = std::make_unique<EventService>(*db_, *writer_, *quota_);
    org_ = addOrganization("org");
  }
  void TearDown() override {
    service_.reset();
    if (writer_) writer_->stop();
  }

  NewEvent event(std::int64_t channelId, const std::string& identifier, const std::string& traceId = "") {
    NewEvent e;
    e.orgId = org_;
    e.channelId = channelId;
    e.identifier = identifier;
    e.payloadJson = "{}";
    if (!traceId.empty()) e.traceId = traceId;
    return e;
  }

  std::int64_t count(const std::string& sql, store::Params params) {
    return db_->query(sql, std::move(params)).front().i64("n");
  }
  std::int64_t eventsIn(std::int64_t channelId) {
    return count("SELECT COUNT(*) AS n FROM events WHERE channel_id = ?", {channelId});
  }
  // Deleted straight in the store, as another node would: this node's cache still has it.
  void deleteBehindTheCache(std::int64_t channelId) {
    db_->exec("DELETE FROM events WHERE channel_id = ?", {channelId});
    db_->exec("DELETE FROM channels WHERE id = ?", {channelId});
  }
  static std::int64_t cacheHits() {
    return Metrics::instance().counter("agent_events_channel_cache_hits_total").load();
  }

  identity::PlanCatalog plans_{{{"free", {"free", 1000000, 0, 5}}}, "free"};
  std::unique_ptr<EventWriter> writer_;
  std::unique_ptr<QuotaGuard> quota_;
  std::unique_ptr<EventService> service_;
  std::int64_t org_ = 0;
};

TEST_P(EventServiceTest, PublishFillsTheAppFromTheCachedChannel) {
  const auto [app, channel] = addAppAndChannel(org_);
  EXPECT_EQ(service_->publish(event(channel, "a")).appId, app);
  const auto hits = cacheHits();
  auto second = service_->publish(event(channel, "b"));
  EXPECT_EQ(second.appId, app);
  EXPECT_EQ(second.seq, 2);
  EXPECT_EQ(cacheHits(), hits + 1) << "the second publish read the channel from the store again";
  // Another organization's channel is not found, cached or not.
  const auto other = addOrganization("other");
  auto foreign = event(channel, "c");
  foreign.orgId = other;
  EXPECT_THROW(
      try { service_->publish(std::move(foreign)); } catch (const ApiError& e) {
        EXPECT_EQ(e.status(), 404);
        throw;
      },
      ApiError);
  EXPECT_EQ(eventsIn(channel), 2);
}

TEST_P(EventServiceTest, ChannelDeletedAfterItWasCachedIs404AndNothingIsStored) {
  const auto [app, channel] = addAppAndChannel(org_);
  service_->publish(event(channel, "first"));
  deleteBehindTheCache(channel);
  const auto hits = cacheHits();
  try {
    service_->publish(event(channel, "late", "late-trace"));
    ADD_FAILURE() << "a publish to a deleted channel was accepted";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status(), 404);
    EXPECT_EQ(e.title(), errors::notFound("Channel").title());
  }
  EXPECT_EQ(cacheHits(), hits + 1) << "the channel was not served from the cache: the test proves nothing";
  EXPECT_EQ(eventsIn(channel), 0);
  EXPECT_EQ(count("SELECT COUNT(*) AS n FROM traces WHERE trace_id = 'late-trace'", {}), 0);
  EXPECT_EQ(count("SELECT COALESCE(SUM(events), 0) AS n FROM usage_counters WHERE org_id = ?", {org_}), 1);
  // Forgotten after the refusal: the next publish asks the store (still a 404).
  EXPECT_THROW(service_->publish(event(channel, "again")), ApiError);
  EXPECT_EQ(cacheHits(), hits + 1);
}

TEST_P(EventServiceTest, BatchRefusesOnlyTheDeletedChannelsEvents) {
  const auto [app, live] = addAppAndChannel(org_);
  const auto gone = db_->insert(
      "INSERT INTO channels (org_id, app_id, name, created_at, updated_at) VALUES (?, ?, 'gone', 0, 0) RETURNING id",
      {org_, app});
  service_->publish(event(live, "warm-live"));
  service_->publish(event(gone, "warm-gone"));
  deleteBehindTheCache(gone);
  std::vector<EventService::BatchItem> items;
  items.emplace_back(event(gone, "g1", "batch-trace"));
  items.emplace_back(event(live, "l1", "batch-trace"));
  items.emplace_back(errors::invalidField("body.events[2]", "must be an object"));
  items.emplace_back(event(gone, "g2"));
  items.emplace_back(event(live, "l2"));
  auto results = service_->publishBatch(std::move(items));
  ASSERT_EQ(results.size(), 5u);
  auto statusOf = [&](std::size_t i) {
    if (std::holds_alternative<StoredEvent>(results[i])) return 201;
    return std::get<ApiError>(results[i]).status();
  };
  EXPECT_EQ(statusOf(0), 404);
  EXPECT_EQ(statusOf(1), 201);
  EXPECT_EQ(statusOf(2), 422);
  EXPECT_EQ(statusOf(3), 404);
  EXPECT_EQ(statusOf(4), 201);
  EXPECT_EQ(std::get<StoredEvent>(results[1]).identifier, "l1");
  EXPECT_EQ(std::get<StoredEvent>(results[4]).identifier, "l2");
  EXPECT_EQ(std::get<StoredEvent>(results[4]).seq, 3);
  EXPECT_EQ(eventsIn(live), 3);
  EXPECT_EQ(eventsIn(gone), 0);
  EXPECT_EQ(count("SELECT event_count AS n FROM traces WHERE trace_id = 'batch-trace'", {}), 1);
}

// Publishers sharing one group commit: the one whose channel is gone is refused, the
// others are stored (the writer does not fail the whole group).
TEST_P(EventServiceTest, ConcurrentPublishersAreNotFailedByAnotherOnesDeletedChannel) {
  const auto [app, live] = addAppAndChannel(org_);
  const auto gone = addAppAndChannel(org_).second;
  service_->publish(event(gone, "warm"));
  deleteBehindTheCache(gone);
  std::vector<std::thread> threads;
  std::atomic<int> stored{0}, refused{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        try {
          service_->publish(event(t % 2 ? gone : live, "e"));
          ++stored;
        } catch (const ApiError& e) {
          if (e.status() == 404) ++refused;
        }
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(stored.load(), 80);
  EXPECT_EQ(refused.load(), 80);
  EXPECT_EQ(eventsIn(live), 80);
  EXPECT_EQ(app, db_->query("SELECT app_id FROM events WHERE channel_id = ? LIMIT 1", {live}).front().i64("app_id"));
}

AEV_STORE_BACKENDS(EventServiceTest);

}  // namespace
}  // namespace aev::events

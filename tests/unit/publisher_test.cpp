// events/publisher.h on SQLite and a real PostgreSQL: the channel → app lookup of the
// publish paths is cached (events/channel_directory.h), and a channel deleted behind the
// cache's back (another node, or between lookup and commit) is still a 404 with nothing
// stored: the writer's transaction refuses it. In a batch, only that channel's events are
// refused; the others are stored. And what a group commit hands its after-commit
// consumers (events/after_commit.h).
#include "events/publisher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <thread>

#include "common/metrics.h"
#include "telemetry/extractor.h"
#include "unit/store_test.h"

namespace aev::events {
namespace {

class PublisherTest : public aev::testing::StoreTest {
 protected:
  void SetUp() override {
    openStore();
    if (IsSkipped()) return;
    afterCommit_.add(faulty_);
    afterCommit_.add(consumer_);
    writer_ = std::make_unique<EventWriter>(*db_, &afterCommit_);
    quota_ = std::make_unique<QuotaGuard>(*db_, plans_);
    publisher_ = std::make_unique<Publisher>(*db_, *writer_, *quota_, extractor_, nullptr, nullptr);
    org_ = addOrganization("org");
  }
  void TearDown() override {
    publisher_.reset();
    if (writer_) writer_->stop();
  }

  // POST /event's path: the PendingWrite's completion, waited for.
  StoredEvent publish(NewEvent e) {
    Submission s;
    s.event = std::move(e);
    s.location = "body";
    auto pending = publisher_->publish(std::move(s));
    std::promise<StoredEvent> answer;
    pending.write([&answer](StoredEvent* stored, std::exception_ptr failure) {
      if (stored)
        answer.set_value(*stored);
      else
        answer.set_exception(failure);
    });
    return answer.get_future().get();
  }
  std::vector<Publisher::Result> publishBatch(std::vector<NewEvent> events) {
    std::vector<Publisher::Item> items;
    for (auto& e : events) items.push_back(submission(std::move(e)));
    return publisher_->publishBatch(std::move(items));
  }
  static Submission submission(NewEvent e) {
    Submission s;
    s.event = std::move(e);
    s.location = "body";
    return s;
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
  // Keeps what the after-commit consumers are handed, commit by commit.
  struct Recorder : CommitConsumer {
    std::mutex mutex;
    std::vector<std::vector<StoredEvent>> commits;
    std::vector<std::vector<ChannelHead>> heads;
    void committed(const CommittedEvents& commit) override {
      std::lock_guard lock(mutex);
      commits.push_back(commit.events());
      heads.push_back(commit.channels());
    }
  };
  // Throws where it is told to.
  struct Faulty : CommitConsumer {
    std::atomic<bool> inTransactionThrows{false}, committedThrows{false};
    void inTransaction(store::Connection&, const CommittedEvents&) override {
      if (inTransactionThrows) throw std::runtime_error("outbox write failed");
    }
    void committed(const CommittedEvents&) override {
      if (committedThrows) throw std::runtime_error("consumer failed");
    }
  };
  Faulty faulty_;
  Recorder consumer_;
  AfterCommit afterCommit_;
  telemetry::Extractor extractor_{telemetry::PriceTable::builtIn()};
  std::unique_ptr<EventWriter> writer_;
  std::unique_ptr<QuotaGuard> quota_;
  std::unique_ptr<Publisher> publisher_;
  std::int64_t org_ = 0;
};

TEST_P(PublisherTest, PublishFillsTheAppFromTheCachedChannel) {
  const auto [app, channel] = addAppAndChannel(org_);
  EXPECT_EQ(publish(event(channel, "a")).appId, app);
  const auto hits = cacheHits();
  auto second = publish(event(channel, "b"));
  EXPECT_EQ(second.appId, app);
  EXPECT_EQ(second.seq, 2);
  EXPECT_EQ(cacheHits(), hits + 1) << "the second publish read the channel from the store again";
  // Another organization's channel is not found, cached or not.
  const auto other = addOrganization("other");
  auto foreign = event(channel, "c");
  foreign.orgId = other;
  EXPECT_THROW(
      try { publish(std::move(foreign)); } catch (const ApiError& e) {
        EXPECT_EQ(e.status(), 404);
        throw;
      },
      ApiError);
  EXPECT_EQ(eventsIn(channel), 2);
}

TEST_P(PublisherTest, ChannelDeletedAfterItWasCachedIs404AndNothingIsStored) {
  const auto [app, channel] = addAppAndChannel(org_);
  publish(event(channel, "first"));
  deleteBehindTheCache(channel);
  const auto hits = cacheHits();
  try {
    publish(event(channel, "late", "late-trace"));
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
  EXPECT_THROW(publish(event(channel, "again")), ApiError);
  EXPECT_EQ(cacheHits(), hits + 1);
}

TEST_P(PublisherTest, BatchRefusesOnlyTheDeletedChannelsEvents) {
  const auto [app, live] = addAppAndChannel(org_);
  const auto gone = db_->insert(
      "INSERT INTO channels (org_id, app_id, name, created_at, updated_at) VALUES (?, ?, 'gone', 0, 0) RETURNING id",
      {org_, app});
  publish(event(live, "warm-live"));
  publish(event(gone, "warm-gone"));
  deleteBehindTheCache(gone);
  std::vector<Publisher::Item> items;
  items.emplace_back(submission(event(gone, "g1", "batch-trace")));
  items.emplace_back(submission(event(live, "l1", "batch-trace")));
  items.emplace_back(errors::invalidField("body.events[2]", "must be an object"));
  items.emplace_back(submission(event(gone, "g2")));
  items.emplace_back(submission(event(live, "l2")));
  auto results = publisher_->publishBatch(std::move(items));
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
TEST_P(PublisherTest, ConcurrentPublishersAreNotFailedByAnotherOnesDeletedChannel) {
  const auto [app, live] = addAppAndChannel(org_);
  const auto gone = addAppAndChannel(org_).second;
  publish(event(gone, "warm"));
  deleteBehindTheCache(gone);
  std::vector<std::thread> threads;
  std::atomic<int> stored{0}, refused{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        try {
          publish(event(t % 2 ? gone : live, "e"));
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

// Every column survives the insert exactly (PostgreSQL sends a batch as column arrays,
// whose literal syntax quotes and escapes text). Written by the writer itself: the
// publisher's telemetry step would compute the columns this sets by hand.
TEST_P(PublisherTest, EveryColumnRoundTripsExactly) {
  const auto [app, channel] = addAppAndChannel(org_);
  std::vector<NewEvent> items;
  const std::vector<std::string> texts = {R"({"q":"say \"hi\"","b":"back\\slash","arr":"{1,2}","null":"NULL"})",
                                          "",
                                          "NULL",
                                          "{a,b}",
                                          "\"",
                                          "\\",
                                          "line\nbreak, comma",
                                          "caf\u00e9 \u65e5\u672c \U0001F600",
                                          "  spaced  "};
  for (std::size_t i = 0; i < texts.size(); ++i) {
    auto e = event(channel, texts[i].empty() ? "empty" : texts[i], "rt-" + std::to_string(i));
    e.payloadJson = texts[0];
    e.agentId = texts[i];
    if (i % 2) e.metadataJson = texts[i];
    e.occurredAt = i % 3 ? std::optional<std::int64_t>(-5 + static_cast<std::int64_t>(i)) : std::nullopt;
    e.telemetry.model = texts[(i + 1) % texts.size()];
    e.telemetry.inputTokens = static_cast<std::int64_t>(i) * 1000000007LL;
    e.telemetry.costUsd = i % 2 ? std::optional<double>(0.1 * static_cast<double>(i) + 1e-9) : std::nullopt;
    e.telemetry.durationMs = 1.0 / 3.0;
    e.appId = app;
    e.receivedAt = 1;
    items.push_back(std::move(e));
  }
  auto results = writer_->submit(std::move(items)).get();
  ASSERT_EQ(results.size(), texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const auto& e = results[i];
    const auto row = db_->query(
        "SELECT identifier, payload, agent_id, metadata, occurred_at, model, input_tokens, cost_usd, duration_ms, seq, "
        "trace_id, app_id FROM events WHERE id = ?",
        {e.id});
    ASSERT_EQ(row.size(), 1u) << i;
    const auto& r = row.front();
    EXPECT_EQ(r.str("identifier"), texts[i].empty() ? "empty" : texts[i]);
    EXPECT_EQ(r.str("payload"), texts[0]);
    EXPECT_EQ(r.optStr("agent_id"), std::optional<std::string>(texts[i]));
    EXPECT_EQ(r.optStr("metadata"), i % 2 ? std::optional<std::string>(texts[i]) : std::nullopt);
    EXPECT_EQ(r.optI64("occurred_at"), e.occurredAt);
    EXPECT_EQ(r.optStr("model"), std::optional<std::string>(texts[(i + 1) % texts.size()]));
    EXPECT_EQ(r.i64("input_tokens"), static_cast<std::int64_t>(i) * 1000000007LL);
    if (i % 2)
      EXPECT_DOUBLE_EQ(r.f64("cost_usd"), 0.1 * static_cast<double>(i) + 1e-9);
    else
      EXPECT_TRUE(r.isNull("cost_usd"));
    EXPECT_DOUBLE_EQ(r.f64("duration_ms"), 1.0 / 3.0);
    EXPECT_EQ(r.i64("seq"), static_cast<std::int64_t>(i) + 1);
    EXPECT_EQ(r.str("trace_id"), "rt-" + std::to_string(i));
    EXPECT_EQ(r.i64("app_id"), app);
  }
}

// Each stored event's id is its own row's, in a batch cut into several INSERT statements
// (131 = 64 + 64 + 2 + 1 rows on SQLite, where ids come from the last rowid of each
// statement) whose events interleave three channels, after the newest rows were deleted
// (AUTOINCREMENT never hands their ids out again).
TEST_P(PublisherTest, StoredIdsAreTheirRowsAcrossStatementsAndChannels) {
  const auto first = addAppAndChannel(org_).second;
  const auto second = addAppAndChannel(org_).second;
  const auto third = addAppAndChannel(org_).second;
  std::vector<NewEvent> warmup;
  for (int i = 0; i < 5; ++i) warmup.push_back(event(first, "warmup"));
  publishBatch(std::move(warmup));
  db_->exec("DELETE FROM events WHERE id > (SELECT MIN(id) FROM events)");
  const std::int64_t channels[] = {first, second, third};
  std::vector<NewEvent> items;
  for (int i = 0; i < 131; ++i) items.push_back(event(channels[(i * 7) % 3], "event-" + std::to_string(i)));
  auto results = publishBatch(std::move(items));
  ASSERT_EQ(results.size(), 131u);
  std::int64_t previous = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    ASSERT_TRUE(std::holds_alternative<StoredEvent>(results[i])) << i;
    const auto& e = std::get<StoredEvent>(results[i]);
    EXPECT_GT(e.id, previous) << i;
    previous = e.id;
    const auto row = db_->query("SELECT identifier, channel_id, seq FROM events WHERE id = ?", {e.id});
    ASSERT_EQ(row.size(), 1u) << i;
    EXPECT_EQ(row.front().str("identifier"), "event-" + std::to_string(i));
    EXPECT_EQ(row.front().i64("channel_id"), e.channelId);
    EXPECT_EQ(row.front().i64("seq"), e.seq);
  }
  EXPECT_GT(std::get<StoredEvent>(results.front()).id, 5);
}

// Each group commit reaches the consumers once, after it is durable, with its events in
// commit order and, per channel touched, the seqs it wrote there (what a cross-node
// doorbell announces). A consumer that throws after the commit does not stop the others.
TEST_P(PublisherTest, AfterCommitConsumersSeeEachCommitWithItsChannelHeads) {
  const auto a = addAppAndChannel(org_).second;
  const auto b = addAppAndChannel(org_).second;
  publish(event(a, "a0"));
  faulty_.committedThrows = true;
  std::vector<NewEvent> events;
  for (const auto& [channel, name] :
       std::vector<std::pair<std::int64_t, std::string>>{{a, "a1"}, {b, "b1"}, {a, "a2"}, {a, "a3"}})
    events.push_back(event(channel, name));
  publishBatch(std::move(events));
  std::lock_guard lock(consumer_.mutex);
  ASSERT_EQ(consumer_.commits.size(), 2u);
  ASSERT_EQ(consumer_.commits[1].size(), 4u);
  EXPECT_EQ(consumer_.commits[1][2].identifier, "a2");
  ASSERT_EQ(consumer_.heads[0].size(), 1u);
  EXPECT_EQ(consumer_.heads[0][0].lastSeq, 1);
  ASSERT_EQ(consumer_.heads[1].size(), 2u);
  const auto& first = consumer_.heads[1][0];
  const auto& second = consumer_.heads[1][1];
  EXPECT_EQ(first.orgId, org_);
  EXPECT_EQ(first.channelId, a);
  EXPECT_EQ(first.firstSeq, 2);
  EXPECT_EQ(first.lastSeq, 4);
  EXPECT_EQ(second.channelId, b);
  EXPECT_EQ(second.firstSeq, 1);
  EXPECT_EQ(second.lastSeq, 1);
}

// A consumer's write inside the transaction belongs with the events: when it fails, the
// commit is rolled back and the publisher told, and nothing reaches the consumers.
TEST_P(PublisherTest, AConsumerFailingInTheTransactionStoresNothing) {
  const auto channel = addAppAndChannel(org_).second;
  faulty_.inTransactionThrows = true;
  EXPECT_ANY_THROW(publish(event(channel, "refused")));
  EXPECT_EQ(eventsIn(channel), 0);
  faulty_.inTransactionThrows = false;
  EXPECT_EQ(publish(event(channel, "stored")).seq, 1);
  std::lock_guard lock(consumer_.mutex);
  ASSERT_EQ(consumer_.commits.size(), 1u);
  EXPECT_EQ(consumer_.commits[0][0].identifier, "stored");
}

AEV_STORE_BACKENDS(PublisherTest);

}  // namespace
}  // namespace aev::events

// Analytics from rollups (store/rollup_writer.h, analytics/rollup_window.h) against the
// same queries over raw events, on SQLite and a real PostgreSQL: random events published
// through the real event writer in random batches, over a few busy hours and several UTC
// days around them, then random windows (any microsecond, minutes to days, edges inside
// minutes, hours and days) answered as breakdowns and as minute, hour and day series.
// Counts and sums must be exactly the raw answers; percentiles within the sketch's
// relative error of the exact nearest rank. Then a deleted channel and a retention sweep
// take their events back out, the v22 rebuild and an interrupted backfill put them back,
// and the answers still agree.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <thread>

#include "analytics/analytics_service.h"
#include "analytics/rollup_backfill.h"
#include "analytics/rollup_window.h"
#include "analytics/sketch.h"
#include "events/event_writer.h"
#include "store/app_repository.h"
#include "store/organization_repository.h"
#include "store/retention_repository.h"
#include "store/schema_parts.h"
#include "unit/store_test.h"

namespace aev::analytics {
namespace {

constexpr std::int64_t kMinute = 60LL * 1000000, kHour = 60 * kMinute, kDay = 24 * kHour;
// An hour boundary far from the epoch (and 16 h into a UTC day), so windows start anywhere
// around it and cross day boundaries.
constexpr std::int64_t kT0 = 1764000000LL * 1000000 / kHour * kHour;
static_assert(kT0 % kDay == 16 * kHour);

std::vector<std::string> dimensionNames() {
  return {"model",     "provider",  "status",  "source",    "app",          "channel",      "apiKey",
          "user",      "agent",     "tool",    "eventType", "finishReason", "semanticKind", "service",
          "operation", "errorType", "session", "traceName", "tag"};
}

class AnalyticsRollupsTest : public aev::testing::StoreTest {
 protected:
  void SetUp() override {
    openStore();
    if (IsSkipped()) return;
    org_ = addOrganization("org");
    other_ = addOrganization("other");
    std::tie(app1_, channel1_) = addAppAndChannel(org_);
    std::tie(app2_, channel2_) = addAppAndChannel(org_);
    channel3_ = addChannel(org_, app1_, "c3");
    otherChannel_ = addAppAndChannel(other_).second;
    rollups_ = std::make_unique<AnalyticsService>(*db_, dimensionNames(), true);
    raw_ = std::make_unique<AnalyticsService>(*db_, dimensionNames(), false);
  }

  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng_)];
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

  store::NewEvent randomEvent() {
    store::NewEvent e;
    const int where = std::uniform_int_distribution<int>(0, 9)(rng_);
    e.orgId = where == 9 ? other_ : org_;
    e.channelId = where == 9 ? otherChannel_ : where < 4 ? channel1_ : where < 7 ? channel2_ : channel3_;
    e.appId = where == 9 ? 0 : e.channelId == channel2_ ? app2_ : app1_;
    if (where == 9)
      e.appId = db_->query("SELECT app_id FROM channels WHERE id = ?", {otherChannel_}).front().i64("app_id");
    e.identifier = "e";
    e.payloadJson = "{}";
    // Most in a few busy hours, the rest over the days around them.
    e.receivedAt = kT0 + (chance(0.6) ? std::uniform_int_distribution<std::int64_t>(0, 6 * kHour)(rng_)
                                      : std::uniform_int_distribution<std::int64_t>(-2 * kDay, 3 * kDay)(rng_));
    if (chance(0.7)) e.occurredAt = e.receivedAt - std::uniform_int_distribution<std::int64_t>(0, 5 * kMinute)(rng_);
    e.eventType = pick<std::string>({"llm.call", "agent.message", "agent.error"});
    e.source = pick<std::string>({"api", "batch", "otlp"});
    auto& t = e.telemetry;
    if (chance(0.8)) t.model = pick<std::string>({"m1", "m2", "m3", "m4"});
    if (chance(0.6)) t.provider = pick<std::string>({"openai", "anthropic"});
    t.status = chance(0.15) ? "error" : "ok";
    if (chance(0.7)) t.environment = pick<std::string>({"production", "staging"});
    if (chance(0.5)) t.session = "s" + std::to_string(std::uniform_int_distribution<int>(0, 40)(rng_));
    if (chance(0.5)) t.endUser = "u" + std::to_string(std::uniform_int_distribution<int>(0, 9)(rng_));
    if (chance(0.6)) t.inputTokens = std::uniform_int_distribution<std::int64_t>(0, 5000)(rng_);
    if (chance(0.6)) t.outputTokens = std::uniform_int_distribution<std::int64_t>(0, 2000)(rng_);
    if (chance(0.6)) t.costUsd = std::uniform_real_distribution<double>(0, 0.2)(rng_);
    if (chance(0.8)) t.durationMs = std::lognormal_distribution<double>(std::log(300.0), 1.2)(rng_);
    if (chance(0.1)) t.durationMs = 0;
    if (chance(0.5)) t.attributes.emplace_back("team", pick<std::string>({"a", "b", "c"}));
    if (chance(0.3)) t.attributes.emplace_back("tier", pick<std::string>({"free", "pro"}));
    return e;
  }

  void publish(std::size_t n, bool rollupWrites = true) {
    events::EventWriter writer(*db_, nullptr, 2000, rollupWrites);
    std::size_t sent = 0;
    while (sent < n) {
      const auto size = std::min<std::size_t>(n - sent, std::uniform_int_distribution<std::size_t>(1, 150)(rng_));
      std::vector<store::NewEvent> batch;
      for (std::size_t i = 0; i < size; ++i) batch.push_back(randomEvent());
      writer.submit(std::move(batch)).get();
      sent += size;
    }
  }

  Query randomQuery() {
    Query q;
    q.orgId = org_;
    const int length = std::uniform_int_distribution<int>(0, 9)(rng_);
    if (length < 6) {  // minutes to hours around the busy hours
      q.since = kT0 + std::uniform_int_distribution<std::int64_t>(-kHour, 6 * kHour)(rng_);
      q.until = *q.since + std::uniform_int_distribution<std::int64_t>(1, length < 2 ? 10 * kMinute : 7 * kHour)(rng_);
    } else {  // up to several days, from anywhere in the spread
      q.since = kT0 + std::uniform_int_distribution<std::int64_t>(-3 * kDay, 2 * kDay)(rng_);
      q.until = *q.since + std::uniform_int_distribution<std::int64_t>(kHour, 5 * kDay)(rng_);
    }
    if (chance(0.3)) q.environmentValues = std::vector<std::string>{"production"};
    if (chance(0.2)) q.filters["app"] = std::to_string(app1_);
    return q;
  }

  static void expectSameRows(const Breakdown& a, const Breakdown& b, const std::string& what) {
    ASSERT_EQ(a.rows.size(), b.rows.size()) << what;
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
      const auto &x = a.rows[i], &y = b.rows[i];
      EXPECT_EQ(x.key, y.key) << what << " row " << i;
      EXPECT_EQ(x.eventCount, y.eventCount) << what << " " << x.key;
      EXPECT_EQ(x.errorCount, y.errorCount) << what << " " << x.key;
      EXPECT_EQ(x.inputTokens, y.inputTokens) << what << " " << x.key;
      EXPECT_EQ(x.outputTokens, y.outputTokens) << what << " " << x.key;
      EXPECT_EQ(x.costUsd, y.costUsd) << what << " " << x.key;
      EXPECT_EQ(x.avgDurationMs, y.avgDurationMs) << what << " " << x.key;
    }
  }

  static void expectWithinBound(double sketch, double exact, const std::string& what) {
    const double bound = LatencySketch::kRelativeAccuracy * (1 + 1e-9) * std::fabs(exact);
    EXPECT_LE(std::fabs(sketch - exact), std::max(bound, LatencySketch::kMinMagnitude)) << what;
  }

  void compareRandomWindows(int rounds) {
    for (int round = 0; round < rounds; ++round) {
      const auto q = randomQuery();
      const std::string what = "round " + std::to_string(round) + " [" + std::to_string(*q.since - kT0) + ", " +
                               std::to_string(*q.until - kT0) + ")";
      for (const auto& [dimension, limit] : std::vector<std::pair<std::string, std::int64_t>>{
               {"model", 3}, {"session", 10}, {"app", 100}, {"status", 100}, {"source", 1}}) {
        if (dimension == "app" && q.filters.count("app")) continue;
        expectSameRows(rollups_->breakdown(q, dimension, std::nullopt, limit),
                       raw_->breakdown(q, dimension, std::nullopt, limit), what + " by " + dimension);
      }
      expectSameRows(rollups_->breakdown(q, "tag", std::string("team"), 100),
                     raw_->breakdown(q, "tag", std::string("team"), 100), what + " by tag");
      for (const char* interval : {"minute", "hour", "day"}) {
        auto filtered = q;
        if (chance(0.3))
          filtered.filters["model"] = "m1";
        else if (chance(0.15))
          filtered.filters["session"] = "s3";
        else if (chance(0.3))
          filtered.filterTagKey = "team", filtered.filterTagValue = "b";
        const auto a = rollups_->overview(filtered, interval), b = raw_->overview(filtered, interval);
        ASSERT_EQ(a.series.size(), b.series.size());
        for (std::size_t s = 0; s < 4; ++s) {  // counts and sums: exact
          ASSERT_EQ(a.series[s].points.size(), b.series[s].points.size()) << what << " " << a.series[s].metric;
          for (std::size_t i = 0; i < a.series[s].points.size(); ++i) {
            EXPECT_EQ(a.series[s].points[i].ts, b.series[s].points[i].ts);
            EXPECT_EQ(a.series[s].points[i].value, b.series[s].points[i].value)
                << what << " " << interval << " " << a.series[s].metric << " point " << i;
          }
        }
        for (std::size_t s = 4; s < 6; ++s) {  // percentiles: within the bound
          ASSERT_EQ(a.series[s].points.size(), b.series[s].points.size()) << what << " " << a.series[s].metric;
          for (std::size_t i = 0; i < a.series[s].points.size(); ++i) {
            EXPECT_EQ(a.series[s].points[i].ts, b.series[s].points[i].ts);
            expectWithinBound(a.series[s].points[i].value, b.series[s].points[i].value,
                              what + " " + interval + " " + a.series[s].metric);
          }
        }
        EXPECT_EQ(a.latency.count, b.latency.count) << what;
        expectWithinBound(a.latency.p50, b.latency.p50, what + " p50");
        expectWithinBound(a.latency.p90, b.latency.p90, what + " p90");
        expectWithinBound(a.latency.p99, b.latency.p99, what + " p99");
        expectWithinBound(a.latency.max, b.latency.max, what + " max");
        const auto sa = rollups_->timeseries(filtered, "cost_usd", interval);
        const auto sb = raw_->timeseries(filtered, "cost_usd", interval);
        ASSERT_EQ(sa.points.size(), sb.points.size());
        for (std::size_t i = 0; i < sa.points.size(); ++i) EXPECT_EQ(sa.points[i].value, sb.points[i].value) << what;
      }
      const auto la = rollups_->latency(q), lb = raw_->latency(q);
      EXPECT_EQ(la.count, lb.count) << what;
      expectWithinBound(la.p95, lb.p95, what + " latency p95");
    }
  }

  std::int64_t rollupRows() {
    return db_->query("SELECT COUNT(*) AS n FROM analytics_rollups WHERE org_id = ? AND events > 0", {org_})
        .front()
        .i64("n");
  }

  std::mt19937_64 rng_{20261128};
  std::int64_t org_ = 0, other_ = 0, app1_ = 0, app2_ = 0, channel1_ = 0, channel2_ = 0, channel3_ = 0,
               otherChannel_ = 0;
  std::unique_ptr<AnalyticsService> rollups_, raw_;
};

TEST_P(AnalyticsRollupsTest, RollupAnswersEqualRawAnswersOnRandomWindows) {
  publish(2500);
  ASSERT_GT(rollupRows(), 0);
  for (const auto span : store::kRollupSpans)
    EXPECT_GT(db_->query("SELECT COUNT(*) AS n FROM analytics_rollups WHERE span_s = ?", {span}).front().i64("n"), 0)
        << span;
  // A session and a trace name belong to one trace: no rollup rows, their breakdowns read
  // raw events (compared with the raw answers below like every other dimension).
  EXPECT_EQ(db_->query("SELECT COUNT(*) AS n FROM analytics_rollups WHERE dimension IN ('session', 'traceName')")
                .front()
                .i64("n"),
            0);
  compareRandomWindows(25);
}

// Writers committing at once (each event writer on its own connection), their batches
// sharing keys old and new: on PostgreSQL a key one writer inserts whole conflicts for the
// other, which then locks and updates the row; nothing is lost or counted twice.
TEST_P(AnalyticsRollupsTest, ConcurrentWritersLoseNoUpdate) {
  constexpr int kWriters = 4, kBatches = 30;
  std::vector<std::vector<std::vector<store::NewEvent>>> work(kWriters);
  for (auto& batches : work)
    for (int b = 0; b < kBatches; ++b) {
      std::vector<store::NewEvent> batch;
      const auto size = std::uniform_int_distribution<int>(1, 40)(rng_);
      for (int i = 0; i < size; ++i) {
        auto e = randomEvent();
        // Half in the same few minutes, so the writers' keys collide, new and stored alike.
        if (chance(0.5)) e.receivedAt = kT0 + std::uniform_int_distribution<std::int64_t>(0, 3 * kMinute)(rng_);
        batch.push_back(std::move(e));
      }
      batches.push_back(std::move(batch));
    }
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (auto& batches : work)
    writers.emplace_back([&] {
      events::EventWriter writer(*db_, nullptr, 2000, true);
      for (auto& batch : batches) {
        try {
          writer.submit(std::move(batch)).get();
        } catch (const std::exception&) {
          ++failures;
        }
      }
    });
  for (auto& t : writers) t.join();
  EXPECT_EQ(failures.load(), 0);
  compareRandomWindows(12);
}

TEST_P(AnalyticsRollupsTest, DeletedChannelsAndRetentionTakeTheirEventsOut) {
  publish(1500);
  db_->transaction([&](store::Connection& c) { store::ChannelRepository().remove(c, org_, channel3_); });
  compareRandomWindows(8);
  // Retention: the oldest events by receipt, in two bounded batches.
  db_->transaction([&](store::Connection& c) {
    store::RetentionRepository().deleteBefore(c, org_, kT0 - kDay + 5 * kHour, 200);
    store::RetentionRepository().deleteBefore(c, org_, kT0 + 3 * kHour, 100000);
  });
  compareRandomWindows(8);
  // An app takes its rollups with it (by AppRepository::remove: no cascade on PostgreSQL).
  db_->transaction([&](store::Connection& c) { store::AppRepository().remove(c, org_, app2_); });
  EXPECT_EQ(db_->query("SELECT COUNT(*) AS n FROM analytics_rollups WHERE app_id = ?", {app2_}).front().i64("n"), 0);
  compareRandomWindows(4);
  // An organization too; the other one keeps its rows.
  const auto othersRows = [&] {
    return db_->query("SELECT COUNT(*) AS n FROM analytics_rollups WHERE org_id = ?", {other_}).front().i64("n");
  };
  const auto othersBefore = othersRows();
  EXPECT_GT(othersBefore, 0);
  db_->transaction([&](store::Connection& c) { store::OrganizationRepository().remove(c, org_); });
  EXPECT_EQ(db_->query("SELECT COUNT(*) AS n FROM analytics_rollups WHERE org_id = ?", {org_}).front().i64("n"), 0);
  EXPECT_EQ(othersRows(), othersBefore);
}

TEST_P(AnalyticsRollupsTest, QueriesReadRawEventsUntilTheBackfillIsDone) {
  publish(300);
  // As a store upgraded with events in it: the rollups lack them until the backfill ends.
  db_->exec("DELETE FROM analytics_rollups");
  db_->exec("UPDATE analytics_rollup_state SET backfill_until = 1000000000, backfilled_to = 0");
  AnalyticsService fresh(*db_, dimensionNames(), true);
  Query q;
  q.orgId = org_;
  q.since = kT0 - kHour;
  q.until = kT0 + 7 * kHour;
  expectSameRows(fresh.breakdown(q, "model", std::nullopt, 100), raw_->breakdown(q, "model", std::nullopt, 100),
                 "before the backfill");
  EXPECT_FALSE(fresh.breakdown(q, "model", std::nullopt, 100).rows.empty());
}

// A store upgraded with events in it: the backfill folds them in chunk by chunk while new
// events are published, resumes after a "restart" (a new backfill on the same store), and
// ends with exactly the rows the writer would have kept.
TEST_P(AnalyticsRollupsTest, BackfillFoldsOlderEventsInChunksAndResumes) {
  publish(1200);
  auto snapshot = [&] {
    std::vector<std::string> rows;
    for (const auto& r : db_->query(
             "SELECT org_id, dimension, span_s, bucket, value, app_id, environment, events, errors, input_tokens, "
             "output_tokens, cost_nanos, durations, duration_micros, " +
             store::rollupSketchColumnSql(db_->dialect(), "sketch") +
             " AS sketch FROM analytics_rollups WHERE events > 0 ORDER BY org_id, dimension, span_s, bucket, value, "
             "app_id, environment")) {
      std::string row;
      for (const char* c : {"org_id", "span_s", "bucket", "app_id", "events", "errors", "input_tokens", "output_tokens",
                            "cost_nanos", "durations", "duration_micros"})
        row += std::to_string(r.i64(c)) + "|";
      row += r.str("dimension") + "|" + r.str("value") + "|" + r.str("environment") + "|";
      row += store::rollupSketchOf(db_->dialect(), r, "sketch").serialize();
      rows.push_back(std::move(row));
    }
    return rows;
  };
  const auto before = snapshot();
  ASSERT_GT(db_->query("SELECT COUNT(*) AS n FROM analytics_rollups WHERE span_s = 86400").front().i64("n"), 0);
  // As v22 does to a store written since v20: the rollups rebuilt, days with them.
  for (const auto& sql : store::rollupDaysMigration(db_->dialect()).statements) db_->exec(sql);
  EXPECT_EQ(db_->query("SELECT COUNT(*) AS n FROM analytics_rollups").front().i64("n"), 0);
  AnalyticsService fresh(*db_, dimensionNames(), true);
  {
    int chunks = 0;
    RollupBackfill first(*db_, 100);
    EXPECT_FALSE(first.run([&] { return chunks++ < 3; }));  // stopped, as at shutdown
  }
  Query q;
  q.orgId = org_;
  q.since = kT0 - 3 * kDay;
  q.until = kT0 + 4 * kDay;
  // Reads stay raw (and right) until the backfill is done.
  expectSameRows(fresh.breakdown(q, "model", std::nullopt, 100), raw_->breakdown(q, "model", std::nullopt, 100),
                 "half-way");
  RollupBackfill resumed(*db_);  // sized as the daemon sizes it (adaptive chunks)
  EXPECT_TRUE(resumed.run());
  EXPECT_TRUE(resumed.run());  // nothing left
  EXPECT_EQ(snapshot(), before);
  compareRandomWindows(4);
  // Again, with events published while it runs: they go straight into the rollups.
  db_->exec("DELETE FROM analytics_rollups");
  db_->exec("UPDATE analytics_rollup_state SET backfill_until = (SELECT MAX(id) FROM events), backfilled_to = 0");
  {
    int chunks = 0;
    RollupBackfill first(*db_, 250);
    EXPECT_FALSE(first.run([&] { return chunks++ < 2; }));
  }
  publish(300);
  EXPECT_TRUE(RollupBackfill(*db_, 250).run());
  compareRandomWindows(6);
}

// analytics.rollup_writes=false (benchmarks): the rollups emptied and marked stale, reads
// raw, commits skip them; back on, the backfill rebuilds them from every stored event.
TEST_P(AnalyticsRollupsTest, RollupWritesOffEmptiesThemAndBackOnRebuildsThem) {
  publish(400);
  const auto apply = [&](bool writes) {
    return db_->transaction([&](store::Connection& c) { return store::RollupWriter::applyWritesSetting(c, writes); });
  };
  EXPECT_EQ(apply(true), "");  // already on: nothing to do
  EXPECT_NE(apply(false), "");
  EXPECT_EQ(apply(false), "");
  EXPECT_EQ(db_->query("SELECT COUNT(*) AS n FROM analytics_rollups").front().i64("n"), 0);
  publish(300, false);
  EXPECT_EQ(db_->query("SELECT COUNT(*) AS n FROM analytics_rollups").front().i64("n"), 0);
  AnalyticsService stale(*db_, dimensionNames(), true);
  Query q;
  q.orgId = org_;
  q.since = kT0 - 3 * kDay;
  q.until = kT0 + 4 * kDay;
  const auto rawModels = raw_->breakdown(q, "model", std::nullopt, 100);
  expectSameRows(stale.breakdown(q, "model", std::nullopt, 100), rawModels, "writes off");
  std::int64_t total = 0;
  for (const auto& r : rawModels.rows) total += r.eventCount;
  EXPECT_GT(total, 0);
  EXPECT_NE(apply(true), "");
  EXPECT_TRUE(RollupBackfill(*db_, 150).run());
  EXPECT_GT(rollupRows(), 0);
  compareRandomWindows(5);
}

AEV_STORE_BACKENDS(AnalyticsRollupsTest);

// A window is cut into whole UTC days, then whole hours, then whole minutes, the partial
// minutes at its ends raw; a series step leaves out the spans coarser than itself.
TEST(RollupWindowTest, SplitsIntoDaysHoursMinutesAndRawEdges) {
  const std::int64_t day0 = 20000 * kDay;
  const std::int64_t since = day0 + 22 * kHour + 3 * kMinute + 5, until = day0 + 3 * kDay + 2 * kHour + 90 * 1000000;
  const std::vector<WindowPart> expected = {{since, day0 + 22 * kHour + 4 * kMinute, 0},
                                            {day0 + 22 * kHour + 4 * kMinute, day0 + 23 * kHour, 60},
                                            {day0 + 23 * kHour, day0 + kDay, 3600},
                                            {day0 + kDay, day0 + 3 * kDay, 86400},
                                            {day0 + 3 * kDay, day0 + 3 * kDay + 2 * kHour, 3600},
                                            {day0 + 3 * kDay + 2 * kHour, day0 + 3 * kDay + 2 * kHour + kMinute, 60},
                                            {day0 + 3 * kDay + 2 * kHour + kMinute, until, 0}};
  const auto parts = splitWindow(since, until, 86400);
  ASSERT_EQ(parts.size(), expected.size());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    EXPECT_EQ(parts[i].from, expected[i].from) << i;
    EXPECT_EQ(parts[i].to, expected[i].to) << i;
    EXPECT_EQ(parts[i].span, expected[i].span) << i;
  }
  // An hour series: no day rows; every part still contiguous and covering the window.
  const auto hourly = splitWindow(since, until, 3600);
  std::int64_t at = since;
  for (const auto& p : hourly) {
    EXPECT_EQ(p.from, at);
    EXPECT_LE(p.span, 3600);
    at = p.to;
  }
  EXPECT_EQ(at, until);
  for (const auto& p : splitWindow(since, until, 60)) EXPECT_LE(p.span, 60);
  // Shorter than a day: no day part even when it crosses midnight.
  for (const auto& p : splitWindow(day0 + 23 * kHour, day0 + kDay + kHour, 86400)) EXPECT_EQ(p.span, 3600);
}

}  // namespace
}  // namespace aev::analytics

// store/trace_repository.h on SQLite and a real PostgreSQL: rollups folded in batch after
// batch stay exact when the writer updates a rollup it knows with one guarded statement,
// including when another writer (another node, a rebuild) changed the rollup meanwhile.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <thread>

#include "store/trace_repository.h"
#include "unit/store_test.h"

namespace aev::store {
namespace {

class TraceRollupTest : public aev::testing::StoreTest {
 protected:
  void SetUp() override {
    openStore();
    if (IsSkipped()) return;
    org_ = addOrganization("org");
    std::tie(app_, channel_) = addAppAndChannel(org_);
  }

  StoredEvent event(const std::string& agent, const std::string& type, std::int64_t when, bool error = false) {
    StoredEvent e;
    e.id = ++ids_;
    e.orgId = org_;
    e.appId = app_;
    e.channelId = channel_;
    e.traceId = "t1";
    e.agentId = agent;
    e.eventType = type;
    e.receivedAt = when;
    e.isError = error;
    return e;
  }
  void apply(TraceRepository& repo, std::vector<StoredEvent> events) {
    db_->transaction([&](Connection& c) { repo.apply(c, events); });
  }
  StoredEvent withUsage(StoredEvent e, std::int64_t in, std::int64_t out, double cost) {
    e.telemetry.inputTokens = in;
    e.telemetry.outputTokens = out;
    e.telemetry.costUsd = cost;
    return e;
  }
  // An event row of trace t1 as the writer stores it, telemetry columns included.
  void storeEvent(std::int64_t seq, std::optional<std::int64_t> in, std::optional<std::int64_t> out,
                  std::optional<double> cost) {
    const auto value = [](auto v) { return v ? SqlValue(*v) : SqlValue(); };
    db_->exec(
        "INSERT INTO events (org_id, app_id, channel_id, seq, identifier, payload, event_type, trace_id, "
        "received_at, source, ts, input_tokens, output_tokens, cost_usd) VALUES (?, ?, ?, ?, 'e', '{}', "
        "'agent.message', 't1', ?, 'api', ?, ?, ?, ?)",
        {org_, app_, channel_, seq, seq * 100, seq * 100, value(in), value(out), value(cost)});
  }
  TraceRecord rollup() {
    auto c = db_->acquire();
    auto t = TraceRepository().byId(*c, org_, "t1");
    if (!t) throw std::runtime_error("no rollup");
    return *t;
  }

  std::int64_t org_ = 0, app_ = 0, channel_ = 0;
  std::atomic<std::int64_t> ids_{0};
};

TEST_P(TraceRollupTest, BatchesFoldIntoExactRollups) {
  TraceRepository writer;
  apply(writer, {event("a", "agent.start", 500), event("a", "agent.tool_call.start", 700)});
  apply(writer, {event("a", "agent.message", 300), event("a", "agent.error", 900, true)});
  apply(writer, {event("b", "agent.handoff", 600)});
  const auto t = rollup();
  EXPECT_EQ(t.eventCount, 5);
  EXPECT_EQ(t.errorCount, 1);
  EXPECT_EQ(t.toolCallCount, 1);
  EXPECT_EQ(t.handoffCount, 1);
  EXPECT_EQ(t.startTime, 300);
  EXPECT_EQ(t.endTime, 900);
  EXPECT_EQ(t.agents, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(t.eventTypes, (std::vector<std::string>{"agent.error", "agent.handoff", "agent.message", "agent.start",
                                                    "agent.tool_call.start"}));
}

TEST_P(TraceRollupTest, AnotherWritersChangesAreKept) {
  TraceRepository writer, other;
  apply(writer, {event("a", "agent.start", 500)});
  apply(other, {event("b", "agent.message", 400)});  // another node, say
  apply(writer, {event("c", "agent.start", 600)});   // must not drop b or its event type
  auto t = rollup();
  EXPECT_EQ(t.eventCount, 3);
  EXPECT_EQ(t.startTime, 400);
  EXPECT_EQ(t.endTime, 600);
  EXPECT_EQ(t.agents, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(t.eventTypes, (std::vector<std::string>{"agent.message", "agent.start"}));

  // The rollup deleted behind the writer's back (a rebuild with no events left).
  db_->exec("DELETE FROM traces WHERE org_id = ? AND trace_id = 't1'", {org_});
  apply(writer, {event("d", "custom", 50)});
  t = rollup();
  EXPECT_EQ(t.eventCount, 1);
  EXPECT_EQ(t.startTime, 50);
  EXPECT_EQ(t.agents, (std::vector<std::string>{"d"}));
  EXPECT_EQ(t.eventTypes, (std::vector<std::string>{"custom"}));
}

TEST_P(TraceRollupTest, ARolledBackBatchLeavesNoTrace) {
  TraceRepository writer;
  apply(writer, {event("a", "agent.start", 500)});
  EXPECT_THROW(db_->transaction([&](Connection& c) {
    writer.apply(c, {event("z", "agent.end", 800)});
    throw std::runtime_error("a later statement of the commit failed");
  }),
               std::runtime_error);
  apply(writer, {event("a", "agent.start", 550)});
  const auto t = rollup();
  EXPECT_EQ(t.eventCount, 2);
  EXPECT_EQ(t.endTime, 550);
  EXPECT_EQ(t.agents, (std::vector<std::string>{"a"}));
  EXPECT_EQ(t.eventTypes, (std::vector<std::string>{"agent.start"}));
}

// Several writers with their own caches (nodes of one PostgreSQL) folding into one trace
// at once, each batch with a new agent so the guarded update keeps missing and the
// read-then-write path runs: no batch's counts or lists may be lost, and a rollup two
// writers both found missing is created once.
TEST_P(TraceRollupTest, ConcurrentWritersLoseNoUpdate) {
  constexpr int kWriters = 4, kBatches = 25;
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int w = 0; w < kWriters; ++w)
    writers.emplace_back([&, w] {
      TraceRepository repo;
      for (int b = 0; b < kBatches; ++b) {
        const auto agent = "w" + std::to_string(w) + "-" + std::to_string(b);
        try {
          apply(repo, {event(agent, "agent.message", 1000 + b), event(agent, "agent.handoff", 2000 - w)});
        } catch (const std::exception&) {
          ++failures;
        }
      }
    });
  for (auto& t : writers) t.join();
  EXPECT_EQ(failures.load(), 0);
  const auto t = rollup();
  EXPECT_EQ(t.eventCount, 2 * kWriters * kBatches);
  EXPECT_EQ(t.handoffCount, kWriters * kBatches);
  EXPECT_EQ(t.startTime, 1000);
  EXPECT_EQ(t.endTime, 2000);
  EXPECT_EQ(t.agents.size(), static_cast<std::size_t>(kWriters * kBatches));
  EXPECT_EQ(t.eventTypes, (std::vector<std::string>{"agent.handoff", "agent.message"}));
}

// The earliest call's input and the latest call's output win, tags keep a key's first
// value, and the end runs to the last event's end (time + duration), on every path: a new
// rollup, the guarded update, the read-and-rewrite after another writer's change.
TEST_P(TraceRollupTest, TextsTagsAndEndsOnEveryPath) {
  const auto call = [&](std::int64_t when, const std::string& question, const std::string& answer) {
    auto e = event("a", "agent.message", when);
    e.payloadJson = R"({"messages":{"input":[{"role":"user","content":")" + question +
                    R"("}],"output":[{"role":"assistant","content":")" + answer + R"("}]}})";
    return e;
  };
  TraceRepository writer, other;
  auto first = call(500, "second question", "second answer");
  first.telemetry.durationMs = 1000;  // ends at 500 + 1,000,000 µs
  first.telemetry.attributes = {{"team", "a"}};
  apply(writer, {first});
  auto t = rollup();
  EXPECT_EQ(t.inputText, "second question");
  EXPECT_EQ(t.endTime, 500 + 1000 * 1000);
  EXPECT_EQ(t.tags, (std::map<std::string, std::string>{{"team", "a"}}));

  auto earlier = call(100, "first question", "first answer");  // guarded update
  earlier.telemetry.attributes = {{"team", "b"}, {"tier", "gold"}};
  apply(writer, {earlier});
  t = rollup();
  EXPECT_EQ(t.inputText, "first question");
  EXPECT_EQ(t.outputText, "second answer");  // the latest call's
  EXPECT_EQ(t.tags, (std::map<std::string, std::string>{{"team", "a"}, {"tier", "gold"}}));
  EXPECT_EQ(t.startTime, 100);

  apply(other, {call(2000000, "later question", "last answer")});  // read and rewrite
  apply(writer, {call(50, "the very first", "")});                 // the writer's guess is stale
  t = rollup();
  EXPECT_EQ(t.inputText, "the very first");
  EXPECT_EQ(t.outputText, "last answer");
  EXPECT_EQ(t.endTime, 2000000);
  EXPECT_EQ(t.tags.size(), 2u);
}

// Tokens and cost add up whichever way a batch is folded in: a new rollup (insert), the
// guarded one-statement update, and the read-and-rewrite after another writer's change.
// (Costs are exact binary fractions, so the sums are exact in any order.)
TEST_P(TraceRollupTest, TokensAndCostAddUpOnEveryPath) {
  TraceRepository writer, other;
  apply(writer, {withUsage(event("a", "agent.message", 100), 100, 10, 0.25), event("a", "agent.start", 50)});
  apply(writer, {withUsage(event("a", "agent.message", 200), 40, 4, 0.5)});  // guarded update
  apply(other, {withUsage(event("b", "agent.message", 300), 1, 1, 0.125)});  // read and rewrite
  apply(writer, {withUsage(event("c", "agent.message", 400), 2, 0, 0.0)});   // the guard misses: rewrite
  const auto t = rollup();
  EXPECT_EQ(t.eventCount, 5);
  EXPECT_EQ(t.inputTokens, 143);
  EXPECT_EQ(t.outputTokens, 15);
  EXPECT_DOUBLE_EQ(t.costUsd, 0.875);
}

// A rebuild (after a channel's events went) takes the sums from the events that remain.
TEST_P(TraceRollupTest, ARebuildRecountsTokensAndCostFromTheEvents) {
  storeEvent(1, 100, 20, 0.5);
  storeEvent(2, std::nullopt, std::nullopt, std::nullopt);  // no telemetry: counts 0
  storeEvent(3, 7, 3, 0.25);
  TraceRepository repo;
  db_->transaction([&](Connection& c) { repo.rebuild(c, org_, {"t1"}); });
  const auto t = rollup();
  EXPECT_EQ(t.eventCount, 3);
  EXPECT_EQ(t.inputTokens, 107);
  EXPECT_EQ(t.outputTokens, 23);
  EXPECT_DOUBLE_EQ(t.costUsd, 0.75);
}

// Migration 13 adds the columns and fills the rollups that exist from their events.
TEST_P(TraceRollupTest, MigrationFillsExistingRollups) {
  storeEvent(1, 100, 20, 0.5);
  storeEvent(2, 11, 2, 0.125);
  TraceRepository repo;
  db_->transaction([&](Connection& c) { repo.rebuild(c, org_, {"t1"}); });
  // Back to the schema before v13, with a rollup written then.
  for (const char* column : {"input_tokens", "output_tokens", "cost_usd"})
    db_->exec(std::string("ALTER TABLE traces DROP COLUMN ") + column);
  db_->exec("DELETE FROM schema_migrations WHERE version = 13");
  EXPECT_EQ(migrate(*db_), 1);
  const auto t = rollup();
  EXPECT_EQ(t.eventCount, 2);
  EXPECT_EQ(t.inputTokens, 111);
  EXPECT_EQ(t.outputTokens, 22);
  EXPECT_DOUBLE_EQ(t.costUsd, 0.625);
}

AEV_STORE_BACKENDS(TraceRollupTest);

}  // namespace
}  // namespace aev::store

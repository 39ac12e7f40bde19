// The trace facets (store/trace_facets.h) against what the filters meant before them, on
// SQLite and a real PostgreSQL: random events (two organizations sharing trace ids, long
// values, tags) published through the real event writer in random batches; then random
// filters of the traces, sessions and end-users lists (environment, model, provider, tool,
// tag, with windows, apps, users) answered from the facets must be exactly what the
// per-trace probe of events answers (the lists with the backfill marked unfinished), and
// the traces list exactly what a query over events written here answers. Again after a
// deleted channel, retention and a deleted app; and after the background backfill rebuilt
// every facet of an "upgraded" store in chunks, with publishing meanwhile.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "events/after_commit.h"
#include "events/event_writer.h"
#include "store/app_repository.h"
#include "store/retention_repository.h"
#include "store/session_repository.h"
#include "store/trace_repository.h"
#include "traces/trace_facet_backfill.h"
#include "unit/store_test.h"

namespace aev::traces {
namespace {

constexpr std::int64_t kT0 = 1764000000LL * 1000000;
constexpr std::int64_t kMinute = 60LL * 1000000;

class TraceFacetsTest : public aev::testing::StoreTest {
 protected:
  void SetUp() override {
    openStore();
    if (IsSkipped()) return;
    org_ = addOrganization("org");
    other_ = addOrganization("other");
    std::tie(app1_, channel1_) = addAppAndChannel(org_);
    std::tie(app2_, channel2_) = addAppAndChannel(org_);
    channel3_ = addChannel(org_, app1_, "c3");
    std::tie(otherApp_, otherChannel_) = addAppAndChannel(other_);
  }

  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng_)];
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

  std::vector<std::string> models() const { return {"m1", "m2", "m3", std::string(300, 'x') + "-long-model"}; }
  std::vector<std::string> tagValues() const { return {"a", "b", "c", std::string(400, 'v')}; }

  store::NewEvent randomEvent() {
    store::NewEvent e;
    const int where = std::uniform_int_distribution<int>(0, 9)(rng_);
    const bool other = where == 9;
    e.orgId = other ? other_ : org_;
    e.channelId = other ? otherChannel_ : where < 4 ? channel1_ : where < 7 ? channel2_ : channel3_;
    e.appId = other ? otherApp_ : e.channelId == channel2_ ? app2_ : app1_;
    e.identifier = "e";
    e.payloadJson = "{}";
    e.receivedAt = kT0 + std::uniform_int_distribution<std::int64_t>(0, 600 * kMinute)(rng_);
    // The same trace ids in both organizations: one's facets must never answer for the other.
    if (chance(0.95)) e.traceId = "t" + std::to_string(std::uniform_int_distribution<int>(0, 79)(rng_));
    e.eventType = pick<std::string>({"llm.call", "agent.message", "agent.tool_call.start"});
    auto& t = e.telemetry;
    if (chance(0.5)) t.model = pick(models());
    if (chance(0.4)) t.provider = pick<std::string>({"openai", "anthropic"});
    if (chance(0.2)) t.tool = pick<std::string>({"search", "sql"});
    if (chance(0.6)) t.environment = pick<std::string>({"production", "staging", "7"});
    if (chance(0.4)) t.session = "s" + std::to_string(std::uniform_int_distribution<int>(0, 15)(rng_));
    if (chance(0.4)) t.endUser = "u" + std::to_string(std::uniform_int_distribution<int>(0, 9)(rng_));
    if (chance(0.4)) t.attributes.emplace_back("team", pick(tagValues()));
    if (chance(0.2)) t.attributes.emplace_back("tier", pick<std::string>({"free", "pro"}));
    if (chance(0.05)) t.attributes.emplace_back(std::string(150, 'k'), "long-key");
    return e;
  }

  void publish(std::size_t n) {
    events::EventWriter writer(*db_);
    std::size_t sent = 0;
    while (sent < n) {
      const auto size = std::min<std::size_t>(n - sent, std::uniform_int_distribution<std::size_t>(1, 60)(rng_));
      std::vector<store::NewEvent> batch;
      for (std::size_t i = 0; i < size; ++i) batch.push_back(randomEvent());
      writer.submit(std::move(batch)).get();
      sent += size;
    }
  }

  store::TraceQuery randomQuery() {
    store::TraceQuery q;
    bool any = false;
    while (!any) {
      if (chance(0.35))
        q.environmentValues = chance(0.5) ? std::vector<std::string>{pick<std::string>({"production", "staging"})}
                                          : std::vector<std::string>{"staging", "Staging env", "7"};
      if (chance(0.3)) q.model = pick(models());
      if (chance(0.15)) q.provider = pick<std::string>({"openai", "anthropic", "none"});
      if (chance(0.15)) q.tool = pick<std::string>({"search", "sql"});
      if (chance(0.3))
        q.tag = chance(0.1) ? std::make_pair(std::string(150, 'k'), std::string("long-key"))
                            : std::make_pair(std::string(chance(0.7) ? "team" : "tier"),
                                             chance(0.7) ? pick(tagValues()) : std::string("pro"));
      any = q.environmentValues || q.model || q.provider || q.tool || q.tag;
    }
    if (chance(0.3)) q.since = kT0 + std::uniform_int_distribution<std::int64_t>(0, 300 * kMinute)(rng_);
    if (chance(0.2)) q.appId = app1_;
    if (chance(0.1)) q.userId = "u" + std::to_string(std::uniform_int_distribution<int>(0, 9)(rng_));
    if (chance(0.3)) q.orderBy = store::TraceQuery::Order::Cost, q.ascending = chance(0.5);
    return q;
  }

  // The traces q selects, by a query over events written here: the rollups q's other
  // conditions keep, then each filter as "some event of the trace has the value".
  std::vector<std::string> rawTraceIds(const store::TraceQuery& q) {
    store::TraceQuery unfiltered = q;
    unfiltered.environmentValues.reset();
    unfiltered.model.reset(), unfiltered.provider.reset(), unfiltered.tool.reset(), unfiltered.tag.reset();
    std::vector<std::string> out;
    auto c = db_->acquire();
    for (const auto& t : traces_.list(*c, org_, unfiltered, 0, 100000)) {
      auto has = [&](const std::string& condition, store::Params extra) {
        store::Params p{org_, t.traceId};
        p.insert(p.end(), extra.begin(), extra.end());
        return c->query("SELECT COUNT(*) AS n FROM events e WHERE e.org_id = ? AND e.trace_id = ? AND " + condition, p)
                   .front()
                   .i64("n") > 0;
      };
      bool ok = true;
      if (q.model) ok = ok && has("e.model = ?", {*q.model});
      if (q.provider) ok = ok && has("e.provider = ?", {*q.provider});
      if (q.tool) ok = ok && has("e.tool = ?", {*q.tool});
      if (q.environmentValues) {
        bool any = false;
        for (const auto& v : *q.environmentValues) any = any || has("e.environment = ?", {v});
        ok = ok && any;
      }
      if (q.tag)
        ok =
            ok && has("EXISTS (SELECT 1 FROM event_attributes a WHERE a.event_id = e.id AND a.key = ? AND a.value = ?)",
                      {q.tag->first, q.tag->second});
      if (ok) out.push_back(t.traceId);
    }
    return out;
  }

  std::vector<std::string> listIds(const store::TraceQuery& q, std::int64_t* total = nullptr) {
    auto c = db_->acquire();
    std::vector<std::string> ids;
    for (const auto& t : traces_.list(*c, org_, q, 0, 100000)) ids.push_back(t.traceId);
    if (total) *total = traces_.count(*c, org_, q);
    return ids;
  }

  // Every list's answer for q, as text: traces (page and count), sessions, end users.
  std::string answers(const store::TraceQuery& q) {
    std::string out;
    std::int64_t total = 0;
    for (const auto& id : listIds(q, &total)) out += id + ",";
    out += " total " + std::to_string(total) + "\n";
    auto c = db_->acquire();
    store::GroupQuery g;
    g.traces = q;
    g.traces.userId.reset();
    for (const auto& s : sessions_.sessions(*c, org_, g, 0, 1000)) {
      out += s.sessionId + ":" + std::to_string(s.traceCount) + ":" + std::to_string(s.inputTokens) + ":" +
             std::to_string(s.userCount) + ":";
      for (const auto& u : s.userIds) out += u + ";";
      out += ",";
    }
    out += " sessions " + std::to_string(sessions_.sessionCount(*c, org_, g)) + "\n";
    for (const auto& u : sessions_.endUsers(*c, org_, g, 0, 1000))
      out += u.userId + ":" + std::to_string(u.traceCount) + ":" + std::to_string(u.sessionCount) + ",";
    out += " users " + std::to_string(sessions_.endUserCount(*c, org_, g)) + "\n";
    return out;
  }

  // Marks the facets' backfill unfinished (the lists then probe events), and back.
  void probeEvents(bool on) {
    if (on)
      db_->exec("UPDATE trace_facet_state SET backfill_until = 1000000000, backfilled_to = 0 WHERE id = 1");
    else
      db_->exec("UPDATE trace_facet_state SET backfilled_to = backfill_until WHERE id = 1");
  }

  void compareRandomFilters(int rounds, const std::string& when) {
    std::size_t matched = 0;
    for (int round = 0; round < rounds; ++round) {
      const auto q = randomQuery();
      const std::string what = when + " round " + std::to_string(round);
      {
        auto c = db_->acquire();
        ASSERT_TRUE(store::TraceFacetRepository().complete(*c)) << what;
      }
      std::int64_t total = 0;
      const auto ids = listIds(q, &total);
      const auto raw = rawTraceIds(q);
      EXPECT_EQ(ids, raw) << what;
      EXPECT_EQ(total, static_cast<std::int64_t>(raw.size())) << what;
      matched += ids.size();
      const auto fromFacets = answers(q);
      probeEvents(true);
      const auto fromProbes = answers(q);
      probeEvents(false);
      EXPECT_EQ(fromFacets, fromProbes) << what;
    }
    EXPECT_GT(matched, 0u) << when << ": no filter matched anything";
  }

  std::vector<std::string> facetRows() {
    std::vector<std::string> rows;
    for (const auto& r :
         db_->query("SELECT org_id, dimension, value, trace_id FROM trace_facets ORDER BY org_id, dimension, value, "
                    "trace_id"))
      rows.push_back(std::to_string(r.i64("org_id")) + "|" + r.str("dimension") + "|" + r.str("value") + "|" +
                     r.str("trace_id"));
    return rows;
  }

  // The facets every remaining event implies, computed here from the event rows.
  std::vector<std::string> expectedFacetRows() {
    std::set<std::string> rows;
    for (const auto& r :
         db_->query("SELECT id, org_id, trace_id, environment, model, provider, tool FROM events WHERE trace_id IS NOT "
                    "NULL")) {
      const auto prefix = std::to_string(r.i64("org_id")) + "|";
      for (const char* column : {"environment", "model", "provider", "tool"})
        if (!r.isNull(column))
          rows.insert(prefix + column + "|" + store::facetText(r.str(column)) + "|" + r.str("trace_id"));
      for (const auto& a : db_->query("SELECT key, value FROM event_attributes WHERE event_id = ?", {r.i64("id")}))
        rows.insert(prefix + store::facetText("tag:" + a.str("key")) + "|" + store::facetText(a.str("value")) + "|" +
                    r.str("trace_id"));
    }
    std::vector<std::string> out(rows.begin(), rows.end());
    std::sort(out.begin(), out.end());
    return out;
  }
  std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  }

  std::mt19937_64 rng_{20261128};
  std::int64_t org_ = 0, other_ = 0, app1_ = 0, app2_ = 0, otherApp_ = 0, channel1_ = 0, channel2_ = 0, channel3_ = 0,
               otherChannel_ = 0;
  store::TraceRepository traces_;
  store::SessionRepository sessions_;
};

TEST_P(TraceFacetsTest, FiltersAnswerWhatTheEventProbesAnswered) {
  publish(1500);
  EXPECT_EQ(sorted(facetRows()), expectedFacetRows());
  compareRandomFilters(40, "published");
}

TEST_P(TraceFacetsTest, DeletionsTakeTheirFacetsWithThem) {
  publish(1200);
  const auto rebuild = [&](store::Connection& c, const std::vector<std::string>& ids) {
    store::TraceRepository().rebuild(c, org_, ids);
  };
  // A deleted channel: its traces rebuilt from the events left.
  db_->transaction([&](store::Connection& c) {
    const auto ids = traces_.idsInChannels(c, org_, {channel3_});
    store::ChannelRepository().remove(c, org_, channel3_);
    rebuild(c, ids);
  });
  EXPECT_EQ(sorted(facetRows()), expectedFacetRows());
  compareRandomFilters(12, "channel deleted");
  // Retention: the oldest events by receipt, in two bounded batches.
  db_->transaction([&](store::Connection& c) {
    for (const std::int64_t limit : {150, 100000}) {
      auto d = store::RetentionRepository().deleteBefore(c, org_, kT0 + 250 * kMinute, limit);
      rebuild(c, d.traceIds);
    }
  });
  EXPECT_EQ(sorted(facetRows()), expectedFacetRows());
  compareRandomFilters(12, "retention");
  // A deleted app: its channels and events go, its traces rebuilt.
  db_->transaction([&](store::Connection& c) {
    const auto ids = traces_.idsInChannels(c, org_, {channel2_});
    store::AppRepository().remove(c, org_, app2_);
    rebuild(c, ids);
  });
  EXPECT_EQ(sorted(facetRows()), expectedFacetRows());
  compareRandomFilters(8, "app deleted");
  // The other organization's facets were never touched by this one's deletions; its own
  // go with it.
  EXPECT_GT(db_->query("SELECT COUNT(*) AS n FROM trace_facets WHERE org_id = ?", {other_}).front().i64("n"), 0);
  db_->exec("DELETE FROM organizations WHERE id = ?", {other_});
  EXPECT_EQ(db_->query("SELECT COUNT(*) AS n FROM trace_facets WHERE org_id = ?", {other_}).front().i64("n"), 0);
}

// A store upgraded with events in it: the lists probe events until the backfill is done;
// the backfill writes the facets chunk by chunk, resumes after a "restart", and ends with
// exactly the facets the writer would have written, events published meanwhile included.
TEST_P(TraceFacetsTest, BackfillWritesTheFacetsOfOlderEventsInChunksAndResumes) {
  publish(900);
  const auto before = sorted(facetRows());
  store::TraceQuery q;
  q.model = "m1";
  const auto answer = answers(q);
  db_->exec("DELETE FROM trace_facets");
  db_->exec("UPDATE trace_facet_state SET backfill_until = (SELECT MAX(id) FROM events), backfilled_to = 0");
  EXPECT_EQ(answers(q), answer) << "before the backfill: probes";
  {
    int chunks = 0;
    TraceFacetBackfill first(*db_, 100);
    EXPECT_FALSE(first.run([&] { return chunks++ < 3; }));  // stopped, as at shutdown
  }
  EXPECT_EQ(answers(q), answer) << "half-way: still probes";
  publish(200);  // written with their facets meanwhile
  const auto withNew = answers(q);
  TraceFacetBackfill resumed(*db_, 100);
  EXPECT_TRUE(resumed.run());
  EXPECT_TRUE(resumed.run());
  EXPECT_EQ(answers(q), withNew);
  EXPECT_EQ(sorted(facetRows()), expectedFacetRows());
  EXPECT_GE(facetRows().size(), before.size());
  compareRandomFilters(10, "backfilled");
}

// The writer skips the facets it knows it wrote for a trace's rollup row; a commit that
// rolls back after writing some must not leave them "known", and a rebuilt rollup (a new
// row) gets every facet of the next batch again.
class FailingConsumer : public events::CommitConsumer {
 public:
  bool fail = false;
  void inTransaction(store::Connection&, const events::CommittedEvents&) override {
    if (fail) throw std::runtime_error("refused by the test");
  }
  void committed(const events::CommittedEvents&) override {}
};

TEST_P(TraceFacetsTest, ARolledBackCommitOrARebuiltRollupLeavesNoFacetBehind) {
  FailingConsumer consumer;
  events::AfterCommit afterCommit;
  afterCommit.add(consumer);
  events::EventWriter writer(*db_, &afterCommit);
  const auto event = [&](const std::string& model, std::int64_t channel) {
    store::NewEvent e;
    e.orgId = org_;
    e.channelId = channel;
    e.appId = channel == channel2_ ? app2_ : app1_;
    e.identifier = "e";
    e.payloadJson = "{}";
    e.receivedAt = kT0;
    e.traceId = "rolled";
    e.telemetry.model = model;
    return std::vector<store::NewEvent>{e};
  };
  writer.submit(event("m1", channel1_)).get();
  consumer.fail = true;  // the commit of model m2 rolls back after its facets were written
  EXPECT_THROW(writer.submit(event("m2", channel1_)).get(), std::exception);
  consumer.fail = false;
  writer.submit(event("m2", channel1_)).get();
  store::TraceQuery q;
  q.model = "m2";
  EXPECT_EQ(listIds(q), (std::vector<std::string>{"rolled"}));
  // A deleted channel rebuilds the rollup as a new row with the facets of the events left
  // (m3's only event was in it); then a new event of m3 through the same writer.
  writer.submit(event("m3", channel2_)).get();
  q.model = "m3";
  EXPECT_EQ(listIds(q), (std::vector<std::string>{"rolled"}));
  db_->transaction([&](store::Connection& c) {
    const auto ids = traces_.idsInChannels(c, org_, {channel2_});
    store::ChannelRepository().remove(c, org_, channel2_);
    store::TraceRepository().rebuild(c, org_, ids);
  });
  EXPECT_EQ(listIds(q), std::vector<std::string>{});
  writer.submit(event("m3", channel1_)).get();
  EXPECT_EQ(listIds(q), (std::vector<std::string>{"rolled"}));
  EXPECT_EQ(sorted(facetRows()), expectedFacetRows());
}

AEV_STORE_BACKENDS(TraceFacetsTest);

}  // namespace
}  // namespace aev::traces

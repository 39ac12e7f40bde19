// alerts/: metric values over seeded events and the evaluator's transitions with an
// injected clock (fires once on ok → firing, stays quiet while firing, resolves, and
// notifies both), filters, undefined metrics, concurrent rounds — on SQLite and a real
// PostgreSQL.
#include "alerts/alert_evaluator.h"

#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <tuple>

#include "alerts/alert_rule.h"
#include "common/clock.h"
#include "unit/store_test.h"

namespace aev::alerts {
namespace {

TEST(AlertRule, OperatorsCompareAsNamed) {
  EXPECT_TRUE(crosses("gt", 2, 1));
  EXPECT_FALSE(crosses("gt", 1, 1));
  EXPECT_TRUE(crosses("gte", 1, 1));
  EXPECT_TRUE(crosses("lt", 0, 1));
  EXPECT_TRUE(crosses("lte", 1, 1));
  EXPECT_TRUE(crosses("eq", 0.1 + 0.2, 0.3));
  EXPECT_FALSE(crosses("eq", 0.31, 0.3));
  EXPECT_THROW(crosses("ne", 1, 1), std::logic_error);
}

constexpr std::int64_t kNow = 1'800'000'000'000'000;  // µs

class AlertEvaluatorTest : public aev::testing::StoreTest {
 protected:
  void SetUp() override {
    openStore();
    if (IsSkipped()) return;
    org_ = addOrganization("o");
    std::tie(app_, channel_) = addAppAndChannel(org_);
    evaluator_ = std::make_unique<AlertEvaluator>(*db_, "https://events.example.com");
  }

  // One event at `ts` with telemetry; model "m1" unless told.
  void event(std::int64_t ts, const std::string& status, double durationMs, double cost,
             const std::string& model = "m1") {
    db_->exec(
        "INSERT INTO events (org_id, app_id, channel_id, seq, identifier, payload, received_at, ts, source, status, "
        "duration_ms, cost_usd, model, input_tokens, output_tokens) "
        "VALUES (?, ?, ?, ?, 'e', '{}', ?, ?, 'api', ?, ?, ?, ?, 10, 5)",
        {org_, app_, channel_, ++seq_, ts, ts, status, durationMs, cost, model});
  }

  std::int64_t rule(const std::string& metric, const std::string& op, double threshold,
                    std::optional<std::string> model = std::nullopt) {
    store::AlertRuleRecord r;
    r.orgId = org_;
    r.name = metric + " " + op;
    r.metric = metric;
    r.op = op;
    r.threshold = threshold;
    r.windowMins = 5;
    r.model = std::move(model);
    r.createdAt = r.updatedAt = 1;
    auto c = db_->acquire();
    return repo_.insert(*c, r);
  }

  store::AlertRuleRecord stored(std::int64_t id) {
    auto c = db_->acquire();
    return *repo_.byId(*c, org_, id);
  }
  std::vector<store::AlertEventRecord> history(std::int64_t id) {
    auto c = db_->acquire();
    return repo_.events(*c, org_, id, 100);
  }
  std::optional<double> valueOf(std::int64_t id, std::int64_t now) {
    auto c = db_->acquire();
    return AlertMetrics().value(*c, stored(id), now);
  }

  std::unique_ptr<AlertEvaluator> evaluator_;
  store::AlertRepository repo_;
  std::int64_t org_ = 0, app_ = 0, channel_ = 0, seq_ = 0;
};

TEST_P(AlertEvaluatorTest, MetricsOverTheWindow) {
  const auto m = clock::kMinute;
  event(kNow - 10 * m, "error", 999, 9);  // outside the 5-minute window
  event(kNow - 4 * m, "ok", 100, 0.5);
  event(kNow - 3 * m, "error", 200, 0.25);
  event(kNow - 2 * m, "ok", 300, 0.25);
  event(kNow - 1 * m, "ok", 400, 0, "m2");
  EXPECT_EQ(valueOf(rule("event_count", "gt", 0), kNow), 4);
  EXPECT_EQ(valueOf(rule("error_count", "gt", 0), kNow), 1);
  EXPECT_DOUBLE_EQ(*valueOf(rule("error_rate", "gt", 0), kNow), 0.25);
  EXPECT_DOUBLE_EQ(*valueOf(rule("cost_usd", "gt", 0), kNow), 1.0);
  EXPECT_EQ(valueOf(rule("tokens", "gt", 0), kNow), 60);
  EXPECT_EQ(valueOf(rule("latency_p50_ms", "gt", 0), kNow), 200);
  EXPECT_EQ(valueOf(rule("latency_p95_ms", "gt", 0), kNow), 400);
  EXPECT_EQ(valueOf(rule("latency_p99_ms", "gt", 0), kNow), 400);
  EXPECT_EQ(valueOf(rule("event_count", "gt", 0, "m2"), kNow), 1);  // model filter
  // An empty window: counts are 0, a rate or latency is undefined.
  EXPECT_EQ(valueOf(rule("event_count", "lt", 1), kNow + 60 * m), 0);
  EXPECT_FALSE(valueOf(rule("error_rate", "gt", 0), kNow + 60 * m).has_value());
  EXPECT_FALSE(valueOf(rule("latency_p95_ms", "gt", 0), kNow + 60 * m).has_value());
}

TEST_P(AlertEvaluatorTest, FiresOnceThenResolvesAndNotifiesBoth) {
  const auto m = clock::kMinute;
  const auto id = rule("error_count", "gte", 2);
  event(kNow - 2 * m, "error", 10, 0);
  EXPECT_EQ(evaluator_->evaluate(kNow).fired, 0u);
  EXPECT_EQ(stored(id).state, "ok");

  event(kNow - 1 * m, "error", 10, 0);
  auto round = evaluator_->evaluate(kNow);
  EXPECT_EQ(round.fired, 1u);
  EXPECT_EQ(stored(id).state, "firing");
  EXPECT_EQ(stored(id).lastValue, 2);
  // Still above the threshold a minute later: no second notification.
  EXPECT_EQ(evaluator_->evaluate(kNow + m).fired, 0u);
  ASSERT_EQ(history(id).size(), 1u);

  // Six minutes on, the errors left the window: resolved, with when it fired.
  round = evaluator_->evaluate(kNow + 6 * m);
  EXPECT_EQ(round.resolved, 1u);
  EXPECT_EQ(stored(id).state, "ok");
  auto h = history(id);
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0].state, "resolved");
  EXPECT_EQ(h[0].firedAt, kNow);
  EXPECT_EQ(h[0].resolvedAt, kNow + 6 * m);
  EXPECT_EQ(h[1].state, "firing");
  EXPECT_EQ(h[1].value, 2);
  auto alert = Poco::JSON::Parser().parse(h[1].notification).extract<Poco::JSON::Object::Ptr>();
  EXPECT_EQ(alert->getValue<std::string>("alertRuleId"), std::to_string(id));
  EXPECT_EQ(alert->getValue<std::string>("state"), "firing");
  EXPECT_EQ(alert->getValue<std::string>("metric"), "error_count");
  EXPECT_EQ(alert->getValue<double>("value"), 2);
  EXPECT_EQ(alert->getValue<std::string>("firedAt"), clock::toRfc3339(kNow));
  EXPECT_TRUE(alert->isNull("resolvedAt"));
  EXPECT_EQ(alert->getValue<std::string>("url"), "https://events.example.com/v2/alerts/" + std::to_string(id));

  // And it can fire again later.
  event(kNow + 10 * m, "error", 10, 0);
  event(kNow + 10 * m + 1, "error", 10, 0);
  EXPECT_EQ(evaluator_->evaluate(kNow + 11 * m).fired, 1u);
  EXPECT_EQ(history(id).size(), 3u);
}

TEST_P(AlertEvaluatorTest, DisabledAndUndefinedRulesNeverFire) {
  const auto rate = rule("error_rate", "gte", 0);  // no events: undefined, not 0
  const auto off = rule("event_count", "gte", 0);
  db_->exec("UPDATE alert_rules SET enabled = 0 WHERE id = ?", {off});
  auto round = evaluator_->evaluate(kNow);
  EXPECT_EQ(round.evaluated, 1u);
  EXPECT_EQ(round.fired, 0u);
  EXPECT_EQ(stored(rate).state, "ok");
  EXPECT_FALSE(stored(rate).lastValue.has_value());
  EXPECT_EQ(stored(rate).lastEvaluatedAt, kNow);
}

TEST_P(AlertEvaluatorTest, ConcurrentRoundsFireOnce) {
  const auto id = rule("event_count", "gte", 1);
  event(kNow - clock::kMinute, "ok", 1, 0);
  AlertEvaluator other(*db_, "");
  std::thread a([&] { evaluator_->evaluate(kNow); });
  std::thread b([&] { other.evaluate(kNow); });
  a.join();
  b.join();
  EXPECT_EQ(history(id).size(), 1u);
  EXPECT_EQ(stored(id).state, "firing");
}

AEV_STORE_BACKENDS(AlertEvaluatorTest);

}  // namespace
}  // namespace aev::alerts

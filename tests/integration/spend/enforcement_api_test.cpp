// Spend policies on publish (docs/features.md#spend-policies): the `spend` object of publish answers, the
// 429 of a hard block on POST /event, per item of POST /events/batch and as rejected
// spans over OTLP, soft block flags, scopes, POST /spend-policies/check, exact sums
// under concurrent publishing, and the spend recounted after a restart.
#include <atomic>
#include <cmath>
#include <thread>

#include "integration/spend/spend_support.h"
#include "support/batch_results.h"

namespace aev::testing {
namespace {

class SpendEnforcementApi : public SpendTest {};

Poco::JSON::Object::Ptr spendOf(const Poco::JSON::Object::Ptr& event) { return event->getObject("spend"); }

TEST_F(SpendEnforcementApi, PublishAnswersCarrySpendAndAHardBlockRefuses) {
  auto p = newPublisher("ladder");
  auto body = policyBody(10, arr({rung(50, "alert"), rung(80, "fallback", "", "gpt-4o-mini"), rung(100, "block")}));
  body->set("model", "gpt-4o");
  auto policy = createPolicy(p.tenant, body);
  const auto policyId = strField(policy, "policyId");

  auto publishCost = [&](double cost, const std::string& model = "gpt-4o") {
    return p.keyed.post("/event", costEvent(p.channelId, cost, model));
  };
  auto first = publishCost(4);
  ASSERT_STATUS(first, 201);
  auto spend = spendOf(first.object());
  ASSERT_TRUE(spend) << first.body;
  EXPECT_EQ(strField(spend, "policyId"), policyId);
  EXPECT_DOUBLE_EQ(spend->getValue<double>("percent"), 40);
  EXPECT_TRUE(spend->isNull("action"));
  EXPECT_TRUE(spend->isNull("fallbackModel"));

  auto alert = publishCost(2);
  EXPECT_EQ(strField(spendOf(alert.object()), "action"), "alert");
  auto fallback = publishCost(2.5);
  EXPECT_EQ(strField(spendOf(fallback.object()), "action"), "fallback");
  EXPECT_EQ(strField(spendOf(fallback.object()), "fallbackModel"), "gpt-4o-mini");
  // Another model is out of scope: no spend object, no effect.
  auto unrelated = publishCost(100, "claude");
  ASSERT_STATUS(unrelated, 201);
  EXPECT_FALSE(unrelated.object()->has("spend"));

  // The event whose cost crosses the block rung is accepted; the next one is not.
  auto crossing = publishCost(2);
  ASSERT_STATUS(crossing, 201);
  EXPECT_EQ(strField(spendOf(crossing.object()), "action"), "block");
  EXPECT_DOUBLE_EQ(spendOf(crossing.object())->getValue<double>("percent"), 105);
  auto refused = publishCost(0.01);
  ASSERT_TRUE(IsProblem(refused, 429)) << refused.describe();
  EXPECT_EQ(strField(refused.object(), "type"), "https://agent-events.dev/problems/spend-blocked");
  EXPECT_NE(strField(refused.object(), "detail").find(policyId), std::string::npos);
  EXPECT_GT(std::stoll(refused.header("Retry-After")), 0);
  EXPECT_DOUBLE_EQ(currentSpend(p.tenant, policyId), 10.5);
  EXPECT_EQ(listTotal(p.keyed, p.channelId), 5) << "the refused event is not stored";

  // Disabling the policy lifts the block at once.
  ASSERT_STATUS(p.tenant.http.patch("/spend-policies/" + policyId, obj({{"enabled", false}})), 200);
  ASSERT_STATUS(publishCost(1), 201);
}

TEST_F(SpendEnforcementApi, BatchRefusesOnlyTheItemsPastTheBlock) {
  auto p = newPublisher("batch");
  auto policy = createPolicy(p.tenant, policyBody(10, arr({rung(100, "block", "hard")})));
  auto r = p.keyed.post("/events/batch", obj({{"events", arr({costEvent(p.channelId, 6), costEvent(p.channelId, 6),
                                                              costEvent(p.channelId, 1)})}}));
  ASSERT_STATUS(r, 200);
  auto results = objects(r.object()->getArray("results"));
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(batchStatus(results[0]), 201);
  EXPECT_EQ(batchStatus(results[1]), 201);  // crosses 100%: accepted
  EXPECT_EQ(batchStatus(results[2]), 429);
  EXPECT_EQ(strField(results[2], "type"), "https://agent-events.dev/problems/spend-blocked");
  EXPECT_TRUE(results[0]->has("spend"));
  EXPECT_DOUBLE_EQ(currentSpend(p.tenant, strField(policy, "policyId")), 12);
}

TEST_F(SpendEnforcementApi, OtlpSpansPastTheBlockAreRejected) {
  auto p = newPublisher("otlp");
  auto body = policyBody(5, arr({rung(100, "block")}));
  body->set("model", "gpt-4o");
  auto policy = createPolicy(p.tenant, body);
  auto send = [&](double cost) {
    return p.keyed.post("/v1/traces", otlpSpan("span-" + unique(), cost, "gpt-4o"),
                        {{"Content-Type", "application/json"}, {"x-channel-id", std::to_string(p.channelId)}});
  };
  auto accepted = send(6);
  ASSERT_STATUS(accepted, 200);
  EXPECT_EQ(accepted.body.find("rejectedSpans"), std::string::npos) << accepted.body;
  auto rejected = send(1);
  ASSERT_STATUS(rejected, 200);
  EXPECT_NE(rejected.body.find("\"rejectedSpans\":\"1\""), std::string::npos) << rejected.body;
  EXPECT_NE(rejected.body.find("Spend policy"), std::string::npos) << rejected.body;
  EXPECT_DOUBLE_EQ(currentSpend(p.tenant, strField(policy, "policyId")), 6);
}

TEST_F(SpendEnforcementApi, SoftBlockAcceptsAndFlagsTheEvent) {
  auto p = newPublisher("soft");
  createPolicy(p.tenant, policyBody(1, arr({rung(50, "block", "soft")})));
  ASSERT_STATUS(p.keyed.post("/event", costEvent(p.channelId, 0.6)), 201);
  auto flagged = p.keyed.post("/event", costEvent(p.channelId, 0.1));
  ASSERT_STATUS(flagged, 201);
  auto flag = flagged.object()->getObject("metadata")->getObject("spend");
  ASSERT_TRUE(flag) << flagged.body;
  EXPECT_EQ(strField(flag, "blockMode"), "soft");
  EXPECT_EQ(strField(spendOf(flagged.object()), "blockMode"), "soft");
}

TEST_F(SpendEnforcementApi, ScopesByKeyUserEnvironmentAndTag) {
  auto p = newPublisher("scope");
  auto otherKey = createKey(p.tenant, {"publish"});
  auto env = p.tenant.http.post("/environments", obj({{"name", "Prod"}, {"slug", "prod"}}));
  ASSERT_STATUS(env, 201);
  auto body = policyBody(100, arr({rung(100, "alert")}));
  body->set("apiKeyId", p.key.id);
  body->set("userId", "alice");
  body->set("environmentId", strField(env.object(), "environmentId"));
  body->set("tagKey", "team");
  body->set("tagValue", "search");
  auto policy = createPolicy(p.tenant, body);
  auto full = obj({{"user", "alice"}, {"environment", "prod"}, {"tags", obj({{"team", "search"}})}});
  ASSERT_STATUS(p.keyed.post("/event", costEvent(p.channelId, 1, "m", full)), 201);
  // Each one field off: not counted.
  ASSERT_STATUS(anon().withApiKey(otherKey.key).post("/event", costEvent(p.channelId, 2, "m", full)), 201);
  ASSERT_STATUS(p.keyed.post("/event", costEvent(p.channelId, 4, "m",
                                                 obj({{"user", "bob"}, {"environment", "prod"},
                                                      {"tags", obj({{"team", "search"}})}}))),
                201);
  ASSERT_STATUS(p.keyed.post("/event", costEvent(p.channelId, 8, "m",
                                                 obj({{"user", "alice"}, {"environment", "staging"},
                                                      {"tags", obj({{"team", "search"}})}}))),
                201);
  ASSERT_STATUS(p.keyed.post("/event", costEvent(p.channelId, 16, "m",
                                                 obj({{"user", "alice"}, {"environment", "prod"},
                                                      {"tags", obj({{"team", "ads"}})}}))),
                201);
  EXPECT_DOUBLE_EQ(currentSpend(p.tenant, strField(policy, "policyId")), 1);
}

TEST_F(SpendEnforcementApi, CheckAnswersBeforeAModelCall) {
  auto p = newPublisher("check");
  auto otherKey = createKey(p.tenant, {"publish"});
  auto body = policyBody(1, arr({rung(50, "fallback", "", "small"), rung(100, "block")}));
  body->set("apiKeyId", p.key.id);
  auto policy = createPolicy(p.tenant, body);
  auto check = [](const HttpClient& http, Poco::JSON::Object::Ptr query) {
    auto r = http.post("/spend-policies/check", query);
    if (r.status != 200) throw std::runtime_error("check failed: " + r.describe());
    return r.object();
  };
  auto before = check(p.keyed, obj({}));
  EXPECT_EQ(strField(before, "$schema"), schemaBase() + "SpendCheck.json");
  EXPECT_TRUE(before->getValue<bool>("allowed"));
  EXPECT_TRUE(before->isNull("action"));
  EXPECT_EQ(strField(before, "policyId"), strField(policy, "policyId"));

  ASSERT_STATUS(p.keyed.post("/event", costEvent(p.channelId, 0.6)), 201);
  auto fallback = check(p.keyed, obj({{"model", "gpt-4o"}}));
  EXPECT_TRUE(fallback->getValue<bool>("allowed"));
  EXPECT_EQ(strField(fallback, "action"), "fallback");
  EXPECT_EQ(strField(fallback, "fallbackModel"), "small");

  ASSERT_STATUS(p.keyed.post("/event", costEvent(p.channelId, 0.6)), 201);
  auto blocked = check(p.keyed, obj({}));
  EXPECT_FALSE(blocked->getValue<bool>("allowed"));
  EXPECT_EQ(strField(blocked, "action"), "block");
  EXPECT_GT(intField(blocked, "retryAfterSeconds"), 0);
  // A key asks for itself: the other key is not in the policy's scope, whatever it sends.
  auto other = check(anon().withApiKey(otherKey.key), obj({{"apiKeyId", p.key.id}}));
  EXPECT_TRUE(other->getValue<bool>("allowed"));
  EXPECT_TRUE(other->isNull("policyId"));
  // A user names the key.
  EXPECT_FALSE(check(p.tenant.http, obj({{"apiKeyId", std::to_string(p.key.id)}}))->getValue<bool>("allowed"));
  EXPECT_TRUE(check(p.tenant.http, obj({}))->getValue<bool>("allowed"));
  // Bad input is a 422; a key without publish is a 403.
  auto bad = p.tenant.http.post("/spend-policies/check", obj({{"environmentId", "999999"}, {"tagKey", "t"}, {"x", 1}}));
  ASSERT_TRUE(IsProblem(bad, 422));
  auto readOnly = createKey(p.tenant, {"read"});
  EXPECT_TRUE(IsProblem(anon().withApiKey(readOnly.key).post("/spend-policies/check", obj({})), 403));
}

TEST_F(SpendEnforcementApi, ConcurrentPublishingSumsExactly) {
  auto p = newPublisher("concurrent");
  auto policy = createPolicy(p.tenant, policyBody(1e6, arr({rung(100, "alert")})));
  constexpr int kThreads = 6, kPerThread = 20;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        auto cost = 0.01 * (1 + (t * kPerThread + i) % 13);  // 1 to 13 cents
        auto r = i % 2 ? p.keyed.post("/event", costEvent(p.channelId, cost))
                       : p.keyed.post("/events/batch", obj({{"events", arr({costEvent(p.channelId, cost)})}}));
        if (r.status != 201 && r.status != 200) ++failures;
      }
    });
  for (auto& th : threads) th.join();
  ASSERT_EQ(failures.load(), 0);
  std::int64_t cents = 0;
  for (int k = 0; k < kThreads * kPerThread; ++k) cents += 1 + k % 13;
  const double spent = currentSpend(p.tenant, strField(policy, "policyId"));
  EXPECT_EQ(std::llround(spent * 100), cents);
  EXPECT_NEAR(spent, static_cast<double>(cents) / 100, 1e-9);
}

TEST_F(SpendEnforcementApi, APolicyCreatedLaterCountsTheWindowsEarlierSpend) {
  auto p = newPublisher("later");
  ASSERT_STATUS(p.keyed.post("/event", costEvent(p.channelId, 0.25)), 201);
  ASSERT_STATUS(p.keyed.post("/event", costEvent(p.channelId, 0.5, "other")), 201);
  auto policy = createPolicy(p.tenant, policyBody(10, arr({rung(100, "alert")}), "day"));
  EXPECT_DOUBLE_EQ(policy->getValue<double>("currentSpendUsd"), 0.75);
  auto narrowed = p.tenant.http.patch("/spend-policies/" + strField(policy, "policyId"), obj({{"model", "other"}}));
  ASSERT_STATUS(narrowed, 200);
  EXPECT_DOUBLE_EQ(narrowed.object()->getValue<double>("currentSpendUsd"), 0.5);
}

// Its own daemon: it restarts it.
class SpendRestartApi : public SpendTest {};

TEST_F(SpendRestartApi, SpendAndBlocksSurviveARestart) {
  auto p = newPublisher("restart");
  auto policy = createPolicy(p.tenant, policyBody(1, arr({rung(100, "block")})));
  const auto policyId = strField(policy, "policyId");
  for (double cost : {0.3, 0.45, 0.27}) ASSERT_STATUS(p.keyed.post("/event", costEvent(p.channelId, cost)), 201);
  ASSERT_TRUE(IsProblem(p.keyed.post("/event", costEvent(p.channelId, 0.01)), 429));
  const auto before = currentSpend(p.tenant, policyId);
  EXPECT_NEAR(before, 1.02, 1e-9);
  daemon().restart();
  EXPECT_DOUBLE_EQ(currentSpend(p.tenant, policyId), before);
  EXPECT_TRUE(IsProblem(p.keyed.post("/event", costEvent(p.channelId, 0.01)), 429));
  EXPECT_NE(daemon().log().find("recounted from the events"), std::string::npos);
}

}  // namespace
}  // namespace aev::testing

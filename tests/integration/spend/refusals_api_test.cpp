// GET /spend-policies/{id}/refusals (docs/api.md#spend-policies): every publish a hard block
// refused is counted, the newest 20 are listed newest first with who published what; a
// policy that refused nothing answers 0 and []; another organization's policy is a 404.
#include "integration/spend/spend_support.h"
#include "support/batch_results.h"

namespace aev::testing {
namespace {

class SpendRefusalsApi : public SpendTest {};

Poco::JSON::Object::Ptr refusalsOf(const Tenant& t, const std::string& policyId) {
  auto r = t.http.get("/spend-policies/" + policyId + "/refusals");
  EXPECT_STATUS(r, 200);
  return r.object();
}

TEST_F(SpendRefusalsApi, CountsEveryRefusalAndListsTheNewestTwenty) {
  auto p = newPublisher("refused");
  auto policy = createPolicy(p.tenant, policyBody(1, arr({rung(100, "block", "hard")})));
  const auto policyId = strField(policy, "policyId");
  auto none = refusalsOf(p.tenant, policyId);
  EXPECT_EQ(none->getValue<std::int64_t>("count"), 0);
  EXPECT_EQ(none->getArray("data")->size(), 0u);
  EXPECT_NE(strField(none, "$schema").find("SpendRefusalList"), std::string::npos);

  ASSERT_STATUS(p.keyed.post("/event", costEvent(p.channelId, 1.5)), 201);  // crosses the rung: accepted
  // 24 refusals: one alone, then 23 in a batch with increasing costs (the newest costs most).
  ASSERT_TRUE(IsProblem(p.keyed.post("/event", costEvent(p.channelId, 0.5)), 429));
  Poco::JSON::Array::Ptr events = new Poco::JSON::Array;
  for (int i = 1; i <= 23; ++i) {
    auto event = costEvent(p.channelId, i / 100.0);
    event->set("agentId", "planner");
    events->add(event);
  }
  auto batch = p.keyed.post("/events/batch", obj({{"events", events}}));
  ASSERT_STATUS(batch, 200);
  for (const auto& result : objects(batch.object()->getArray("results"))) EXPECT_EQ(batchStatus(result), 429);

  auto refusals = refusalsOf(p.tenant, policyId);
  EXPECT_EQ(refusals->getValue<std::int64_t>("count"), 24);
  auto rows = objects(refusals->getArray("data"));
  ASSERT_EQ(rows.size(), 20u);
  EXPECT_DOUBLE_EQ(rows.front()->getValue<double>("amountUsd"), 0.23);
  EXPECT_DOUBLE_EQ(rows.back()->getValue<double>("amountUsd"), 0.04);
  for (const auto& row : rows) {
    EXPECT_EQ(strField(row, "apiKeyId"), std::to_string(p.key.id));
    EXPECT_EQ(strField(row, "channelId"), std::to_string(p.channelId));
    EXPECT_EQ(strField(row, "agentId"), "planner");
    EXPECT_NE(strField(row, "reason").find("hard block"), std::string::npos) << strField(row, "reason");
    EXPECT_FALSE(strField(row, "occurredAt").empty());
  }
  // The accepted publish is no refusal, and the refused ones were not stored.
  EXPECT_EQ(listTotal(p.keyed, p.channelId), 1);
}

TEST_F(SpendRefusalsApi, AnotherOrganizationsPolicyIsNotFound) {
  auto p = newPublisher("owner");
  auto intruder = newTenant("intruder");
  auto policy = createPolicy(p.tenant, policyBody(1, arr({rung(100, "block", "hard")})));
  const auto path = "/spend-policies/" + strField(policy, "policyId") + "/refusals";
  EXPECT_TRUE(IsProblem(intruder.http.get(path), 404));
  EXPECT_TRUE(IsProblem(p.tenant.http.get("/spend-policies/999999999/refusals"), 404));
  EXPECT_TRUE(IsProblem(p.tenant.http.get("/spend-policies/abc/refusals"), 404));
  EXPECT_TRUE(IsProblem(anon().get(path), 401));
}

}  // namespace
}  // namespace aev::testing

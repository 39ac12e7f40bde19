// GET /moderation/violations, GET /moderation/efficacy (since/until
// defaults, per detector and per rule) and POST /moderation/evaluate (a dry run: nothing published or recorded).
#include <chrono>
#include <map>

#include "integration/moderation/moderation_support.h"

namespace aev::testing {
namespace {

class ReportsApi : public ModerationTest {};

TEST_F(ReportsApi, EfficacyCountsViolationsPerDetectorActionAndTarget) {
  auto p = newPublisher("efficacy");
  createRule(p.tenant, "emails", "redact", "pii.email", "", "request");
  createRule(p.tenant, "refunds", "flag", "keyword", "refund", "response");
  createRule(p.tenant, "drop", "block", "regex", "drop\\s+table", "request");
  for (int i = 0; i < 3; ++i) publishOn(p, Path::Single, Kind::Request, "mail a" + std::to_string(i) + "@example.com");
  publishOn(p, Path::Batch, Kind::Response, "refund please");
  publishOn(p, Path::Otlp, Kind::Request, "DROP  TABLE users");  // regexes are case-sensitive: not blocked
  publishOn(p, Path::Otlp, Kind::Request, "drop table users");
  publishOn(p, Path::Single, Kind::Request, "nothing to see");

  auto r = p.keyed.get("/moderation/efficacy");
  ASSERT_STATUS(r, 200);
  auto body = r.object();
  EXPECT_EQ(strField(body, "$schema"), schemaBase() + "ModerationEfficacy.json");
  // Default window: the 24 hours before now.
  EXPECT_EQ(fromRfc3339(strField(body, "until")) - fromRfc3339(strField(body, "since")), 24LL * 3600 * kSec);
  auto rows = objects(body->getArray("rows"));
  ASSERT_EQ(rows.size(), 3u) << r.body;
  EXPECT_EQ(strField(rows[0], "detector"), "pii.email");  // most violations first
  EXPECT_EQ(strField(rows[0], "action"), "redact");
  EXPECT_EQ(strField(rows[0], "target"), "request");
  EXPECT_EQ(intField(rows[0], "violationCount"), 3);
  for (const auto& row : rows) {
    const double avg = row->getValue<double>("avgLatencyMs");
    const double max = row->getValue<double>("maxLatencyMs");
    EXPECT_GE(avg, 0.0);
    EXPECT_GE(max, avg);
    EXPECT_LT(max, 1000.0);
  }
  std::map<std::string, std::int64_t> counts;
  for (const auto& row : rows)
    counts[strField(row, "detector") + "/" + strField(row, "target")] = intField(row, "violationCount");
  EXPECT_EQ(counts["keyword/response"], 1);
  EXPECT_EQ(counts["regex/request"], 1);

  // Windows: a window before the events counts nothing; since must precede until.
  auto old = p.keyed.get("/moderation/efficacy?since=2020-01-01T00:00:00Z&until=2020-01-02T00:00:00Z");
  ASSERT_STATUS(old, 200);
  EXPECT_TRUE(objects(old.object()->getArray("rows")).empty());
  auto future = p.keyed.get("/moderation/efficacy?until=2099-01-01T00:00:00Z");
  EXPECT_TRUE(objects(future.object()->getArray("rows")).empty());  // since = until − 24 h
  EXPECT_TRUE(
      IsProblem(p.keyed.get("/moderation/efficacy?since=2030-01-01T00:00:00Z&until=2020-01-01T00:00:00Z"), 422));
  EXPECT_TRUE(IsProblem(p.keyed.get("/moderation/efficacy?since=yesterday"), 422));
}

// `rules` of GET /moderation/efficacy: every rule's count in one answer (the console's
// rule table asks once instead of once per rule).
TEST_F(ReportsApi, EfficacyCountsEachRulesViolationsInOneAnswer) {
  auto p = newPublisher("perrule");
  auto other = newPublisher("perruleother");
  auto emails = createRule(p.tenant, "emails", "redact", "pii.email", "", "request");
  auto refunds = createRule(p.tenant, "refunds", "flag", "keyword", "refund", "request");
  createRule(p.tenant, "quiet", "block", "keyword", "never-said", "request");
  createRule(other.tenant, "emails", "redact", "pii.email", "", "request");
  const auto started =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  for (int i = 0; i < 5; ++i)
    publishOn(other, Path::Single, Kind::Request, "their" + std::to_string(i) + "@example.com");
  for (int i = 0; i < 3; ++i) publishOn(p, Path::Single, Kind::Request, "mail a" + std::to_string(i) + "@example.com");
  publishOn(p, Path::Batch, Kind::Request, "refund to b@example.com");

  const auto rulesOf = [](const HttpResult& r) {
    std::map<std::string, Poco::JSON::Object::Ptr> out;
    for (const auto& rule : objects(r.object()->getArray("rules"))) out[strField(rule, "ruleId")] = rule;
    return out;
  };
  auto r = p.keyed.get("/moderation/efficacy");
  ASSERT_STATUS(r, 200);
  auto list = objects(r.object()->getArray("rules"));
  ASSERT_EQ(list.size(), 2u) << r.body;                                // "quiet" matched nothing: absent
  EXPECT_EQ(strField(list[0], "ruleId"), strField(emails, "ruleId"));  // most violations first
  EXPECT_EQ(strField(list[0], "ruleName"), "emails");
  EXPECT_EQ(strField(list[0], "action"), "redact");
  EXPECT_EQ(intField(list[0], "violationCount"), 4);
  EXPECT_FALSE(list[0]->getValue<bool>("ruleDeleted"));
  EXPECT_EQ(strField(list[1], "ruleName"), "refunds");
  EXPECT_EQ(intField(list[1], "violationCount"), 1);
  // Each count is the violations list's total for that rule; the last violation is the newest listed.
  for (const auto& rule : list) {
    auto listed = violations(p.keyed, "&ruleId=" + strField(rule, "ruleId"));
    EXPECT_EQ(static_cast<std::int64_t>(listed.size()), intField(rule, "violationCount"));
    EXPECT_EQ(strField(rule, "lastViolationAt"), strField(listed.front(), "createdAt"));
    EXPECT_GE(fromRfc3339(strField(rule, "lastViolationAt")), started);
  }

  // A renamed rule is counted under its new name and action; a deleted one keeps its
  // count under the name its violations recorded.
  ASSERT_STATUS(p.tenant.http.patch("/moderation/rules/" + strField(refunds, "ruleId"),
                                    obj({{"name", "refund requests"}, {"action", "block"}})),
                200);
  ASSERT_STATUS(p.tenant.http.del("/moderation/rules/" + strField(emails, "ruleId")), 204);
  auto after = rulesOf(p.keyed.get("/moderation/efficacy"));
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(strField(after[strField(refunds, "ruleId")], "ruleName"), "refund requests");
  EXPECT_EQ(strField(after[strField(refunds, "ruleId")], "action"), "block");
  EXPECT_FALSE(after[strField(refunds, "ruleId")]->getValue<bool>("ruleDeleted"));
  EXPECT_EQ(strField(after[strField(emails, "ruleId")], "ruleName"), "emails");
  EXPECT_EQ(intField(after[strField(emails, "ruleId")], "violationCount"), 4);
  EXPECT_TRUE(after[strField(emails, "ruleId")]->getValue<bool>("ruleDeleted"));

  // Another organization's violations are never counted, nor ours in theirs.
  auto theirs = objects(other.keyed.get("/moderation/efficacy").object()->getArray("rules"));
  ASSERT_EQ(theirs.size(), 1u);
  EXPECT_EQ(intField(theirs[0], "violationCount"), 5);
  EXPECT_EQ(rulesOf(p.keyed.get("/moderation/efficacy")).count(strField(theirs[0], "ruleId")), 0u);
  // The window applies: before the events, nothing.
  auto old = p.keyed.get("/moderation/efficacy?since=2020-01-01T00:00:00Z&until=2020-01-02T00:00:00Z");
  ASSERT_STATUS(old, 200);
  EXPECT_TRUE(objects(old.object()->getArray("rules")).empty());
}

TEST_F(ReportsApi, ViolationsAreListedNewestFirstAndFiltered) {
  auto p = newPublisher("violations");
  auto emails = createRule(p.tenant, "emails", "flag", "pii.email", "", "request");
  createRule(p.tenant, "shell", "block", "tool_name", "shell", "tool_call");
  auto first = publishOn(p, Path::Single, Kind::Request, "x@example.org and y@example.org");
  publishOn(p, Path::Single, Kind::ToolCall, "ls");
  auto third = publishOn(p, Path::Batch, Kind::Request, "z@example.org");

  auto r = p.keyed.get("/moderation/violations");
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(strField(r.object(), "$schema"), schemaBase() + "ModerationViolationList.json");
  auto meta = r.object()->getObject("meta");
  EXPECT_EQ(intField(meta, "total"), 3);
  EXPECT_EQ(intField(meta, "page"), 1);
  auto list = objects(listOf(r));
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(strField(list[0], "eventId"), std::to_string(intField(third.event, "id")));
  EXPECT_EQ(strField(list[1], "action"), "block");
  EXPECT_EQ(strField(list[1], "detector"), "tool_name");
  EXPECT_TRUE(list[1]->isNull("eventId"));
  EXPECT_EQ(strField(list[2], "ruleId"), strField(emails, "ruleId"));
  EXPECT_EQ(strField(list[2], "ruleName"), "emails");
  EXPECT_EQ(intField(list[2], "matchCount"), 2);
  EXPECT_EQ(strField(list[2], "eventType"), "agent.message");
  EXPECT_EQ(strField(list[2], "channelId"), std::to_string(p.channelId));
  EXPECT_EQ(strField(list[2], "eventId"), std::to_string(intField(first.event, "id")));
  EXPECT_EQ(list[2]->getArray("fields")->getElement<std::string>(0), "payload.content");
  EXPECT_EQ(r.body.find("example.org"), std::string::npos) << "violations never hold the matched text";

  EXPECT_EQ(violations(p.keyed, "&action=block").size(), 1u);
  EXPECT_EQ(violations(p.keyed, "&target=request").size(), 2u);
  EXPECT_EQ(violations(p.keyed, "&ruleId=" + strField(emails, "ruleId")).size(), 2u);
  auto page2 = p.keyed.get("/moderation/violations?limit=2&page=2");
  EXPECT_EQ(objects(listOf(page2)).size(), 1u);
  EXPECT_EQ(intField(page2.object()->getObject("meta"), "totalPages"), 2);
  EXPECT_TRUE(violations(p.keyed, "&since=2020-01-01T00:00:00Z&until=2020-01-02T00:00:00Z").empty());
  for (const char* bad : {"?limit=0", "?limit=101", "?page=0", "?action=ban", "?target=all", "?since=x", "?ruleId=abc"})
    EXPECT_TRUE(IsProblem(p.keyed.get(std::string("/moderation/violations") + bad), 422)) << bad;
  // Deleting the rule keeps its violations (and their rule name) in the reports.
  ASSERT_STATUS(p.tenant.http.del("/moderation/rules/" + strField(emails, "ruleId")), 204);
  EXPECT_EQ(violations(p.keyed, "&ruleId=" + strField(emails, "ruleId")).size(), 2u);
}

TEST_F(ReportsApi, EvaluateAnswersTheVerdictWithoutPublishingOrRecording) {
  auto p = newPublisher("evaluate");
  createRule(p.tenant, "emails", "redact", "pii.email", "", "request");
  createRule(p.tenant, "refunds", "flag", "keyword", "refund", "request");
  createRule(p.tenant, "forbidden", "block", "keyword", "forbidden", "request");
  auto sample = eventOf(Kind::Request, p.channelId, "refund to ada@example.com");
  auto r = p.keyed.post("/moderation/evaluate", sample);
  ASSERT_STATUS(r, 200);
  auto v = r.object();
  EXPECT_EQ(strField(v, "$schema"), schemaBase() + "ModerationVerdict.json");
  EXPECT_EQ(strField(v, "decision"), "accept");
  EXPECT_FALSE(v->getValue<bool>("blocked"));
  EXPECT_TRUE(v->getValue<bool>("redacted"));
  EXPECT_TRUE(v->getValue<bool>("flagged"));
  EXPECT_TRUE(v->isNull("blockedBy"));
  EXPECT_EQ(v->getArray("targets")->getElement<std::string>(0), "request");
  auto matches = objects(v->getArray("matches"));
  ASSERT_EQ(matches.size(), 2u);
  EXPECT_EQ(strField(matches[0], "ruleName"), "emails");
  EXPECT_EQ(intField(matches[0], "matchCount"), 1);
  EXPECT_GE(matches[0]->getValue<double>("latencyMs"), 0.0);
  EXPECT_EQ(strField(v->getObject("payload"), "content"), "refund to [REDACTED:pii.email]");
  EXPECT_EQ(v->getObject("metadata")->getObject("moderation")->getArray("flags")->size(), 1u);

  auto blocked = p.keyed.post("/moderation/evaluate", eventOf(Kind::Request, p.channelId, "forbidden refund"));
  ASSERT_STATUS(blocked, 200);
  EXPECT_EQ(strField(blocked.object(), "decision"), "block");
  EXPECT_EQ(strField(blocked.object()->getObject("blockedBy"), "ruleName"), "forbidden");

  // A response-side sample meets none of these request rules.
  auto other = p.keyed.post("/moderation/evaluate", eventOf(Kind::Response, p.channelId, "forbidden"));
  EXPECT_EQ(strField(other.object(), "decision"), "accept");
  EXPECT_EQ(other.object()->getArray("targets")->getElement<std::string>(0), "response");

  EXPECT_TRUE(listed(p).empty());
  EXPECT_TRUE(violations(p.keyed).empty());
  EXPECT_TRUE(IsProblem(p.keyed.post("/moderation/evaluate", obj({{"eventType", "agent.message"}})), 422));
  EXPECT_TRUE(IsProblem(p.keyed.post("/moderation/evaluate", obj({{"payload", "text"}, {"eventType", "nope"}})), 422));
}

}  // namespace
}  // namespace aev::testing

// Moderation on publish (docs/features.md#moderation): each action (allow, redact, block, flag) on each
// target (request, response, tool_call) through each publish path (POST /event, POST
// /events/batch, OTLP/JSON POST /v1/traces), checked in the publish answer, the channel's
// list, the violations, and (once per path) a live stream.
#include <chrono>
#include <tuple>

#include "integration/moderation/moderation_support.h"

namespace aev::testing {
namespace {

class EnforcementApi : public ModerationTest, public ::testing::WithParamInterface<std::tuple<Path, Kind>> {
 protected:
  // The four rules of the test, all on one target, in this (evaluation) order.
  static void addRules(const Tenant& t, const std::string& target) {
    createRule(t, "trusted", "allow", "keyword", "trusted-source", target);
    createRule(t, "forbidden", "block", "keyword", "forbidden-word", target);
    createRule(t, "secrets", "redact", "regex", "secret-[0-9]+", target);
    createRule(t, "refunds", "flag", "keyword", "refund", target);
  }
};

TEST_P(EnforcementApi, EachActionOnThisTargetAndPath) {
  const auto [path, kind] = GetParam();
  auto p = newPublisher("enf");
  addRules(p.tenant, nameOf(kind));

  // block: refused with 422 naming the rule (OTLP: a rejected span), nothing stored.
  auto blocked = publishOn(p, path, kind, "a forbidden-word here");
  EXPECT_EQ(blocked.status, 422) << blocked.body;
  if (path == Path::Otlp) {
    EXPECT_NE(blocked.body.find("\"rejectedSpans\":\"1\""), std::string::npos) << blocked.body;
    EXPECT_NE(blocked.body.find("forbidden"), std::string::npos) << "the reason names the rule: " << blocked.body;
  } else {
    ASSERT_TRUE(blocked.problem);
    EXPECT_EQ(strField(blocked.problem, "type"), "https://agent-events.dev/problems/moderation-blocked");
    EXPECT_EQ(intField(blocked.problem, "status"), 422);
    EXPECT_NE(strField(blocked.problem, "detail").find("\"forbidden\""), std::string::npos);
    EXPECT_EQ(blocked.body.find("forbidden-word here"), std::string::npos) << "the text is not echoed";
    ASSERT_TRUE(blocked.problem->getArray("errors"));
  }

  // redact: stored with the match replaced, the answer already masked.
  auto redacted = publishOn(p, path, kind, "key secret-123 and secret-9");
  ASSERT_EQ(redacted.status, 201) << redacted.body;
  EXPECT_EQ(redacted.body.find("secret-123"), std::string::npos) << redacted.body;
  EXPECT_NE(textOf(kind, redacted.event).find("key [REDACTED:regex] and [REDACTED:regex]"), std::string::npos)
      << textOf(kind, redacted.event);
  auto redactions = redacted.event->getObject("metadata")->getObject("moderation")->getArray("redactions");
  ASSERT_EQ(redactions->size(), 1u);
  EXPECT_EQ(intField(redactions->getObject(0), "matchCount"), 2);

  // flag: stored unchanged, with metadata.moderation.flags.
  auto flagged = publishOn(p, path, kind, "asks for a refund");
  ASSERT_EQ(flagged.status, 201) << flagged.body;
  EXPECT_NE(textOf(kind, flagged.event).find("asks for a refund"), std::string::npos);
  auto flags = flagged.event->getObject("metadata")->getObject("moderation")->getArray("flags");
  ASSERT_EQ(flags->size(), 1u);
  EXPECT_EQ(strField(flags->getObject(0), "ruleName"), "refunds");
  EXPECT_EQ(strField(flags->getObject(0), "action"), "flag");
  EXPECT_EQ(strField(flags->getObject(0), "target"), nameOf(kind));

  // allow: stops the target's evaluation, so the later block, redact and flag rules
  // do not apply; stored exactly as sent.
  auto allowed = publishOn(p, path, kind, "trusted-source: forbidden-word secret-1 refund");
  ASSERT_EQ(allowed.status, 201) << allowed.body;
  EXPECT_NE(textOf(kind, allowed.event).find("forbidden-word secret-1 refund"), std::string::npos);
  auto metadata = allowed.event->getObject("metadata");
  EXPECT_FALSE(metadata && metadata->has("moderation"));

  // The list holds what the answers showed; no stored event has the original secret.
  auto events = listed(p);
  EXPECT_EQ(events.size(), path == Path::Batch ? 11u : 3u);  // each batch carries two harmless neighbours
  for (const auto& e : events) {
    const auto text = textOf(kind, e);
    if (text.find("trusted-source") == std::string::npos) {
      EXPECT_EQ(text.find("secret-123"), std::string::npos);
    }
    EXPECT_EQ(text.find("a forbidden-word here"), std::string::npos);
  }

  // One violation per matched rule, newest first, with the stored event's id.
  auto recorded = violations(p.keyed);
  ASSERT_EQ(recorded.size(), 4u);
  std::vector<std::string> actions;
  for (const auto& v : recorded) actions.push_back(strField(v, "action"));
  EXPECT_EQ(actions, (std::vector<std::string>{"allow", "flag", "redact", "block"}));
  EXPECT_TRUE(recorded[3]->isNull("eventId"));  // the blocked event was never stored
  EXPECT_EQ(strField(recorded[2], "eventId"), std::to_string(intField(redacted.event, "id")));
  EXPECT_EQ(strField(recorded[0], "eventId"), std::to_string(intField(allowed.event, "id")));
  // And its trace, so the console links to it (null when the event has none or was not stored).
  const auto traceOf = [](const Poco::JSON::Object::Ptr& o) {
    return o->has("traceId") && !o->isNull("traceId") ? o->getValue<std::string>("traceId") : std::string("(none)");
  };
  EXPECT_TRUE(recorded[3]->isNull("traceId"));
  EXPECT_EQ(traceOf(recorded[2]), traceOf(redacted.event));
  EXPECT_EQ(traceOf(recorded[0]), traceOf(allowed.event));
  for (const auto& v : recorded) {
    EXPECT_EQ(strField(v, "target"), nameOf(kind));
    EXPECT_EQ(strField(v, "source"), path == Path::Single ? "api" : path == Path::Batch ? "batch" : "otlp");
    EXPECT_GE(v->getValue<double>("latencyMs"), 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(PathsAndTargets, EnforcementApi,
                         ::testing::Combine(::testing::Values(Path::Single, Path::Batch, Path::Otlp),
                                            ::testing::Values(Kind::Request, Kind::Response, Kind::ToolCall)),
                         [](const auto& info) {
                           return nameOf(std::get<0>(info.param)) + "_" + nameOf(std::get<1>(info.param));
                         });

class ModerationStreamApi : public ModerationTest {};

// The live stream carries the stored (masked) event, never the original text, on every path.
TEST_F(ModerationStreamApi, StreamsOnlyTheRedactedEvent) {
  auto p = newPublisher("stream");
  createRule(p.tenant, "emails", "redact", "pii.email", "", "request");
  auto s = subscribe(subscribePath(p.channelId), {{"X-API-Key", createKey(p.tenant, {"subscribe"}).key}});
  ASSERT_TRUE(IsStreamOpen(*s));
  std::vector<std::int64_t> ids;
  for (auto path : {Path::Single, Path::Batch, Path::Otlp}) {
    auto published = publishOn(p, path, Kind::Request, "write to ada@example.com");
    ASSERT_EQ(published.status, 201) << published.body;
    EXPECT_EQ(textOf(Kind::Request, published.event), "write to [REDACTED:pii.email]");
  }
  for (const auto& e : listed(p)) ids.push_back(intField(e, "id"));
  auto messages = readThrough(*s, *std::max_element(ids.begin(), ids.end()));
  ASSERT_EQ(messages.size(), ids.size()) << s->describe();
  EXPECT_EQ(s->body().find("ada@example.com"), std::string::npos) << s->body();
  EXPECT_NE(s->body().find("[REDACTED:pii.email]"), std::string::npos);
}

// RE2 is linear: a pattern that makes backtracking engines explode (ReDoS) costs a 100 KiB
// event no more than any other pattern.
TEST_F(ModerationStreamApi, CatastrophicPatternsStayFastOnLargeEvents) {
  auto p = newPublisher("redos");
  createRule(p.tenant, "redos", "flag", "regex", "(a+)+$", "request");
  createRule(p.tenant, "redos2", "flag", "regex", "(a|aa)+b", "request");
  const std::string text(100 * 1024, 'a');
  const auto started = std::chrono::steady_clock::now();
  auto published = publishOn(p, Path::Single, Kind::Request, text + "!");
  const auto elapsed = std::chrono::steady_clock::now() - started;
  ASSERT_EQ(published.status, 201) << published.body.substr(0, 300);
  EXPECT_LT(elapsed, std::chrono::seconds(2));
  EXPECT_FALSE(published.event->has("metadata") && published.event->getObject("metadata") &&
               published.event->getObject("metadata")->has("moderation"));  // neither matches ("!" ends it)
  auto flagged = publishOn(p, Path::Single, Kind::Request, text);
  ASSERT_EQ(flagged.status, 201);
  EXPECT_EQ(flagged.event->getObject("metadata")->getObject("moderation")->getArray("flags")->size(), 1u);
}

class IsolationApi : public ModerationTest {};

TEST_F(IsolationApi, RulesOfOneOrganizationNeverApplyToAnother) {
  auto strict = newPublisher("strict");
  auto relaxed = newPublisher("relaxed");
  createRule(strict.tenant, "block all", "block", "regex", ".", "request");
  for (auto path : {Path::Single, Path::Batch, Path::Otlp}) {
    EXPECT_EQ(publishOn(strict, path, Kind::Request, "hello").status, 422) << nameOf(path);
    EXPECT_EQ(publishOn(relaxed, path, Kind::Request, "hello").status, 201) << nameOf(path);
  }
  EXPECT_TRUE(violations(relaxed.keyed).empty());
  EXPECT_EQ(violations(strict.keyed).size(), 3u);
  // Its efficacy and evaluation do not see the other's rules either.
  EXPECT_TRUE(objects(relaxed.keyed.get("/moderation/efficacy").object()->getArray("rows")).empty());
  auto verdict = relaxed.tenant.http.post("/moderation/evaluate",
                                          obj({{"eventType", "agent.message"}, {"payload", obj({{"c", "hello"}})}}));
  ASSERT_STATUS(verdict, 200);
  EXPECT_FALSE(verdict.object()->getValue<bool>("blocked"));
}

TEST_F(IsolationApi, ChangesApplyToTheNextPublish) {
  auto p = newPublisher("changes");
  auto rule = createRule(p.tenant, "x", "block", "keyword", "bad", "request");
  const auto path = "/moderation/rules/" + strField(rule, "ruleId");
  EXPECT_EQ(publishOn(p, Path::Single, Kind::Request, "bad").status, 422);
  ASSERT_STATUS(p.tenant.http.patch(path, obj({{"enabled", false}})), 200);
  EXPECT_EQ(publishOn(p, Path::Single, Kind::Request, "bad").status, 201);
  ASSERT_STATUS(p.tenant.http.patch(path, obj({{"enabled", true}, {"action", "redact"}})), 200);
  EXPECT_EQ(textOf(Kind::Request, publishOn(p, Path::Single, Kind::Request, "bad").event), "[REDACTED:keyword]");
  ASSERT_STATUS(p.tenant.http.del(path), 204);
  EXPECT_EQ(textOf(Kind::Request, publishOn(p, Path::Single, Kind::Request, "bad").event), "bad");
}

TEST_F(IsolationApi, ToolRulesReadTheToolAndItsArguments) {
  auto p = newPublisher("tools");
  createRule(p.tenant, "no shell", "block", "tool_name", "rm-tool", "tool_call");
  createRule(p.tenant, "no etc", "redact", "tool_arg", "$.args.cmd ~ /\\/etc\\/[a-z]+/", "tool_call");
  auto call = [&](const std::string& tool, const std::string& cmd) {
    return p.keyed.post("/event",
                        eventBody(p.channelId, "call", obj({{"tool", tool}, {"arguments", obj({{"cmd", cmd}})}}),
                                  obj({{"eventType", "agent.tool_call.start"}})));
  };
  EXPECT_TRUE(IsProblem(call("rm-tool", "x"), 422));
  auto masked = call("cat", "cat /etc/passwd");
  ASSERT_STATUS(masked, 201);
  EXPECT_EQ(strField(masked.object()->getObject("payload")->getObject("arguments"), "cmd"), "cat [REDACTED:tool_arg]");
  // The tool column analytics groups by is the stored tool's name.
  auto tools = objects(p.keyed.get("/analytics/breakdown?dimension=tool").object()->getArray("rows"));
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_EQ(strField(tools[0], "key"), "cat");
}

}  // namespace
}  // namespace aev::testing

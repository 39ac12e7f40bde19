// moderation/event_view.h and evaluator.h: which events each target covers (and how the
// agent.message overlap resolves), what text is read, and the four actions: allow stops
// its target, block stops everything, redact masks in place before later rules run,
// flag annotates metadata.moderation.
#include <gtest/gtest.h>

#include "moderation/evaluator.h"
#include "moderation_support.h"

namespace aev::moderation {
namespace {

using testing::event;
using testing::json;
using testing::makeRule;
using testing::ruleSet;

std::vector<Target> targetsOf(EventDocument doc) {
  std::vector<Target> out;
  for (const auto& view : viewsOf(doc)) out.push_back(view.target());
  return out;
}

using Targets = std::vector<Target>;

TEST(ModerationTargets, MapEventTypesPerDecisions) {
  EXPECT_EQ(targetsOf(event("agent.start", R"({"task":"x"})")), Targets{Target::Request});
  EXPECT_EQ(targetsOf(event("agent.message", R"({"role":"user","content":"x"})")), Targets{Target::Request});
  EXPECT_EQ(targetsOf(event("agent.message", R"({"content":"x"})")), Targets{Target::Request});
  EXPECT_EQ(targetsOf(event("agent.end", R"({"result":"x"})")), Targets{Target::Response});
  EXPECT_EQ(targetsOf(event("agent.tool_call.start", R"({"tool":"shell"})")), Targets{Target::ToolCall});
  for (const char* other : {"agent.tool_call.end", "agent.error", "agent.handoff", "agent.llm.token", "custom", ""})
    EXPECT_TRUE(targetsOf(event(other, R"({"content":"x"})")).empty()) << other;
}

TEST(ModerationTargets, AnAssistantMessageIsAResponseOnly) {
  EXPECT_EQ(targetsOf(event("agent.message", R"({"role":"assistant","content":"x"})")), Targets{Target::Response});
}

TEST(ModerationTargets, OtlpSpansMapByOperation) {
  // A chat span carries the prompt and the completion: both sides are moderated.
  EXPECT_EQ(targetsOf(event("agent.message", R"({"name":"chat"})", R"({"gen_ai.prompt":"p","gen_ai.completion":"c"})",
                            "otlp")),
            (Targets{Target::Request, Target::Response}));
  EXPECT_EQ(
      targetsOf(event("agent.tool_call.end", R"({"name":"t"})", R"({"gen_ai.operation.name":"execute_tool"})", "otlp")),
      Targets{Target::ToolCall});
  EXPECT_EQ(targetsOf(event("agent.error", R"({"name":"t"})", R"({"gen_ai.operation.name":"execute_tool"})", "otlp")),
            Targets{Target::ToolCall});
  // Only OTLP spans: an API event of that type is a tool call's end, not its call.
  EXPECT_TRUE(targetsOf(event("agent.tool_call.end", R"({"name":"t"})", R"({"gen_ai.operation.name":"execute_tool"})"))
                  .empty());
}

TEST(ModerationTargets, TextIsEveryPayloadStringPlusTheTargetsAttributes) {
  auto doc = event("agent.message", R"({"content":"a","n":5,"parts":[{"text":"b"},{"n":true}],"meta":{"x":"c"}})",
                   R"({"gen_ai.prompt":"p","gen_ai.completion":"c","model":"m"})");
  auto views = viewsOf(doc);
  ASSERT_EQ(views.size(), 2u);
  std::vector<std::string> paths;
  for (const auto& slot : views[0].texts()) paths.push_back(slot.path);
  EXPECT_EQ(paths, (std::vector<std::string>{"payload.content", "payload.meta.x", "payload.parts[0].text",
                                             "metadata.gen_ai.prompt"}));
  ASSERT_EQ(views[1].texts().size(), 1u);
  EXPECT_EQ(views[1].texts()[0].path, "metadata.gen_ai.completion");
}

TEST(ModerationTargets, ToolCallsExposeTheToolAndItsArguments) {
  auto doc = event("agent.tool_call.start", R"({"name":"shell","arguments":{"cmd":"ls"}})", R"({"tool":"bash"})");
  auto views = viewsOf(doc);
  ASSERT_EQ(views.size(), 1u);
  EXPECT_EQ(views[0].toolName(), "bash");  // metadata.tool first (docs/features.md#telemetry-fields)
  EXPECT_EQ(views[0].toolNameSlots().size(), 2u);
  auto call = views[0].toolCall().value.extract<Poco::JSON::Object::Ptr>();
  EXPECT_EQ(json(call->getObject("args")), R"({"cmd":"ls"})");
}

// ---------------------------------------------------------------- actions

TEST(ModerationEvaluate, NoRulesNoMatches) {
  auto doc = event("agent.message", R"({"content":"hello"})");
  auto verdict = evaluate(RuleSet{}, doc);
  EXPECT_TRUE(verdict.matches.empty());
  EXPECT_EQ(verdict.targets, Targets{Target::Request});
}

TEST(ModerationEvaluate, RedactMasksEveryMatchInPlace) {
  auto rules = ruleSet({makeRule(Action::Redact, "regex", "sk-[a-z0-9]+")});
  auto doc = event("agent.message", R"({"content":"key sk-abc and sk-def","nested":[{"k":"sk-x1"}],"n":1})");
  auto verdict = evaluate(rules, doc);
  ASSERT_EQ(verdict.matches.size(), 1u);
  EXPECT_TRUE(verdict.redacted);
  EXPECT_EQ(verdict.matches[0].matchCount, 3u);
  EXPECT_EQ(verdict.matches[0].fields, (std::vector<std::string>{"payload.content", "payload.nested[0].k"}));
  EXPECT_EQ(json(doc.payload),
            R"({"content":"key [REDACTED:regex] and [REDACTED:regex]","n":1,"nested":[{"k":"[REDACTED:regex]"}]})");
  annotate(verdict, doc);
  auto entry = doc.metadata->getObject("moderation")->getArray("redactions")->getObject(0);
  EXPECT_EQ(entry->getValue<std::string>("ruleId"), "1");
  EXPECT_EQ(entry->getValue<std::string>("action"), "redact");
  EXPECT_EQ(json(doc.metadata).find("sk-abc"), std::string::npos);
}

TEST(ModerationEvaluate, LaterRulesSeeTheRedactedText) {
  auto rules =
      ruleSet({makeRule(Action::Redact, "keyword", "password"), makeRule(Action::Block, "keyword", "password")});
  auto doc = event("agent.start", R"({"task":"my PASSWORD is x"})");
  auto verdict = evaluate(rules, doc);
  EXPECT_FALSE(verdict.blocked());
  EXPECT_EQ(json(doc.payload), R"({"task":"my [REDACTED:keyword] is x"})");
}

TEST(ModerationEvaluate, AllowStopsOnlyItsTarget) {
  auto rules = ruleSet({makeRule(Action::Allow, "keyword", "trusted"), makeRule(Action::Block, "keyword", "drop"),
                        makeRule(Action::Flag, "keyword", "drop", Target::Response)});
  auto allowed = event("agent.message", R"({"content":"trusted: drop table"})");
  auto verdict = evaluate(rules, allowed);
  EXPECT_FALSE(verdict.blocked());
  ASSERT_EQ(verdict.matches.size(), 1u);
  EXPECT_EQ(verdict.matches[0].action, Action::Allow);

  auto blocked = event("agent.message", R"({"content":"drop table"})");
  EXPECT_TRUE(evaluate(rules, blocked).blocked());
  // The request's allow does not reach the response side of a chat span.
  auto chat = event("agent.message", R"({"content":"trusted"})", R"({"gen_ai.completion":"drop it"})", "otlp");
  auto both = evaluate(rules, chat);
  ASSERT_EQ(both.matches.size(), 2u);
  EXPECT_EQ(both.matches[1].action, Action::Flag);
  EXPECT_EQ(both.matches[1].target, Target::Response);
}

TEST(ModerationEvaluate, BlockStopsEverythingAndNamesTheRule) {
  auto rules =
      ruleSet({makeRule(Action::Flag, "keyword", "a"), makeRule(Action::Block, "regex", "b+", Target::Request, "no b"),
               makeRule(Action::Flag, "keyword", "b")});
  auto doc = event("agent.message", R"({"content":"a bb"})");
  auto verdict = evaluate(rules, doc);
  ASSERT_TRUE(verdict.blocked());
  EXPECT_EQ(verdict.matches.size(), 2u);
  EXPECT_EQ(verdict.blockingMatch()->ruleId, 2);
  EXPECT_EQ(verdict.blockingMatch()->ruleName, "no b");
}

TEST(ModerationEvaluate, FlagAnnotatesMetadataAndReplacesAForgedOne) {
  auto rules = ruleSet({makeRule(Action::Flag, "keyword", "refund", Target::Response)});
  auto doc =
      event("agent.end", R"({"result":"issued a refund"})", R"({"moderation":{"flags":["forged"]},"model":"m"})");
  auto verdict = evaluate(rules, doc);
  EXPECT_TRUE(verdict.flagged);
  annotate(verdict, doc);
  auto flags = doc.metadata->getObject("moderation")->getArray("flags");
  ASSERT_EQ(flags->size(), 1u);
  EXPECT_EQ(flags->getObject(0)->getValue<std::string>("detector"), "keyword");
  EXPECT_EQ(flags->getObject(0)->getValue<std::string>("target"), "response");
  EXPECT_EQ(doc.metadata->getValue<std::string>("model"), "m");
  EXPECT_EQ(json(doc.payload), R"({"result":"issued a refund"})");  // flag changes nothing else
}

TEST(ModerationEvaluate, RulesOnlyRunOnTheirTarget) {
  auto rules = ruleSet({makeRule(Action::Block, "keyword", "x", Target::Response)});
  auto request = event("agent.message", R"({"content":"x"})");
  EXPECT_TRUE(evaluate(rules, request).matches.empty());
  auto response = event("agent.message", R"({"role":"assistant","content":"x"})");
  EXPECT_TRUE(evaluate(rules, response).blocked());
}

TEST(ModerationEvaluate, ToolNameMatchesAndRedactsEveryPlaceItIsWritten) {
  auto rules = ruleSet({makeRule(Action::Redact, "tool_name", "shell", Target::ToolCall)});
  auto doc = event("agent.tool_call.start", R"({"tool":"shell","args":{"cmd":"ls"}})", R"({"tool":"shell"})");
  auto verdict = evaluate(rules, doc);
  ASSERT_EQ(verdict.matches.size(), 1u);
  EXPECT_EQ(json(doc.payload), R"({"args":{"cmd":"ls"},"tool":"[REDACTED:tool_name]"})");
  EXPECT_EQ(doc.metadata->getValue<std::string>("tool"), "[REDACTED:tool_name]");
  auto other = event("agent.tool_call.start", R"({"tool":"browser"})");
  EXPECT_TRUE(evaluate(rules, other).matches.empty());
}

TEST(ModerationEvaluate, ToolArgRedactsInsideTheArguments) {
  auto rules = ruleSet({makeRule(Action::Redact, "tool_arg", "$.args.path ~ /^\\/etc\\/[a-z]+/", Target::ToolCall),
                        makeRule(Action::Flag, "tool_arg", "args.force = true", Target::ToolCall)});
  auto doc =
      event("agent.tool_call.start", R"({"tool":"fs.read","arguments":{"path":"/etc/shadow.bak","force":true}})");
  auto verdict = evaluate(rules, doc);
  ASSERT_EQ(verdict.matches.size(), 2u);
  EXPECT_EQ(verdict.matches[0].fields, std::vector<std::string>{"$.args.path"});
  EXPECT_EQ(json(doc.payload), R"({"arguments":{"force":true,"path":"[REDACTED:tool_arg].bak"},"tool":"fs.read"})");
  EXPECT_TRUE(verdict.flagged);
}

TEST(ModerationEvaluate, ToolArgReadsOtlpArgumentsTextAndWritesItBack) {
  auto rules = ruleSet({makeRule(Action::Redact, "tool_arg", "args.token", Target::ToolCall)});
  auto doc = event("agent.tool_call.end", R"({"name":"execute_tool http"})",
                   R"({"gen_ai.operation.name":"execute_tool","gen_ai.tool.name":"http",)"
                   R"("gen_ai.tool.call.arguments":"{\"url\":\"u\",\"token\":\"t0p\"}"})",
                   "otlp");
  auto verdict = evaluate(rules, doc);
  ASSERT_EQ(verdict.matches.size(), 1u);
  EXPECT_EQ(doc.metadata->getValue<std::string>("gen_ai.tool.call.arguments"),
            R"({"token":"[REDACTED:tool_arg]","url":"u"})");
}

TEST(ModerationEvaluate, ToolCallTextIncludesTheToolAndArgumentAttributes) {
  auto rules = ruleSet({makeRule(Action::Redact, "regex", "t0p", Target::ToolCall)});
  auto doc =
      event("agent.tool_call.end", R"({"name":"execute_tool"})",
            R"({"gen_ai.operation.name":"execute_tool","gen_ai.tool.call.arguments":"{\"token\":\"t0p\"}"})", "otlp");
  auto verdict = evaluate(rules, doc);
  ASSERT_EQ(verdict.matches.size(), 1u);
  EXPECT_EQ(verdict.matches[0].fields, std::vector<std::string>{"metadata.gen_ai.tool.call.arguments"});
  EXPECT_EQ(json(doc.metadata).find("t0p"), std::string::npos);
}

TEST(ModerationEvaluate, LatencyIsMeasuredPerMatchedRule) {
  auto rules = ruleSet({makeRule(Action::Flag, "regex", "(a+)+$")});
  auto doc = event("agent.start", "{\"text\":\"" + std::string(100000, 'a') + "\"}");
  auto verdict = evaluate(rules, doc);
  ASSERT_EQ(verdict.matches.size(), 1u);
  EXPECT_GT(verdict.matches[0].latencyMs, 0.0);
  EXPECT_LT(verdict.matches[0].latencyMs, 1000.0);
}

// The prefilter (one RE2::Set pass per string) only skips rules that cannot match: the
// verdicts and the stored text are those of evaluating every rule on its own.
TEST(ModerationEvaluate, PrefilterChangesNoVerdict) {
  std::vector<Rule> rules;
  for (int i = 0; i < 40; ++i) rules.push_back(makeRule(Action::Flag, "keyword", "word-" + std::to_string(i)));
  rules.push_back(makeRule(Action::Redact, "regex", "secret-[0-9]+"));
  rules.push_back(makeRule(Action::Flag, "keyword", "REDACTED"));  // sees the marker a redaction wrote
  rules.push_back(makeRule(Action::Flag, "tool_name", "shell", Target::ToolCall));
  rules.push_back(makeRule(Action::Block, "regex", "(?i)drop\\s+table"));
  const auto with = ruleSet(rules);
  const auto without = ruleSet(rules, false);
  ASSERT_NE(with.prefilterOf(Target::Request), nullptr);
  EXPECT_EQ(with.prefilterOf(Target::ToolCall), nullptr);  // no regex or keyword rule there
  for (const char* text : {"nothing here", "word-7 and WORD-39", "secret-42 word-3", "please DROP  table now",
                           "word-1 secret-1 secret-2 word-40"}) {
    auto a = event("agent.message", std::string(R"({"content":")") + text + R"(","other":"word-5"})");
    auto b = event("agent.message", std::string(R"({"content":")") + text + R"(","other":"word-5"})");
    auto va = evaluate(with, a);
    auto vb = evaluate(without, b);
    ASSERT_EQ(va.matches.size(), vb.matches.size()) << text;
    for (std::size_t i = 0; i < va.matches.size(); ++i) {
      EXPECT_EQ(va.matches[i].ruleId, vb.matches[i].ruleId) << text;
      EXPECT_EQ(va.matches[i].matchCount, vb.matches[i].matchCount) << text;
      EXPECT_EQ(va.matches[i].fields, vb.matches[i].fields) << text;
    }
    EXPECT_EQ(va.blocked(), vb.blocked()) << text;
    EXPECT_EQ(json(a.payload), json(b.payload)) << text;
  }
}

TEST(ModerationEvaluate, PrefilterMembersFollowTheRuleList) {
  auto set = ruleSet({makeRule(Action::Flag, "keyword", "a.b"), makeRule(Action::Flag, "regex", "x+"),
                      makeRule(Action::Flag, "keyword", "(c)")});
  const auto* p = set.prefilterOf(Target::Request);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->size(), 3u);
  std::vector<char> possible;
  ASSERT_TRUE(p->match("A.B and (C)", possible));
  EXPECT_TRUE(possible[static_cast<std::size_t>(p->memberOf(0))]);  // keywords: literal, any case
  EXPECT_FALSE(possible[static_cast<std::size_t>(p->memberOf(1))]);
  EXPECT_TRUE(possible[static_cast<std::size_t>(p->memberOf(2))]);
  ASSERT_TRUE(p->match("axb", possible));
  EXPECT_FALSE(possible[static_cast<std::size_t>(p->memberOf(0))]);  // "." is not a wildcard in a keyword
  EXPECT_EQ(p->memberOf(9), -1);
}

}  // namespace
}  // namespace aev::moderation

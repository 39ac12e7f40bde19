// Telemetry extraction at ingest (docs/features.md#telemetry-fields) and the model price table.
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include "telemetry/extractor.h"
#include "telemetry/prices.h"

namespace aev::telemetry {
namespace {

Poco::JSON::Object::Ptr object(const std::string& json) {
  return Poco::JSON::Parser().parse(json).extract<Poco::JSON::Object::Ptr>();
}

struct Extracted {
  store::NewEvent event;
  std::vector<FieldError> problems;
};

Extracted extract(const std::string& eventType, const std::string& metadata, const std::string& payload = "{}",
                  const std::string& source = "api") {
  static const Extractor extractor(PriceTable::builtIn());
  Extracted out;
  out.event.eventType = eventType;
  out.event.source = source;
  out.event.identifier = "span-name";
  out.problems = extractor.apply(out.event, object(payload), metadata.empty() ? nullptr : object(metadata), "body");
  return out;
}

TEST(TelemetryPrices, BuiltInTableHasTheRepositoryFile) {
  auto t = PriceTable::builtIn();
  EXPECT_GT(t.size(), 10u);
  ASSERT_NE(t.find("gpt-4o"), nullptr);
  EXPECT_DOUBLE_EQ(t.find("gpt-4o")->inputPerMillion, 2.50);
  EXPECT_DOUBLE_EQ(t.find("gpt-4o")->outputPerMillion, 10.00);
}

TEST(TelemetryPrices, DatedVariantsUseTheLongestMatchingEntry) {
  auto t = PriceTable::builtIn();
  EXPECT_EQ(t.find("gpt-4o-2024-08-06"), t.find("gpt-4o"));
  EXPECT_EQ(t.find("gpt-4o-mini-2024-07-18"), t.find("gpt-4o-mini"));
  EXPECT_EQ(t.find("claude-3-5-sonnet@20241022"), t.find("claude-3-5-sonnet"));
  EXPECT_EQ(t.find("gpt-4oX"), nullptr);  // not a separator after the prefix
  EXPECT_EQ(t.find("unknown-model"), nullptr);
  EXPECT_EQ(t.find(""), nullptr);
}

TEST(TelemetryPrices, CostIsTokensTimesPricePerMillion) {
  auto t = PriceTable::builtIn();
  EXPECT_DOUBLE_EQ(*t.cost("gpt-4o", 1000, 500), (1000 * 2.50 + 500 * 10.00) / 1e6);
  EXPECT_FALSE(t.cost("nope", 1, 1).has_value());
}

TEST(TelemetryPrices, OverlayReplacesAndAddsEntries) {
  auto t = PriceTable::builtIn();
  const auto before = t.size();
  t.overlay(R"({"models":{"gpt-4o":{"input":1,"output":2},"house-model":{"input":0.5,"output":0.5}}})", "test");
  EXPECT_EQ(t.size(), before + 1);
  EXPECT_DOUBLE_EQ(t.find("gpt-4o")->inputPerMillion, 1);
  EXPECT_DOUBLE_EQ(*t.cost("house-model", 2000000, 0), 1.0);
}

// An entry's optional cachedInput price bills the cached share of the input; without it
// (the built-in table names none) cached tokens cost what other input costs.
TEST(TelemetryPrices, CachedInputTokensUseTheirOwnPriceWhenTheEntryHasOne) {
  auto t = PriceTable::builtIn();
  EXPECT_FALSE(t.find("gpt-4o")->cachedInputPerMillion);
  EXPECT_DOUBLE_EQ(*t.cost("gpt-4o", 1000, 500, 400), *t.cost("gpt-4o", 1000, 500));
  t.overlay(R"({"models":{"cached-model":{"input":2,"output":8,"cachedInput":0.5}}})", "test");
  EXPECT_DOUBLE_EQ(*t.cost("cached-model", 1000, 500, 400), (600 * 2 + 400 * 0.5 + 500 * 8) / 1e6);
  EXPECT_DOUBLE_EQ(*t.cost("cached-model", 100, 0, 400), 100 * 0.5 / 1e6);  // never more than the input
  EXPECT_THROW(t.overlay(R"({"models":{"m":{"input":1,"output":1,"cachedInput":"x"}}})", "f"), std::invalid_argument);

  // The extractor passes the event's cached tokens.
  static const Extractor priced([] {
    auto p = PriceTable::builtIn();
    p.overlay(R"({"models":{"cached-model":{"input":2,"output":8,"cachedInput":0.5}}})", "test");
    return p;
  }());
  store::NewEvent e;
  e.eventType = "agent.message";
  e.identifier = "llm";
  e.source = "api";
  priced.apply(e, object("{}"),
               object(R"({"model":"cached-model","usage":{"input_tokens":1000,"output_tokens":500,)"
                      R"("cached_input_tokens":400}})"),
               "body");
  ASSERT_TRUE(e.telemetry.costUsd);
  EXPECT_DOUBLE_EQ(*e.telemetry.costUsd, (600 * 2 + 400 * 0.5 + 500 * 8) / 1e6);
}

TEST(TelemetryPrices, BadFilesAreRefusedWithTheEntryNamed) {
  auto t = PriceTable::builtIn();
  EXPECT_THROW(t.overlay("not json", "f"), std::invalid_argument);
  EXPECT_THROW(t.overlay(R"({"prices":{}})", "f"), std::invalid_argument);
  try {
    t.overlay(R"({"models":{"m":{"input":"cheap","output":1}}})", "f.json");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("models.m.input"), std::string::npos) << e.what();
  }
  EXPECT_THROW(t.overlay(R"({"models":{"m":{"input":-1,"output":1}}})", "f"), std::invalid_argument);
  EXPECT_DOUBLE_EQ(t.find("gpt-4o")->inputPerMillion, 2.50);  // a refused file changes nothing
}

TEST(TelemetryExtractor, OwnFieldNames) {
  auto x = extract("agent.message", R"({"model":"gpt-4o","provider":"openai","usage":{"input_tokens":1000,
    "output_tokens":500},"duration_ms":812.5,"status":"ok","finish_reason":"stop","tool":"search","service":"api",
    "operation":"plan","environment":"prod","user":"u-1","semantic_kind":"reasoning","release":"1.2.3",
    "error_type":"none"})");
  const auto& t = x.event.telemetry;
  EXPECT_TRUE(x.problems.empty());
  EXPECT_EQ(t.model, "gpt-4o");
  EXPECT_EQ(t.provider, "openai");
  EXPECT_EQ(t.inputTokens, 1000);
  EXPECT_EQ(t.outputTokens, 500);
  EXPECT_DOUBLE_EQ(*t.durationMs, 812.5);
  EXPECT_EQ(t.status, "ok");
  EXPECT_EQ(t.finishReason, "stop");
  EXPECT_EQ(t.tool, "search");
  EXPECT_EQ(t.service, "api");
  EXPECT_EQ(t.operation, "plan");
  EXPECT_EQ(t.environment, "prod");
  EXPECT_EQ(t.endUser, "u-1");
  EXPECT_EQ(t.semanticKind, "reasoning");
  EXPECT_EQ(t.release, "1.2.3");
  EXPECT_EQ(t.errorType, "none");
  // No cost_usd sent: computed from the built-in price of gpt-4o.
  EXPECT_DOUBLE_EQ(*t.costUsd, (1000 * 2.50 + 500 * 10.00) / 1e6);
  EXPECT_FALSE(x.event.isError);
}

TEST(TelemetryExtractor, OpenTelemetryNamesAndSpanNameAsOperation) {
  auto x = extract("custom", R"({"gen_ai.request.model":"claude-3-haiku","gen_ai.system":"anthropic",
    "gen_ai.usage.input_tokens":2000000,"gen_ai.usage.output_tokens":0,"service.name":"billing",
    "error.type":"rate_limit","gen_ai.agent.name":"researcher","gen_ai.response.finish_reasons":["length"],
    "enduser.id":"e-1","gen_ai.tool.name":"calculator","deployment.environment":"staging"})",
                   "{}", "otlp");
  const auto& t = x.event.telemetry;
  EXPECT_EQ(t.model, "claude-3-haiku");
  EXPECT_EQ(t.provider, "anthropic");
  EXPECT_EQ(t.service, "billing");
  EXPECT_EQ(t.errorType, "rate_limit");
  EXPECT_EQ(t.agent, "researcher");
  EXPECT_EQ(t.finishReason, "length");
  EXPECT_EQ(t.endUser, "e-1");
  EXPECT_EQ(t.tool, "calculator");
  EXPECT_EQ(t.environment, "staging");
  EXPECT_EQ(t.operation, "span-name");
  EXPECT_DOUBLE_EQ(*t.costUsd, 0.5);  // 2M input tokens at 0.25 per million
}

TEST(TelemetryExtractor, SentCostWinsAndErrorsAreDerived) {
  auto x = extract("agent.message", R"({"model":"gpt-4o","usage":{"input_tokens":10},"cost_usd":0.42,
    "status":"error"})");
  EXPECT_DOUBLE_EQ(*x.event.telemetry.costUsd, 0.42);
  EXPECT_EQ(x.event.telemetry.status, "error");
  EXPECT_TRUE(x.event.isError);
  auto e = extract("agent.error", R"({"status":"ok"})");
  EXPECT_EQ(e.event.telemetry.status, "error");
  EXPECT_TRUE(e.event.isError);
  auto none = extract("agent.message", "");
  EXPECT_EQ(none.event.telemetry.status, "ok");
  EXPECT_FALSE(none.event.telemetry.model.has_value());
  EXPECT_FALSE(none.event.telemetry.costUsd.has_value());
}

TEST(TelemetryExtractor, UnknownModelOrNoTokensHasNoCost) {
  EXPECT_FALSE(extract("custom", R"({"model":"mystery","usage":{"input_tokens":5}})").event.telemetry.costUsd);
  EXPECT_FALSE(extract("custom", R"({"model":"gpt-4o"})").event.telemetry.costUsd);
}

TEST(TelemetryExtractor, ToolOfToolCallEventsComesFromThePayload) {
  EXPECT_EQ(extract("agent.tool_call.start", "", R"({"tool":"grep"})").event.telemetry.tool, "grep");
  EXPECT_EQ(extract("agent.tool_call.end", "", R"({"name":"ls"})").event.telemetry.tool, "ls");
  EXPECT_FALSE(extract("agent.message", "", R"({"name":"ls"})").event.telemetry.tool.has_value());
}

TEST(TelemetryExtractor, BadNumbersAreIgnoredNotGuessed) {
  auto x = extract("custom", R"({"usage":{"input_tokens":-5,"output_tokens":"12"},"duration_ms":"fast",
    "cost_usd":true})");
  EXPECT_FALSE(x.event.telemetry.inputTokens.has_value());
  EXPECT_EQ(x.event.telemetry.outputTokens, 12);  // a numeric string is a number
  EXPECT_FALSE(x.event.telemetry.durationMs.has_value());
  EXPECT_FALSE(x.event.telemetry.costUsd.has_value());
  EXPECT_TRUE(x.problems.empty());
}

TEST(TelemetryExtractor, TagsBecomeAttributes) {
  auto x = extract("custom", R"({"tags":{"team":"payments","tier":2,"beta":true,"gone":null}})");
  ASSERT_TRUE(x.problems.empty());
  std::map<std::string, std::string> got(x.event.telemetry.attributes.begin(), x.event.telemetry.attributes.end());
  EXPECT_EQ(got, (std::map<std::string, std::string>{{"team", "payments"}, {"tier", "2"}, {"beta", "true"}}));
}

TEST(TelemetryExtractor, BadTagsAreReportedWithTheirLocation) {
  auto nested = extract("custom", R"({"tags":{"ok":"1","deep":{"x":1}}})");
  ASSERT_EQ(nested.problems.size(), 1u);
  EXPECT_EQ(nested.problems[0].location, "body.metadata.tags.deep");
  EXPECT_EQ(extract("custom", R"({"tags":["a"]})").problems.size(), 1u);
  std::string many = "{\"tags\":{";
  for (int i = 0; i <= static_cast<int>(kMaxAttributes); ++i) many += (i ? "," : "") + ("\"k" + std::to_string(i) + "\":1");
  EXPECT_EQ(extract("custom", many + "}}").problems.size(), 1u);
  EXPECT_EQ(extract("custom", R"({"tags":{"v":")" + std::string(kMaxAttributeValue + 1, 'x') + "\"}}").problems.size(),
            1u);
}

}  // namespace
}  // namespace aev::telemetry

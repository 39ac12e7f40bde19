// The daemon extracts the standard dimensions in-core at ingest (telemetry::Extractor);
// dimension_standard is the plugin of record. Both must give the same key for the same
// event, or a breakdown would disagree with the plugin an operator reads.
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include "events/event.h"
#include "support/plugin_test_support.h"
#include "telemetry/extractor.h"

namespace aev::plugins {
namespace {

struct Case {
  const char* eventType;
  const char* source;
  const char* agentId;  // nullptr: none
  const char* payload;
  const char* metadata;
};

const Case kCases[] = {
    {"agent.message", "api", "planner", R"({"role":"assistant"})",
     R"({"model":"gpt-4o","provider":"openai","status":"ok","finish_reason":"stop","tool":"search","service":"s",
        "operation":"plan","user":"u-9","semantic_kind":"reasoning","error_type":"timeout"})"},
    {"custom", "otlp", nullptr, "{}",
     R"({"gen_ai.request.model":"claude-3","gen_ai.system":"anthropic","service.name":"billing",
        "error.type":"rate_limit","gen_ai.agent.name":"researcher","gen_ai.response.finish_reasons":["length"],
        "enduser.id":"e-1","gen_ai.tool.name":"calculator"})"},
    {"agent.error", "batch", "a", "{}", R"({"status":"ok","gen_ai":{"request":{"model":"nested"}}})"},
    {"agent.tool_call.start", "api", nullptr, R"({"tool":"grep"})", "{}"},
    {"agent.tool_call.end", "api", nullptr, R"({"name":"ls"})", R"({"status":"error","provider":7})"},
    {"agent.message", "api", nullptr, R"({"name":"not a tool"})", R"({"model":"","provider":null,"service":{}})"},
    {"agent.handoff", "otlp", "x", "{}", R"({"gen_ai.operation.name":"handoff","user.id":"u2"})"},
    // Providers and finish reasons as clients spell them: one value each, on both sides.
    {"agent.message", "api", nullptr, "{}", R"({"provider":"OpenAI","finish_reason":"end_turn"})"},
    {"agent.message", "api", nullptr, "{}", R"({"provider":"openai.chat","finish_reason":"STOP"})"},
    {"custom", "otlp", nullptr, "{}", R"({"llm.system":"xai","llm.finish_reason":"tool_calls"})"},
};

TEST(DimensionParity, InCoreExtractionMatchesTheStandardPlugin) {
  Host host;
  ASSERT_EQ(host.loadFile(test::standardPluginPath("dimension_standard")).loaded.size(), 1u);
  const telemetry::Extractor extractor(telemetry::PriceTable::builtIn());
  for (const auto& c : kCases) {
    events::StoredEvent e;
    e.eventType = c.eventType;
    e.source = c.source;
    e.identifier = "span name";
    if (c.agentId) e.agentId = c.agentId;
    e.payloadJson = c.payload;
    e.metadataJson = c.metadata;
    Poco::JSON::Parser parser;
    auto payload = parser.parse(c.payload).extract<Poco::JSON::Object::Ptr>();
    auto metadata = Poco::JSON::Parser().parse(c.metadata).extract<Poco::JSON::Object::Ptr>();
    ASSERT_TRUE(extractor.apply(e, payload, metadata, "body").empty());
    const auto& t = e.telemetry;
    const std::pair<const char*, std::optional<std::string>> ours[] = {
        {"model", t.model},         {"provider", t.provider},         {"status", t.status},
        {"user", t.endUser},        {"agent", t.agent},               {"tool", t.tool},
        {"finishReason", t.finishReason}, {"semanticKind", t.semanticKind}, {"service", t.service},
        {"operation", t.operation}, {"errorType", t.errorType}};
    const std::string json = events::toPluginJson(e);
    for (const auto& [dimension, key] : ours) {
      auto d = host.registry().dimension(dimension);
      ASSERT_NE(d, nullptr) << dimension;
      auto r = d->create()->key(json, "");
      ASSERT_TRUE(r.ok()) << r.error;
      EXPECT_EQ(r.key, key) << dimension << " of " << json;
    }
  }
}

}  // namespace
}  // namespace aev::plugins

// dimension_standard: the 19 analytics dimensions over docs/features.md#telemetry-fields.
#include <gtest/gtest.h>

#include <map>

#include "support/plugin_test_support.h"

namespace aev::plugins {
namespace {

class StandardDimensions : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    host_ = new Host();
    ASSERT_EQ(host_->loadFile(test::standardPluginPath("dimension_standard")).loaded.size(), 1u);
  }
  static void TearDownTestSuite() {
    delete host_;
    host_ = nullptr;
  }
  static std::optional<std::string> key(const std::string& dimension, const std::string& event,
                                        const std::string& parameter = "") {
    auto d = host_->registry().dimension(dimension);
    EXPECT_NE(d, nullptr) << dimension;
    if (!d) return std::nullopt;
    auto r = d->create()->key(event, parameter);
    EXPECT_TRUE(r.ok()) << r.error;
    return r.key;
  }
  static Host* host_;
};

Host* StandardDimensions::host_ = nullptr;

// A stored event as publish returns it, with telemetry in metadata.
const std::string kEvent = R"({
  "id": 41, "identifier": "llm-call", "payload": {"role": "assistant", "content": "hi"},
  "channel_id": 40, "channelId": "40", "appId": "12", "orgId": "7", "agentId": "planner",
  "eventType": "agent.message", "traceId": "t1", "source": "api", "apiKeyId": "3",
  "metadata": {
    "model": "gpt-4o", "provider": "openai", "status": "ok", "finish_reason": "stop",
    "tool": "search", "service": "checkout", "operation": "plan", "user": "u-9",
    "semantic_kind": "reasoning", "error_type": "timeout", "release": "1.4.2",
    "usage": {"input_tokens": 12, "output_tokens": 30},
    "tags": {"team": "payments", "tier": 2}
  },
  "timestamp": "2026-01-02T03:04:05.000006Z"})";

TEST_F(StandardDimensions, AllSeventeenAreRegistered) {
  const char* names[] = {"model", "provider", "status",       "source",       "app",     "channel",
                         "apiKey", "user",    "agent",        "tool",         "eventType", "finishReason",
                         "semanticKind", "service", "operation", "errorType", "tag"};
  EXPECT_EQ(host_->registry().dimensions().size(), 19u);
  for (const char* n : names) EXPECT_NE(host_->registry().dimension(n), nullptr) << n;
}

TEST_F(StandardDimensions, KeysFromAStoredEvent) {
  std::map<std::string, std::string> expected = {
      {"model", "gpt-4o"},       {"provider", "openai"},          {"status", "ok"},
      {"source", "api"},         {"app", "12"},                   {"channel", "40"},
      {"apiKey", "3"},           {"user", "u-9"},                 {"agent", "planner"},
      {"tool", "search"},        {"eventType", "agent.message"},  {"finishReason", "stop"},
      {"semanticKind", "reasoning"}, {"service", "checkout"},     {"operation", "plan"},
      {"errorType", "timeout"}};
  for (const auto& [dimension, value] : expected) EXPECT_EQ(key(dimension, kEvent).value_or("<none>"), value) << dimension;
  EXPECT_EQ(key("tag", kEvent, "team").value_or("<none>"), "payments");
  EXPECT_EQ(key("tag", kEvent, "tier").value_or("<none>"), "2");  // numbers become text
  EXPECT_FALSE(key("tag", kEvent, "missing").has_value());
  EXPECT_FALSE(key("tag", kEvent).has_value());  // no tagKey
}

TEST_F(StandardDimensions, OpenTelemetryNamesAreAccepted) {
  std::string otlp = R"({"eventType":"custom","source":"otlp","identifier":"chat gpt-4o","metadata":{
    "gen_ai.request.model":"claude-3", "gen_ai.system":"anthropic", "service.name":"billing",
    "error.type":"rate_limit", "gen_ai.agent.name":"researcher", "gen_ai.response.finish_reasons":["length"],
    "enduser.id":"e-1", "gen_ai.tool.name":"calculator"}})";
  EXPECT_EQ(key("model", otlp), "claude-3");
  EXPECT_EQ(key("provider", otlp), "anthropic");
  EXPECT_EQ(key("service", otlp), "billing");
  EXPECT_EQ(key("errorType", otlp), "rate_limit");
  EXPECT_EQ(key("agent", otlp), "researcher");
  EXPECT_EQ(key("finishReason", otlp), "length");
  EXPECT_EQ(key("user", otlp), "e-1");
  EXPECT_EQ(key("tool", otlp), "calculator");
  EXPECT_EQ(key("operation", otlp), "chat gpt-4o");  // span name, when no operation attribute
  EXPECT_EQ(key("source", otlp), "otlp");
}

TEST_F(StandardDimensions, FirstMatchWins) {
  std::string both = R"({"metadata":{"model":"a","gen_ai.request.model":"b","provider":"p","gen_ai.system":"q"}})";
  EXPECT_EQ(key("model", both), "a");
  EXPECT_EQ(key("provider", both), "p");
  std::string nested = R"({"metadata":{"gen_ai":{"request":{"model":"nested"}}}})";
  EXPECT_EQ(key("model", nested), "nested");
}

TEST_F(StandardDimensions, StatusRules) {
  EXPECT_EQ(key("status", R"({"eventType":"agent.error","metadata":{"status":"ok"}})"), "error");
  EXPECT_EQ(key("status", R"({"eventType":"agent.message","metadata":{"status":"error"}})"), "error");
  EXPECT_EQ(key("status", R"({"eventType":"agent.message"})"), "ok");
}

TEST_F(StandardDimensions, ToolOfToolCallEvents) {
  EXPECT_EQ(key("tool", R"({"eventType":"agent.tool_call.start","payload":{"tool":"grep"}})"), "grep");
  EXPECT_EQ(key("tool", R"({"eventType":"agent.tool_call.end","payload":{"name":"ls"}})"), "ls");
  EXPECT_EQ(key("tool", R"({"eventType":"agent.tool_call.end","metadata":{"tool":"m"},"payload":{"name":"ls"}})"),
            "m");
  EXPECT_FALSE(key("tool", R"({"eventType":"agent.message","payload":{"name":"not a tool"}})").has_value());
}

TEST_F(StandardDimensions, MissingValuesGiveNoKey) {
  std::string bare = R"({"id":1,"eventType":"custom","payload":{},"metadata":{"model":"","provider":null,"service":{}}})";
  for (const char* d : {"model", "provider", "service", "user", "tool", "finishReason", "semanticKind", "operation",
                        "errorType", "agent", "app", "channel", "apiKey", "source"})
    EXPECT_FALSE(key(d, bare).has_value()) << d;
  EXPECT_FALSE(key("model", "not json").has_value());
  EXPECT_FALSE(key("model", "[1,2]").has_value());
}

}  // namespace
}  // namespace aev::plugins

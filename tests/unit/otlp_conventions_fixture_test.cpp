// The convention table on spans recorded from the real npm instrumentations
// (tests/unit/fixtures/otlp/<scenario>.json, OTLP/JSON exactly as exported; recorded with
// tests/interop/record_fixtures.cjs against the fake OpenAI server of tests/interop): each span
// decoded, mapped to an event and taken through the publisher's extract step (messages moved
// into the payload, telemetry columns read), as POST /v1/traces does.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "events/publisher.h"
#include "otlp/span_events.h"
#include "otlp/trace_decode.h"
#include "otlp_submission.h"
#include "telemetry/extractor.h"

namespace aev::otlp {
namespace {

struct Mapped {
  store::NewEvent event;
  Poco::JSON::Object::Ptr payload;
  Poco::JSON::Object::Ptr metadata;
};

Poco::JSON::Object::Ptr parse(const std::string& json) {
  return Poco::JSON::Parser().parse(json).extract<Poco::JSON::Object::Ptr>();
}

std::vector<Mapped> mapped(const std::string& scenario) {
  std::ifstream in(std::string(AEV_OTLP_FIXTURES) + "/" + scenario + ".json");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << scenario;
  static const telemetry::Extractor extractor(telemetry::PriceTable::builtIn());
  std::vector<Mapped> out;
  auto batch = spanEvents(decodeTraceRequestJson(text.str()));
  EXPECT_TRUE(batch.rejected.empty());
  for (auto& span : batch.events) {
    events::Submission s = spanSubmission(span);
    s.event.metadataJson = span.metadataJson;
    s.metadata = parse(span.metadataJson);
    events::Publisher::extract(extractor, s);
    out.push_back({s.event, parse(s.event.payloadJson), parse(*s.event.metadataJson)});
  }
  return out;
}

std::vector<const Mapped*> ofType(const std::vector<Mapped>& events, const std::string& type) {
  std::vector<const Mapped*> out;
  for (const auto& e : events)
    if (e.event.eventType == type) out.push_back(&e);
  return out;
}

// The normalised messages of an event: {input: [...], output: [...]}.
Poco::JSON::Object::Ptr messagesOf(const Mapped& m) { return m.payload->getObject("messages"); }

void expectNoRawMessages(const Mapped& m) {
  for (const auto& [key, value] : *m.metadata) {
    EXPECT_TRUE(key.rfind("llm.input_messages.", 0) != 0 && key.rfind("llm.output_messages.", 0) != 0 &&
                key != "gen_ai.input.messages" && key != "gen_ai.output.messages" && key != "input.value" &&
                key != "ai.prompt.messages" && key != "langfuse.observation.input")
        << key << " of " << m.event.identifier;
  }
}

TEST(OtlpConventionFixtures, OpenInferenceOpenAi) {
  auto events = mapped("openinference");
  auto llm = ofType(events, "agent.message");
  ASSERT_EQ(llm.size(), 4u);
  for (const auto* m : llm) {
    const auto& t = m->event.telemetry;
    EXPECT_EQ(t.model, "gpt-4o-mini");
    EXPECT_EQ(t.provider, "openai");
    EXPECT_EQ(t.session, "s-openinference");
    EXPECT_EQ(t.endUser, "u-openinference");
    EXPECT_EQ(m->metadata->getValue<std::string>("semantic_kind"), "llm");
    auto messages = messagesOf(*m);
    ASSERT_TRUE(messages) << m->event.payloadJson;
    EXPECT_GT(messages->getArray("input")->size(), 0u);
    EXPECT_GT(messages->getArray("output")->size(), 0u);
    expectNoRawMessages(*m);
  }
  // Non-streamed calls report usage (OpenInference records none for streamed chat).
  int withUsage = 0;
  for (const auto* m : llm)
    if (m->event.telemetry.inputTokens) {
      ++withUsage;
      EXPECT_EQ(m->event.telemetry.inputTokens, 11);
      EXPECT_EQ(m->event.telemetry.outputTokens, 7);
      EXPECT_TRUE(m->event.telemetry.costUsd);
    }
  EXPECT_EQ(withUsage, 3);
  // The call whose answer is a tool call names the tool.
  int requested = 0;
  for (const auto* m : llm)
    if (m->event.telemetry.tool == "get_weather") ++requested;
  EXPECT_EQ(requested, 1);
}

TEST(OtlpConventionFixtures, OpenLlmetryOpenAi) {
  auto events = mapped("openllmetry");
  auto llm = ofType(events, "agent.message");
  ASSERT_EQ(llm.size(), 4u);
  for (const auto* m : llm) {
    EXPECT_EQ(m->event.telemetry.model, "gpt-4o-mini");
    EXPECT_EQ(m->event.telemetry.provider, "openai");
    ASSERT_TRUE(messagesOf(*m)) << m->event.identifier;
    expectNoRawMessages(*m);
  }
  EXPECT_EQ(llm[0]->event.telemetry.inputTokens, 11);
  EXPECT_EQ(llm[0]->event.telemetry.outputTokens, 7);
  EXPECT_EQ(llm[0]->event.telemetry.finishReason, "stop");
}

TEST(OtlpConventionFixtures, OpenTelemetryContribOpenAi) {
  auto events = mapped("otel-contrib");
  auto llm = ofType(events, "agent.message");
  ASSERT_EQ(llm.size(), 4u);
  for (const auto* m : llm) {  // streamed with include_usage too
    EXPECT_EQ(m->event.telemetry.model, "gpt-4o-mini");
    EXPECT_EQ(m->event.telemetry.provider, "openai");
    EXPECT_EQ(m->event.telemetry.inputTokens, 11);
    EXPECT_EQ(m->event.telemetry.outputTokens, 7);
  }
  auto errors = ofType(events, "agent.error");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(errors[0]->event.isError);
  EXPECT_TRUE(errors[0]->event.telemetry.errorType);
  EXPECT_EQ(errors[0]->metadata->getValue<std::string>("semantic_kind"), "llm");
}

TEST(OtlpConventionFixtures, VercelAiSdk) {
  auto events = mapped("ai-sdk");
  std::int64_t input = 0;
  for (const auto& e : events) {
    const auto& t = e.event.telemetry;
    EXPECT_EQ(t.session, "s-ai-sdk") << e.event.identifier;
    EXPECT_EQ(t.endUser, "u-ai-sdk");
    EXPECT_EQ(t.traceName, "interop-ai-sdk");
    input += t.inputTokens.value_or(0);
  }
  // Usage counted once: on the provider calls, not again on the outer generateText.
  auto calls = ofType(events, "agent.message");
  ASSERT_EQ(calls.size(), 4u);  // one generate, one stream, two steps of the tool loop
  EXPECT_EQ(input, 4 * 11);
  for (const auto* m : calls) {
    EXPECT_EQ(m->event.telemetry.model, "gpt-4o-mini");
    EXPECT_EQ(m->event.telemetry.provider, "openai");
    ASSERT_TRUE(messagesOf(*m)) << m->event.identifier;
    expectNoRawMessages(*m);
  }
  auto tools = ofType(events, "agent.tool_call.end");
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_EQ(tools[0]->event.telemetry.tool, "get_weather");
  auto failed = ofType(events, "agent.error");
  EXPECT_EQ(failed.size(), 2u);  // the provider call and its generateText
  for (const auto& e : events) {
    if (e.event.identifier == "ai.generateText" || e.event.identifier == "ai.streamText") {
      EXPECT_EQ(e.metadata->getValue<std::string>("semantic_kind"), "chain");
    }
  }
}

TEST(OtlpConventionFixtures, LangfuseSdk) {
  auto events = mapped("langfuse");
  ASSERT_EQ(events.size(), 3u);
  for (const auto& e : events) {
    const auto& t = e.event.telemetry;
    EXPECT_EQ(t.session, "s-langfuse");
    EXPECT_EQ(t.endUser, "u-langfuse");
    EXPECT_EQ(t.traceName, "interop-langfuse");
    EXPECT_EQ(t.environment, "ci");
    EXPECT_EQ(t.release, "r1");
    ASSERT_EQ(t.attributes.size(), 1u);
    EXPECT_EQ(t.attributes[0].first, "interop");
  }
  auto llm = ofType(events, "agent.message");
  ASSERT_EQ(llm.size(), 2u);
  const auto& g = llm[0]->event.telemetry;
  EXPECT_EQ(g.model, "gpt-4o-mini");
  EXPECT_EQ(g.inputTokens, 11);
  EXPECT_EQ(g.outputTokens, 7);
  ASSERT_TRUE(g.costUsd);
  EXPECT_DOUBLE_EQ(*g.costUsd, 0.0005);
  ASSERT_TRUE(messagesOf(*llm[0]));
  EXPECT_EQ(messagesOf(*llm[0])->getArray("output")->getObject(0)->getValue<std::string>("content"),
            "Hello from the fake model.");
  EXPECT_EQ(llm[1]->event.telemetry.status, "error");  // level ERROR
  auto tools = ofType(events, "agent.tool_call.end");
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_EQ(tools[0]->event.identifier, "get_weather");
  EXPECT_EQ(tools[0]->event.telemetry.tool, "get_weather");  // named after the observation
}

TEST(OtlpConventionFixtures, OpenAiAgentsThroughOpenInference) {
  auto events = mapped("openai-agents");
  auto agents = ofType(events, "agent.end");
  std::vector<std::string> names;
  for (const auto* a : agents)
    if (a->event.agentId) names.push_back(*a->event.agentId);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"Triage", "Weather"}));
  auto handoffs = ofType(events, "agent.handoff");
  ASSERT_EQ(handoffs.size(), 1u);
  EXPECT_EQ(handoffs[0]->metadata->getValue<std::string>("handoff_to"), "Weather");
  EXPECT_FALSE(handoffs[0]->event.telemetry.tool);  // a hand-off is not a tool
  auto tools = ofType(events, "agent.tool_call.end");
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_EQ(tools[0]->event.telemetry.tool, "get_weather");
  auto llm = ofType(events, "agent.message");
  ASSERT_EQ(llm.size(), 3u);
  for (const auto* m : llm) {
    EXPECT_EQ(m->event.telemetry.model, "gpt-4o-mini");
    ASSERT_TRUE(messagesOf(*m));
    expectNoRawMessages(*m);
  }
  // The triage model's transfer_to_weather call is a hand-off request, not a tool.
  int requestedTools = 0;
  for (const auto* m : llm) {
    if (!m->event.telemetry.tool) continue;
    ++requestedTools;
    EXPECT_EQ(m->event.telemetry.tool, "get_weather");
  }
  EXPECT_EQ(requestedTools, 1);
}

}  // namespace
}  // namespace aev::otlp

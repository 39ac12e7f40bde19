// The convention table (telemetry/conventions.h) and message normalisation (telemetry/messages.h):
// precedence between conventions, span kinds and hand-offs, value normalisation, and each
// convention's messages in the one shape.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>
#include <gtest/gtest.h>

#include <sstream>

#include "telemetry/conventions.h"
#include "telemetry/extractor.h"
#include "telemetry/messages.h"

namespace aev::telemetry {
namespace {

using conventions::Field;
using conventions::Kind;

Poco::JSON::Object::Ptr object(const std::string& json) {
  return Poco::JSON::Parser().parse(json).extract<Poco::JSON::Object::Ptr>();
}

std::string condensed(const Poco::Dynamic::Var& v) {
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(v, out);
  return out.str();
}

store::NewEvent extracted(const std::string& metadata, const std::string& identifier = "span",
                          const std::string& eventType = "custom") {
  static const Extractor extractor(PriceTable::builtIn());
  store::NewEvent e;
  e.eventType = eventType;
  e.source = "otlp";
  e.identifier = identifier;
  EXPECT_TRUE(extractor.apply(e, object("{}"), object(metadata), "span").empty());
  return e;
}

TEST(TelemetryConventions, PrecedenceFollowsTheDecisions) {
  // agent-events > langfuse.* > gen_ai.* > OpenInference > traceloop.* > ai.* > deprecated.
  auto m = object(R"({"ai.model.id":"m-ai","llm.model_name":"m-oi","gen_ai.request.model":"m-otel",
                      "langfuse.observation.model.name":"m-lf"})");
  EXPECT_EQ(conventions::text(m, Field::Model), "m-lf");
  m->set("model", std::string("m-ae"));
  EXPECT_EQ(conventions::text(m, Field::Model), "m-ae");
  EXPECT_EQ(conventions::text(m, Field::Model, true), "m-lf");  // conventions only
  m = object(R"({"ai.model.id":"m-ai","llm.model_name":"m-oi"})");
  EXPECT_EQ(conventions::text(m, Field::Model), "m-oi");
  // The response model only when no request model is sent.
  EXPECT_EQ(conventions::text(object(R"({"gen_ai.response.model":"resp"})"), Field::Model), "resp");
  EXPECT_EQ(conventions::text(object(R"({"gen_ai.response.model":"resp","ai.model.id":"req"})"), Field::Model), "req");
}

TEST(TelemetryConventions, EveryFieldHasRowsAndEveryRowKeyIsUniquePerField) {
  for (auto field :
       {Field::Model,         Field::Provider,        Field::InputTokens,  Field::OutputTokens, Field::TotalTokens,
        Field::CachedTokens,  Field::ReasoningTokens, Field::CostUsd,      Field::Tool,         Field::Agent,
        Field::HandoffTarget, Field::ErrorType,       Field::ErrorMessage, Field::FinishReason, Field::Session,
        Field::EndUser,       Field::Environment,     Field::Release,      Field::Tags,         Field::TraceName}) {
    auto rows = conventions::rowsOf(field);
    EXPECT_FALSE(rows.empty());
    // Rows of one field are in convention order, agent-events first.
    for (std::size_t i = 1; i < rows.size(); ++i) {
      if (rows[i].convention == conventions::Convention::AgentEvents) {
        EXPECT_EQ(rows[i - 1].convention, conventions::Convention::AgentEvents) << rows[i].key;
      }
    }
  }
}

TEST(TelemetryConventions, ProvidersAndFinishReasonsAreNormalised) {
  EXPECT_EQ(conventions::text(object(R"({"ai.model.provider":"openai.chat"})"), Field::Provider), "openai");
  EXPECT_EQ(conventions::text(object(R"({"gen_ai.system":"openai.responses"})"), Field::Provider), "openai");
  EXPECT_EQ(conventions::text(object(R"({"llm.system":"xai"})"), Field::Provider), "x_ai");
  EXPECT_EQ(conventions::text(object(R"({"llm.provider":"mistralai"})"), Field::Provider), "mistral_ai");
  EXPECT_EQ(conventions::text(object(R"({"gen_ai.system":"az.ai.openai"})"), Field::Provider), "azure.ai.openai");
  // agent-events' own keys (POST /event metadata) are normalised the same way.
  EXPECT_EQ(conventions::text(object(R"({"provider":"xai"})"), Field::Provider), "x_ai");
  for (const char* sent : {"openai", "OpenAI", "openai.chat", "OPENAI"})
    EXPECT_EQ(conventions::text(object(std::string(R"({"provider":")") + sent + R"("})"), Field::Provider), "openai")
        << sent;
  for (const char* sent : {"stop", "STOP", "end_turn", "stop_sequence"})
    EXPECT_EQ(conventions::text(object(std::string(R"({"finish_reason":")") + sent + R"("})"), Field::FinishReason),
              "stop")
        << sent;
  EXPECT_EQ(conventions::text(object(R"({"finish_reason":"max_tokens"})"), Field::FinishReason), "length");
  EXPECT_EQ(conventions::text(object(R"({"finish_reason":"tool_use"})"), Field::FinishReason), "tool_call");
  EXPECT_EQ(conventions::text(object(R"({"finish_reason":"SAFETY"})"), Field::FinishReason), "content_filter");
  EXPECT_EQ(conventions::text(object(R"({"finish_reason":"Other"})"), Field::FinishReason), "other");
  EXPECT_EQ(conventions::text(object(R"({"llm.finish_reason":"tool_calls"})"), Field::FinishReason), "tool_call");
  EXPECT_EQ(conventions::text(object(R"({"ai.response.finishReason":"tool-calls"})"), Field::FinishReason),
            "tool_call");
  EXPECT_EQ(conventions::text(object(R"({"gen_ai.response.finish_reasons":["stop","length"]})"), Field::FinishReason),
            "stop");
}

TEST(TelemetryConventions, LangfuseUsageAndCostAreJsonText) {
  // @langfuse/openai subtracts cached tokens from input: they are added back.
  auto m = object(
      R"({"langfuse.observation.usage_details":"{\"input\":80,\"input_cached_tokens\":20,\"output\":5,\"total\":105}",
                      "langfuse.observation.cost_details":"{\"input\":0.001,\"output\":0.002}"})");
  EXPECT_EQ(conventions::number(m, Field::InputTokens), 100);
  EXPECT_EQ(conventions::number(m, Field::OutputTokens), 5);
  EXPECT_EQ(conventions::number(m, Field::TotalTokens), 105);
  EXPECT_EQ(conventions::number(m, Field::CachedTokens), 20);
  EXPECT_DOUBLE_EQ(*conventions::number(m, Field::CostUsd), 0.003);
  m = object(R"({"langfuse.observation.cost_details":"{\"total\":0.5,\"input\":0.1}"})");
  EXPECT_DOUBLE_EQ(*conventions::number(m, Field::CostUsd), 0.5);
  m = object(R"({"langfuse.observation.usage_details":"not json"})");
  EXPECT_FALSE(conventions::number(m, Field::InputTokens));
}

TEST(TelemetryConventions, SpanKinds) {
  struct Row {
    const char* attributes;
    const char* name;
    Kind kind;
  };
  const Row rows[] = {
      {R"({"gen_ai.operation.name":"chat"})", "chat gpt-4o", Kind::Llm},
      {R"({"gen_ai.operation.name":"execute_tool"})", "execute_tool x", Kind::Tool},
      {R"({"gen_ai.operation.name":"execute_tool","gen_ai.transfer.mode":"pass_control"})", "t", Kind::Handoff},
      {R"({"gen_ai.operation.name":"execute_tool","gen_ai.transfer.mode":"return_to_caller"})", "t", Kind::Tool},
      {R"({"gen_ai.operation.name":"invoke_agent"})", "a", Kind::Agent},
      {R"({"gen_ai.operation.name":"handoff"})", "a → b.handoff", Kind::Handoff},
      {R"({"gen_ai.operation.name":"embeddings"})", "e", Kind::Embedding},
      {R"({"openinference.span.kind":"LLM"})", "OpenAI Chat Completions", Kind::Llm},
      {R"({"openinference.span.kind":"TOOL","tool.name":"get_weather"})", "get_weather", Kind::Tool},
      {R"({"openinference.span.kind":"TOOL"})", "handoff to Spanish", Kind::Handoff},
      {R"({"openinference.span.kind":"TOOL","tool.name":"handoff_to_Spanish"})", "x", Kind::Handoff},
      {R"({"openinference.span.kind":"AGENT"})", "Triage", Kind::Agent},
      {R"({"openinference.span.kind":"CHAIN"})", "turn", Kind::Chain},
      {R"({"openinference.span.kind":"RERANKER"})", "r", Kind::Retriever},
      {R"({"traceloop.span.kind":"workflow"})", "w.workflow", Kind::Chain},
      {R"({"traceloop.span.kind":"handoff"})", "h", Kind::Handoff},
      {R"({"llm.request.type":"chat"})", "openai.chat", Kind::Llm},
      {R"({"ai.operationId":"ai.generateText.doGenerate"})", "ai.generateText.doGenerate", Kind::Llm},
      {R"({"ai.operationId":"ai.streamText.doStream"})", "ai.streamText.doStream", Kind::Llm},
      {R"({"ai.operationId":"ai.generateText"})", "ai.generateText", Kind::Chain},
      {R"({"ai.operationId":"ai.toolCall"})", "ai.toolCall", Kind::Tool},
      {R"({"langfuse.observation.type":"generation","gen_ai.operation.name":"execute_tool"})", "g", Kind::Llm},
      {R"({"langfuse.observation.type":"span"})", "s", Kind::Unknown},
      {R"({})", "plain", Kind::Unknown},
  };
  for (const auto& r : rows)
    EXPECT_EQ(conventions::kindOf(object(r.attributes), r.name), r.kind) << r.attributes << " " << r.name;
  EXPECT_EQ(conventions::eventTypeFor(Kind::Llm, false), "agent.message");
  EXPECT_EQ(conventions::eventTypeFor(Kind::Tool, false), "agent.tool_call.end");
  EXPECT_EQ(conventions::eventTypeFor(Kind::Agent, false), "agent.end");
  EXPECT_EQ(conventions::eventTypeFor(Kind::Handoff, false), "agent.handoff");
  EXPECT_EQ(conventions::eventTypeFor(Kind::Retriever, false), "custom");
  EXPECT_EQ(conventions::eventTypeFor(Kind::Llm, true), "agent.error");
}

TEST(TelemetryConventions, HandoffTargets) {
  EXPECT_EQ(conventions::handoffTarget(object(R"({"gen_ai.transfer.target.name":"b"})"), "x"), "b");
  EXPECT_EQ(conventions::handoffTarget(object(R"({"gen_ai.handoff.to_agent":"b"})"), "x"), "b");
  EXPECT_EQ(conventions::handoffTarget(object(R"({"output.value":"{\"to_agent\":\"Spanish\"}"})"), "x"), "Spanish");
  EXPECT_EQ(conventions::handoffTarget(object(R"({"output.value":"Spanish"})"), "x"), "Spanish");
  EXPECT_EQ(conventions::handoffTarget(object("{}"), "handoff to Spanish"), "Spanish");
  EXPECT_FALSE(conventions::handoffTarget(object("{}"), "other"));
}

TEST(TelemetryConventions, ExtractorReadsEveryConvention) {
  auto oi = extracted(R"({"openinference.span.kind":"LLM","llm.model_name":"gpt-4o-mini","llm.system":"openai",
                          "llm.token_count.prompt":12,"llm.token_count.completion":7,"session.id":"s-1","user.id":"u-1",
                          "tag.tags":["beta","eu"]})");
  EXPECT_EQ(oi.telemetry.model, "gpt-4o-mini");
  EXPECT_EQ(oi.telemetry.provider, "openai");
  EXPECT_EQ(oi.telemetry.inputTokens, 12);
  EXPECT_EQ(oi.telemetry.outputTokens, 7);
  EXPECT_EQ(oi.telemetry.session, "s-1");
  EXPECT_EQ(oi.telemetry.endUser, "u-1");
  ASSERT_EQ(oi.telemetry.attributes.size(), 2u);
  EXPECT_EQ(oi.telemetry.attributes[0], (std::pair<std::string, std::string>{"beta", "true"}));
  EXPECT_TRUE(oi.telemetry.costUsd.has_value());  // list price of gpt-4o-mini

  auto ai = extracted(R"({"ai.operationId":"ai.generateText.doGenerate","ai.model.id":"gpt-4o",
                          "ai.model.provider":"openai.chat","ai.usage.promptTokens":10,"ai.usage.completionTokens":4,
                          "ai.telemetry.functionId":"answer","ai.telemetry.metadata.sessionId":"s-2",
                          "ai.telemetry.metadata.userId":"u-2"})");
  EXPECT_EQ(ai.telemetry.provider, "openai");
  EXPECT_EQ(ai.telemetry.inputTokens, 10);
  EXPECT_EQ(ai.telemetry.traceName, "answer");
  EXPECT_EQ(ai.telemetry.session, "s-2");
  EXPECT_EQ(ai.telemetry.endUser, "u-2");

  // The outer AI SDK span repeats its children's usage: not counted again.
  auto outer = extracted(R"({"ai.operationId":"ai.generateText","ai.model.id":"gpt-4o","ai.usage.promptTokens":10,
                             "ai.usage.completionTokens":4})");
  EXPECT_FALSE(outer.telemetry.inputTokens);
  EXPECT_FALSE(outer.telemetry.outputTokens);
  // ... but an agent-events usage object always counts.
  auto own = extracted(R"({"ai.operationId":"ai.generateText","usage":{"input_tokens":3}})");
  EXPECT_EQ(own.telemetry.inputTokens, 3);

  // A total without an output count gives the output.
  auto total = extracted(R"({"gen_ai.operation.name":"chat","llm.token_count.prompt":10,"llm.token_count.total":15})");
  EXPECT_EQ(total.telemetry.outputTokens, 5);

  auto lf = extracted(R"({"langfuse.observation.type":"generation","langfuse.observation.model.name":"m",
                          "langfuse.trace.name":"checkout","langfuse.environment":"prod","langfuse.release":"r7",
                          "langfuse.observation.level":"ERROR","langfuse.trace.tags":["a"]})");
  EXPECT_EQ(lf.telemetry.traceName, "checkout");
  EXPECT_EQ(lf.telemetry.environment, "prod");
  EXPECT_EQ(lf.telemetry.release, "r7");
  EXPECT_EQ(lf.telemetry.status, "error");
  EXPECT_TRUE(lf.isError);

  // A hand-off is no tool.
  auto handoff = extracted(R"({"semantic_kind":"handoff","tool.name":"handoff_to_b"})");
  EXPECT_FALSE(handoff.telemetry.tool);
}

// Cached (cache-read) input tokens and reasoning tokens, from every convention that sends
// them, stored beside input and output (each a subset of those).
TEST(TelemetryConventions, ExtractorReadsCachedAndReasoningTokensOfEveryConvention) {
  struct Case {
    const char* name;
    const char* metadata;
    std::int64_t cached, reasoning;
  };
  const Case cases[] = {
      {"agent-events",
       R"({"usage":{"input_tokens":100,"output_tokens":40,"cached_input_tokens":30,"reasoning_tokens":12}})", 30, 12},
      {"OTel GenAI", R"({"gen_ai.operation.name":"chat","gen_ai.usage.input_tokens":100,"gen_ai.usage.output_tokens":40,
          "gen_ai.usage.cache_read.input_tokens":31,"gen_ai.usage.reasoning.output_tokens":13})",
       31, 13},
      {"OpenInference",
       R"({"openinference.span.kind":"LLM","llm.token_count.prompt":100,"llm.token_count.completion":40,
          "llm.token_count.prompt_details.cache_read":32,"llm.token_count.completion_details.reasoning":14})",
       32, 14},
      {"OpenLLMetry", R"({"traceloop.span.kind":"llm","llm.request.type":"chat","gen_ai.usage.input_tokens":100,
          "gen_ai.usage.output_tokens":40,"gen_ai.usage.cache_read_input_tokens":33,"llm.usage.reasoning_tokens":15})",
       33, 15},
      {"Vercel AI SDK", R"({"ai.operationId":"ai.generateText.doGenerate","ai.usage.inputTokens":100,
          "ai.usage.outputTokens":40,"ai.usage.cachedInputTokens":34,"ai.usage.reasoningTokens":16})",
       34, 16},
      {"Langfuse", R"({"langfuse.observation.type":"generation",
          "langfuse.observation.usage_details":"{\"input\":70,\"input_cached_tokens\":35,\"output\":24,\"output_reasoning_tokens\":17}"})",
       35, 17},
  };
  for (const auto& c : cases) {
    auto e = extracted(c.metadata);
    EXPECT_EQ(e.telemetry.cachedInputTokens, c.cached) << c.name;
    EXPECT_EQ(e.telemetry.reasoningTokens, c.reasoning) << c.name;
    EXPECT_TRUE(e.telemetry.inputTokens.has_value()) << c.name;
  }
  // None sent: none stored.
  auto plain = extracted(R"({"gen_ai.operation.name":"chat","gen_ai.usage.input_tokens":5})");
  EXPECT_FALSE(plain.telemetry.cachedInputTokens);
  EXPECT_FALSE(plain.telemetry.reasoningTokens);
  // An outer span that repeats its children's usage counts none of it, details included.
  auto outer =
      extracted(R"({"ai.operationId":"ai.generateText","ai.usage.inputTokens":100,"ai.usage.cachedInputTokens":34})");
  EXPECT_FALSE(outer.telemetry.cachedInputTokens);
}

// ------------------------------------------------------------------ messages

Poco::JSON::Object::Ptr normalised(const std::string& metadata, std::size_t maxChars = 32768) {
  auto m = object(metadata);
  auto lists = takeMessages(*m, maxChars);
  EXPECT_TRUE(lists) << metadata;
  auto out = lists ? lists->toObject() : nullptr;
  // Every message attribute left the metadata (finish reasons stay).
  for (const auto& [key, value] : *m) {
    EXPECT_EQ(key.find("messages"), std::string::npos) << key;
    EXPECT_TRUE(key.rfind("gen_ai.prompt", 0) != 0) << key;
    EXPECT_TRUE(key.find(".value") == std::string::npos) << key;
  }
  return out;
}

TEST(TelemetryMessages, OtelPartsWithSystemInstructionsAndToolCalls) {
  auto m = normalised(R"({"gen_ai.system_instructions":"[{\"type\":\"text\",\"content\":\"be brief\"}]",
    "gen_ai.input.messages":"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"weather?\"}]}]",
    "gen_ai.output.messages":[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"get_weather",
                               "arguments":{"city":"Paris"}}],"finish_reason":"tool_call"}]})");
  EXPECT_EQ(condensed(m),
            R"({"input":[{"role":"system","content":"be brief"},{"role":"user","content":"weather?"}],)"
            R"("output":[{"role":"assistant","content":null,"toolCalls":[{"id":"c1","name":"get_weather",)"
            R"("arguments":"{\"city\":\"Paris\"}"}]}]})");
  EXPECT_EQ(requestedTool(m), "get_weather");
}

TEST(TelemetryMessages, OpenInferenceIndexedInNumericOrder) {
  std::string metadata = R"({"openinference.span.kind":"LLM")";
  for (int i = 0; i <= 10; ++i)
    metadata += ",\"llm.input_messages." + std::to_string(i) + ".message.role\":\"user\",\"llm.input_messages." +
                std::to_string(i) + ".message.content\":\"m" + std::to_string(i) + "\"";
  metadata += R"(,"llm.output_messages.0.message.role":"assistant",
    "llm.output_messages.0.message.tool_calls.0.tool_call.id":"call_1",
    "llm.output_messages.0.message.tool_calls.0.tool_call.function.name":"get_weather",
    "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments":"{\"city\":\"Paris\"}",
    "input.value":"{\"messages\":[]}","input.mime_type":"application/json"})";
  auto m = normalised(metadata);
  auto input = m->getArray("input");
  ASSERT_EQ(input->size(), 11u);
  EXPECT_EQ(input->getObject(9)->getValue<std::string>("content"), "m9");
  EXPECT_EQ(input->getObject(10)->getValue<std::string>("content"), "m10");
  EXPECT_EQ(condensed(m->getArray("output")),
            R"([{"role":"assistant","content":null,"toolCalls":[{"id":"call_1","name":"get_weather",)"
            R"("arguments":"{\"city\":\"Paris\"}"}]}])");
}

TEST(TelemetryMessages, OpenLlmetryIndexedKeepsFinishReasons) {
  auto meta = object(R"({"gen_ai.prompt.0.role":"user","gen_ai.prompt.0.content":"hi",
    "gen_ai.completion.0.role":"assistant","gen_ai.completion.0.content":"hello",
    "gen_ai.completion.0.finish_reason":"stop"})");
  auto m = takeMessages(*meta, 100);
  ASSERT_TRUE(m);
  EXPECT_EQ(condensed(m->toObject()),
            R"({"input":[{"role":"user","content":"hi"}],"output":[{"role":"assistant","content":"hello"}]})");
  EXPECT_TRUE(meta->has("gen_ai.completion.0.finish_reason"));
  EXPECT_FALSE(meta->has("gen_ai.prompt.0.content"));
}

// Message attributes are read as JSON only when they are a JSON array or object: a JSON
// string stays the text it is (quotes included), and text that is not well-formed JSON
// (here an unpaired surrogate) stays text too.
TEST(TelemetryMessages, TextThatIsNotAJsonListOrObjectStaysText) {
  auto quoted = normalised(R"({"langfuse.observation.input":"\"hello\"","langfuse.observation.output":"[1,"})");
  EXPECT_EQ(condensed(quoted), R"({"input":[{"role":"user","content":"\"hello\""}],)"
                               R"("output":[{"role":"assistant","content":"[1,"}]})");
  auto surrogate = normalised(R"({"gen_ai.prompt":"[\"\\ud800\"]"})");
  EXPECT_EQ(condensed(surrogate->getArray("input")), R"([{"role":"user","content":"[\"\\ud800\"]"}])");
}

TEST(TelemetryMessages, AiSdkPromptAndResponse) {
  auto m =
      normalised(R"({"ai.prompt.messages":"[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}]",
    "ai.response.text":"hello","ai.response.toolCalls":"[{\"toolCallType\":\"function\",\"toolCallId\":\"t1\",\"toolName\":\"add\",\"args\":\"{\\\"a\\\":1}\"}]"})");
  EXPECT_EQ(condensed(m),
            R"({"input":[{"role":"user","content":"hi"}],"output":[{"role":"assistant","content":"hello",)"
            R"("toolCalls":[{"id":"t1","name":"add","arguments":"{\"a\":1}"}]}]})");
  auto prompt = normalised(R"({"ai.prompt":"{\"system\":\"sys\",\"prompt\":\"hi\"}"})");
  EXPECT_EQ(condensed(prompt->getArray("input")),
            R"([{"role":"system","content":"sys"},{"role":"user","content":"hi"}])");
}

TEST(TelemetryMessages, LangfuseAndRawOpenAiValues) {
  auto lf = normalised(R"({"langfuse.observation.input":"[{\"role\":\"user\",\"content\":\"q\"}]",
                           "langfuse.observation.output":"{\"role\":\"assistant\",\"content\":\"a\"}"})");
  EXPECT_EQ(condensed(lf),
            R"({"input":[{"role":"user","content":"q"}],"output":[{"role":"assistant","content":"a"}]})");
  auto raw = normalised(R"({"input.value":"plain question",
    "output.value":"{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"ok\"}}]}"})");
  EXPECT_EQ(condensed(raw), R"({"input":[{"role":"user","content":"plain question"}],)"
                            R"("output":[{"role":"assistant","content":"ok"}]})");
}

TEST(TelemetryMessages, TextIsBoundedWithAVisibleMarkerKeepingWholeCharacters) {
  std::size_t budget = 3;
  EXPECT_EQ(bounded("h\xC3\xA9llo", budget), "h\xC3\xA9l\xE2\x80\xA6[+2 chars]");
  EXPECT_EQ(budget, 0u);
  EXPECT_EQ(bounded("more", budget), "\xE2\x80\xA6[+4 chars]");
  budget = 10;
  EXPECT_EQ(bounded("short", budget), "short");
  EXPECT_EQ(budget, 5u);
  auto m = normalised(R"({"gen_ai.input.messages":[{"role":"user","content":"abcdef"}],
                          "gen_ai.output.messages":[{"role":"assistant","content":"xyz"}]})",
                      4);
  EXPECT_EQ(condensed(m),
            "{\"input\":[{\"role\":\"user\",\"content\":\"abcd\xE2\x80\xA6[+2 chars]\"}],"
            "\"output\":[{\"role\":\"assistant\",\"content\":\"\xE2\x80\xA6[+3 chars]\"}]}");
}

TEST(TelemetryMessages, OnlyLlmCallsCarryMessages) {
  EXPECT_TRUE(carriesMessages(object(R"({"gen_ai.input.messages":"[]"})"), "agent.message", "x"));
  EXPECT_TRUE(carriesMessages(object(R"({"openinference.span.kind":"LLM","input.value":"q"})"), "agent.error", "x"));
  // A tool span's input.value is its arguments, not a prompt.
  EXPECT_FALSE(carriesMessages(object(R"({"openinference.span.kind":"TOOL","input.value":"{}"})"), "custom", "x"));
  EXPECT_FALSE(carriesMessages(object(R"({"model":"m"})"), "agent.message", "x"));
  EXPECT_FALSE(carriesMessages(nullptr, "agent.message", "x"));
}

TEST(TelemetryMessages, TransferRequestsAreNotTools) {
  auto m =
      object(R"({"output":[{"role":"assistant","toolCalls":[{"name":"transfer_to_spanish"},{"name":"lookup"}]}]})");
  EXPECT_EQ(requestedTool(m), "lookup");
}

}  // namespace
}  // namespace aev::telemetry

// otlp/duplicate_spans.h: two instrumentations' spans of one LLM call count its usage once.
#include <Poco/JSON/Object.h>
#include <gtest/gtest.h>

#include "otlp/duplicate_spans.h"
#include "telemetry/extractor.h"

namespace aev::otlp {
namespace {

AnyValue text(std::string s) {
  AnyValue v;
  v.kind = AnyValue::Kind::String;
  v.text = std::move(s);
  return v;
}

AnyValue integer(std::int64_t i) {
  AnyValue v;
  v.kind = AnyValue::Kind::Int;
  v.integer = i;
  return v;
}

constexpr std::uint64_t kStart = 1'700'000'000'000'000'000ULL;
constexpr std::uint64_t kMs = 1'000'000ULL;

// An LLM span of trace 0x11..: `spanByte` names it, times in ms after kStart.
Span llmSpan(char spanByte, std::vector<KeyValue> attributes, std::uint64_t fromMs, std::uint64_t toMs) {
  Span s;
  s.traceId = std::string(16, '\x11');
  s.spanId = std::string(8, spanByte);
  s.name = "openai.chat";
  s.startTimeUnixNano = kStart + fromMs * kMs;
  s.endTimeUnixNano = kStart + toMs * kMs;
  s.attributes = std::move(attributes);
  return s;
}

// OpenInference's and OpenLLMetry's spans of one chat completion (gpt-4o-mini, 12 in, 7 out).
std::vector<KeyValue> openInference(std::int64_t input = 12) {
  return {{"openinference.span.kind", text("LLM")},
          {"llm.model_name", text("gpt-4o-mini")},
          {"llm.token_count.prompt", integer(input)},
          {"llm.token_count.completion", integer(7)}};
}
std::vector<KeyValue> openLlmetry() {
  return {{"llm.request.type", text("chat")},
          {"gen_ai.request.model", text("gpt-4o-mini")},
          {"gen_ai.usage.input_tokens", integer(12)},
          {"gen_ai.usage.output_tokens", integer(7)}};
}

std::vector<SpanEvent> eventsOf(std::vector<std::pair<std::string, Span>> scoped) {
  ResourceSpans rs;
  for (auto& [scopeName, span] : scoped) {
    ScopeSpans scope;
    scope.scopeName = scopeName;
    scope.spans.push_back(std::move(span));
    rs.scopeSpans.push_back(std::move(scope));
  }
  TraceRequest req;
  req.resourceSpans.push_back(std::move(rs));
  auto batch = spanEvents(req);
  EXPECT_TRUE(batch.rejected.empty());
  return batch.events;
}

store::NewEvent extracted(const SpanEvent& s) {
  static const telemetry::Extractor extractor(telemetry::PriceTable::builtIn());
  store::NewEvent e;
  e.eventType = s.eventType;
  e.identifier = s.identifier;
  e.source = "otlp";
  EXPECT_TRUE(extractor.apply(e, s.payload, s.metadata, "span").empty());
  return e;
}

TEST(OtlpDuplicateSpans, TwoInstrumentationsOfOneCallCountItsUsageOnce) {
  auto events = eventsOf({{"@arizeai/openinference-instrumentation-openai", llmSpan('\x22', openInference(), 0, 900)},
                          {"@traceloop/instrumentation-openai", llmSpan('\x33', openLlmetry(), 5, 905)}});
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(markDuplicateLlmSpans(events), 1u);
  EXPECT_FALSE(events[0].metadata->has("duplicate_of"));
  EXPECT_EQ(events[1].metadata->getValue<std::string>("duplicate_of"), events[0].spanId);
  EXPECT_NE(events[1].metadataJson.find("\"duplicate_of\":\"" + events[0].spanId + "\""), std::string::npos);

  auto kept = extracted(events[0]);
  auto repeated = extracted(events[1]);
  EXPECT_EQ(kept.telemetry.inputTokens, 12);
  EXPECT_EQ(kept.telemetry.outputTokens, 7);
  EXPECT_TRUE(kept.telemetry.costUsd);
  EXPECT_EQ(repeated.telemetry.model, "gpt-4o-mini");  // the event stays, with its model
  EXPECT_FALSE(repeated.telemetry.inputTokens);
  EXPECT_FALSE(repeated.telemetry.outputTokens);
  EXPECT_FALSE(repeated.telemetry.costUsd);
}

// The mapping reads an LLM span's model and usage from the decoded attributes (llmUsage);
// events without it (made elsewhere) are read from the metadata object: the same answer.
TEST(OtlpDuplicateSpans, TheMappingsReadingOfTheCallIsTheMetadataObjects) {
  const char* oi = "@arizeai/openinference-instrumentation-openai";
  const char* tl = "@traceloop/instrumentation-openai";
  auto events =
      eventsOf({{oi, llmSpan('\x22', openInference(), 0, 900)}, {tl, llmSpan('\x33', openLlmetry(), 5, 905)}});
  ASSERT_EQ(events.size(), 2u);
  for (const auto& e : events) {
    ASSERT_TRUE(e.llmUsage);
    EXPECT_EQ(e.llmUsage->model, "gpt-4o-mini");
    EXPECT_EQ(e.llmUsage->inputTokens, 12);
    EXPECT_EQ(e.llmUsage->outputTokens, 7);
  }
  auto withoutReading = events;
  for (auto& e : withoutReading) e.llmUsage.reset();
  EXPECT_EQ(markDuplicateLlmSpans(withoutReading), 1u);
  EXPECT_EQ(withoutReading[1].metadata->getValue<std::string>("duplicate_of"), events[0].spanId);
  // A span that is no LLM call carries no reading.
  Span tool = llmSpan('\x44', openInference(), 0, 900);
  tool.attributes.push_back({"openinference.span.kind", text("TOOL")});  // the last of a key counts
  EXPECT_FALSE(eventsOf({{oi, tool}}).front().llmUsage);
}

TEST(OtlpDuplicateSpans, OnlyTheSameCallFromAnotherInstrumentationIsADuplicate) {
  const char* oi = "@arizeai/openinference-instrumentation-openai";
  const char* tl = "@traceloop/instrumentation-openai";
  // One instrumentation's two alike calls (parallel, same prompt) are two calls.
  auto same =
      eventsOf({{oi, llmSpan('\x22', openInference(), 0, 900)}, {oi, llmSpan('\x33', openInference(), 0, 900)}});
  EXPECT_EQ(markDuplicateLlmSpans(same), 0u);
  // One after the other: two calls.
  auto apart =
      eventsOf({{oi, llmSpan('\x22', openInference(), 0, 900)}, {tl, llmSpan('\x33', openLlmetry(), 901, 1500)}});
  EXPECT_EQ(markDuplicateLlmSpans(apart), 0u);
  // Other token counts: another call.
  auto other =
      eventsOf({{oi, llmSpan('\x22', openInference(13), 0, 900)}, {tl, llmSpan('\x33', openLlmetry(), 0, 900)}});
  EXPECT_EQ(markDuplicateLlmSpans(other), 0u);
  // Spans without a scope name cannot be told apart: both count.
  auto unnamed =
      eventsOf({{"", llmSpan('\x22', openInference(), 0, 900)}, {"", llmSpan('\x33', openLlmetry(), 0, 900)}});
  EXPECT_EQ(markDuplicateLlmSpans(unnamed), 0u);
}

// Many alike calls of one instrumentation skip comparing with each other (one scope kept):
// a span of another instrumentation after them is still matched with the first it overlaps,
// and a span of the first scope after that is again another call.
TEST(OtlpDuplicateSpans, ManyCallsOfOneInstrumentationThenAnotherInstrumentationsSpan) {
  const char* oi = "@arizeai/openinference-instrumentation-openai";
  const char* tl = "@traceloop/instrumentation-openai";
  std::vector<std::pair<std::string, Span>> scoped;
  for (char id = '\x41'; id < '\x51'; ++id) scoped.push_back({oi, llmSpan(id, openInference(), 0, 900)});
  scoped.push_back({tl, llmSpan('\x61', openLlmetry(), 5, 905)});
  scoped.push_back({oi, llmSpan('\x62', openInference(), 10, 910)});
  auto events = eventsOf(std::move(scoped));
  ASSERT_EQ(events.size(), 18u);
  EXPECT_EQ(markDuplicateLlmSpans(events), 1u);
  EXPECT_EQ(events[16].metadata->getValue<std::string>("duplicate_of"), events[0].spanId);
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i != 16) {
      EXPECT_FALSE(events[i].metadata->has("duplicate_of")) << i;
    }
  }
}

}  // namespace
}  // namespace aev::otlp

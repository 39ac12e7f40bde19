// A span's metadata held flat (otlp/span_metadata.h, telemetry/flat_metadata.h: what POST
// /v1/traces hands the publisher) against the object the same span makes (SpanTexts::
// Condensed, the reader it replaces): the same text, the same members, the same readings by
// the convention table, the same messages moved out and the same telemetry columns, on the
// spans recorded from the npm instrumentations and on tricky spans (keys that are also the
// aliases and span facts the mapping adds, duplicate keys, exception events, bytes, NaN,
// nested values, an empty key).
#include <Poco/JSON/Object.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "common/json_condense.h"
#include "events/publisher.h"
#include "otlp/duplicate_spans.h"
#include "otlp/span_events.h"
#include "otlp/trace_decode.h"
#include "otlp_submission.h"
#include "otlp_values.h"
#include "telemetry/extractor.h"
#include "telemetry/messages.h"

namespace aev::otlp {
namespace {

namespace conventions = telemetry::conventions;
using conventions::Field;

std::string shown(const std::optional<Poco::Dynamic::Var>& v) { return v ? condensedJsonAnyOrder(*v) : "(none)"; }

std::string readFixture(const std::string& scenario) {
  std::ifstream in(std::string(AEV_OTLP_FIXTURES) + "/" + scenario + ".json");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// What the publisher's extract step stores of an event, and its telemetry.
std::string extracted(const SpanEvent& span, bool flat) {
  static const telemetry::Extractor extractor(telemetry::PriceTable::builtIn());
  events::Submission s = spanSubmission(span);
  if (flat) {
    s.flatMetadata = span.flatMetadata;
  } else {
    // As the route handed the object on before: a fresh one, which the extract step changes.
    s.metadata = new Poco::JSON::Object(*span.metadata);
  }
  s.payloadInTextOrder = true;
  s.textsFromObjects = true;
  try {
    events::Publisher::extract(extractor, s);
  } catch (const ApiError& e) {
    return std::string("refused ") + e.what();
  }
  const auto& t = s.event.telemetry;
  std::ostringstream out;
  out.precision(17);
  out << s.event.payloadJson << '\n'
      << s.event.metadataJson.value_or("-") << '\n'
      << t.model.value_or("-") << ' ' << t.provider.value_or("-") << ' ' << t.status.value_or("-") << ' '
      << t.tool.value_or("-") << ' ' << t.semanticKind.value_or("-") << ' ' << t.session.value_or("-") << ' '
      << t.environment.value_or("-") << ' ' << t.inputTokens.value_or(-1) << ' ' << t.outputTokens.value_or(-1) << ' '
      << t.costUsd.value_or(-1) << ' ' << t.durationMs.value_or(-1) << ' ' << t.errorType.value_or("-") << ' '
      << s.event.isError;
  for (const auto& [k, v] : t.attributes) out << " [" << k << "]=" << v;
  return out.str();
}

// The flat metadata of each event of `request` against the object of the same event.
void expectSameMetadata(const TraceRequest& request, const std::string& what) {
  const SpanBatch objects = spanEvents(request, SpanTexts::Condensed);
  const SpanBatch flats = spanEvents(request, SpanTexts::Deferred);
  ASSERT_EQ(objects.events.size(), flats.events.size()) << what;
  for (std::size_t i = 0; i < objects.events.size(); ++i) {
    const auto& object = objects.events[i].metadata;
    ASSERT_TRUE(flats.events[i].flatMetadata) << what << " " << i;
    const auto& flat = *flats.events[i].flatMetadata;
    const std::string at = what + " span " + std::to_string(i);
    EXPECT_EQ(flat.text(), objects.events[i].metadataJson) << at;
    EXPECT_EQ(condensedJson(flat.toObject()), objects.events[i].metadataJson) << at;
    ASSERT_EQ(flat.members().size(), object->size()) << at;
    for (const auto& [key, value] : *object)
      EXPECT_EQ(shown(std::optional<Poco::Dynamic::Var>(value)), shown(flat.member(key))) << at << " " << key;
    const conventions::Lookup fromObject(object);
    const auto view = flat.lookup();
    for (int f = 0; f <= static_cast<int>(Field::DurationMs); ++f) {
      const auto field = static_cast<Field>(f);
      EXPECT_EQ(fromObject.text(field), view.text(field)) << at << " field " << f;
      EXPECT_EQ(fromObject.number(field), view.number(field)) << at << " field " << f;
      EXPECT_EQ(fromObject.textList(field), view.textList(field)) << at << " field " << f;
    }
    const std::string identifier = objects.events[i].identifier, type = objects.events[i].eventType;
    EXPECT_EQ(telemetry::carriesMessages(object, type, identifier), telemetry::carriesMessages(flat, type, identifier))
        << at;
    EXPECT_EQ(extracted(objects.events[i], false), extracted(flats.events[i], true)) << at;
    EXPECT_EQ(objects.events[i].llmUsage.has_value(), flats.events[i].llmUsage.has_value()) << at;
  }
}

TEST(OtlpFlatMetadata, RecordedSpansOfEveryConventionMatchTheirObjects) {
  for (const char* scenario : {"otel-contrib", "openllmetry", "openinference", "ai-sdk", "langfuse", "openai-agents"}) {
    const std::string text = readFixture(scenario);
    ASSERT_FALSE(text.empty()) << scenario;
    expectSameMetadata(decodeTraceRequestJson(text), scenario);
  }
}

using test_values::array;
using test_values::bytes;
using test_values::kvlist;
using test_values::real;
using test_values::str;

Span spanWith(std::vector<KeyValue> attributes, int status = kStatusUnset) {
  Span span;
  span.traceId = std::string(16, '\x01');
  span.spanId = std::string(8, '\x02');
  span.name = "chat gpt-4o-mini";
  span.startTimeUnixNano = 1700000000000000000ull;
  span.endTimeUnixNano = 1700000000250000000ull;
  span.statusCode = status;
  span.attributes = std::move(attributes);
  return span;
}

TEST(OtlpFlatMetadata, KeysTheMappingAddsSentByTheSpanDuplicatesAndOddValues) {
  const AnyValue nested = kvlist({{"input_tokens", real(3)}, {"b", str("x")}, {"input_tokens", real(4)}});
  const AnyValue list = array({str("a"), real(NAN), AnyValue{}});
  const AnyValue raw = bytes(std::string("\x00\xff", 2));
  Span span = spanWith({{"gen_ai.operation.name", str("chat")},
                        {"gen_ai.request.model", str("first")},
                        {"gen_ai.request.model", str("second")},
                        {"provider", str("Sent.By.Span")},
                        {"duration_ms", str("overridden by the span's times")},
                        {"status", real(1)},
                        {"resource", str("the span's own")},
                        {"semantic_kind", str("llm")},
                        {"usage", nested},
                        {"", str("empty key")},
                        {"gen_ai.usage.input_tokens", real(-INFINITY)},
                        {"list", list},
                        {"raw", raw},
                        {"gen_ai.input.messages", str(R"([{"role":"user","parts":[{"type":"text","content":"hi"}]}])")},
                        {"gen_ai.completion.0.finish_reason", str("stop")},
                        {"gen_ai.completion.0.content", str("hello \"there\"\n")},
                        {"\xc3\xa9t\xc3\xa9", str("\xff invalid")}},
                       kStatusError);
  SpanEventRecord exception;
  exception.name = "exception";
  exception.attributes = {{"exception.type", str("Boom")}, {"exception.message", str("it broke")}};
  span.events.push_back(exception);
  ResourceSpans resource;
  resource.resourceAttributes = {
      {"service.name", str("svc")}, {"deployment.environment.name", str("prod")}, {"service.name", str("second")}};
  resource.scopeSpans.push_back({"scope", "1", {span}});
  Span plain = spanWith({{"tool.name", str("lookup")}, {"openinference.span.kind", str("TOOL")}});
  plain.startTimeUnixNano = 0;  // no duration
  plain.spanId = std::string(8, '\x03');
  resource.scopeSpans.front().spans.push_back(plain);
  TraceRequest request;
  request.resourceSpans.push_back(resource);
  request.resourceSpans.push_back({{}, {{"", "", {spanWith({})}}}});  // a resource without attributes
  expectSameMetadata(request, "tricky");
}

TEST(OtlpFlatMetadata, DuplicateSpansAreMarkedInTheFlatMetadataAsInTheObject) {
  std::vector<KeyValue> usage = {{"gen_ai.operation.name", str("chat")},
                                 {"gen_ai.request.model", str("gpt-4o-mini")},
                                 {"gen_ai.usage.input_tokens", real(11)},
                                 {"gen_ai.usage.output_tokens", real(7)}};
  TraceRequest request;
  ResourceSpans resource;
  Span second = spanWith(usage);
  second.spanId = std::string(8, '\x05');
  resource.scopeSpans.push_back({"openllmetry", "", {spanWith(usage)}});
  resource.scopeSpans.push_back({"openinference", "", {second}});
  request.resourceSpans.push_back(resource);
  SpanBatch objects = spanEvents(request, SpanTexts::Condensed);
  SpanBatch flats = spanEvents(request, SpanTexts::Deferred);
  EXPECT_EQ(markDuplicateLlmSpans(objects.events), 1u);
  EXPECT_EQ(markDuplicateLlmSpans(flats.events), 1u);
  EXPECT_EQ(flats.events[1].flatMetadata->text(), objects.events[1].metadataJson);
  EXPECT_EQ(flats.events[1].metadataJson, objects.events[1].metadataJson);
  EXPECT_EQ(flats.events[1].flatMetadata->optValue<std::string>("duplicate_of", ""), flats.events[0].spanId);
  EXPECT_EQ(extracted(objects.events[1], false), extracted(flats.events[1], true));
}

TEST(OtlpFlatMetadata, TheObjectIsBuiltOnceAndThenReplacesTheFlatMembers) {
  TraceRequest request;
  request.resourceSpans.push_back({{}, {{"", "", {spanWith({{"a", str("b")}})}}}});
  SpanBatch flats = spanEvents(request, SpanTexts::Deferred);
  events::Submission s;
  s.flatMetadata = flats.events[0].flatMetadata;
  const auto object = s.metadataObject();
  ASSERT_TRUE(object);
  EXPECT_FALSE(s.flatMetadata);
  EXPECT_EQ(object->getValue<std::string>("a"), "b");
  EXPECT_EQ(s.metadataObject().get(), object.get());
}

}  // namespace
}  // namespace aev::otlp

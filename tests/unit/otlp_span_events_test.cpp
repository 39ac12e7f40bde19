// otlp/span_events.h: one span → one event (docs/api.md#otlp-ingest), on decoded spans built directly.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include "otlp/span_events.h"

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

std::string repeated(char c, std::size_t n) { return std::string(n, c); }

// A valid span: 16-byte trace id, 8-byte span id, a name, 250 ms long.
Span validSpan(std::string name) {
  Span s;
  s.traceId = repeated('\x11', 16);
  s.spanId = repeated('\x22', 8);
  s.name = std::move(name);
  s.startTimeUnixNano = 1'700'000'000'000'000'000ULL;
  s.endTimeUnixNano = 1'700'000'000'250'000'000ULL;
  return s;
}

TraceRequest requestOf(std::vector<Span> spans, std::vector<KeyValue> resource = {}) {
  ScopeSpans scope;
  scope.spans = std::move(spans);
  ResourceSpans rs;
  rs.resourceAttributes = std::move(resource);
  rs.scopeSpans.push_back(std::move(scope));
  TraceRequest req;
  req.resourceSpans.push_back(std::move(rs));
  return req;
}

SpanEvent onlyEvent(const Span& span, std::vector<KeyValue> resource = {}) {
  const SpanBatch batch = spanEvents(requestOf({span}, std::move(resource)));
  EXPECT_EQ(batch.events.size(), 1u);
  EXPECT_TRUE(batch.rejected.empty()) << (batch.rejected.empty() ? "" : batch.rejected[0].reason);
  return batch.events.empty() ? SpanEvent{} : batch.events[0];
}

Poco::JSON::Object::Ptr parse(const std::string& json) {
  Poco::JSON::Parser parser;
  return parser.parse(json).extract<Poco::JSON::Object::Ptr>();
}

TEST(OtlpSpanEvents, EventTypeTable) {
  struct Row {
    const char* operation;  // "" = no gen_ai.operation.name attribute
    int status;
    const char* eventType;
  };
  const Row rows[] = {
      {"execute_tool", kStatusUnset, "agent.tool_call.end"},
      {"invoke_agent", kStatusOk, "agent.end"},
      {"chat", kStatusUnset, "agent.message"},
      {"text_completion", kStatusUnset, "agent.message"},
      {"generate_content", kStatusOk, "agent.message"},
      {"handoff", kStatusUnset, "agent.handoff"},
      {"embeddings", kStatusUnset, "custom"},
      {"CHAT", kStatusUnset, "custom"},  // operation names are case-sensitive
      {"", kStatusUnset, "custom"},
      {"", kStatusOk, "custom"},
      {"", kStatusError, "agent.error"},
      {"chat", kStatusError, "agent.error"},
      {"execute_tool", kStatusError, "agent.error"},
      {"invoke_agent", kStatusError, "agent.error"},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(eventTypeForSpan(row.operation, row.status), row.eventType) << row.operation << "/" << row.status;
    Span span = validSpan("s");
    if (*row.operation) span.attributes.push_back({"gen_ai.operation.name", text(row.operation)});
    span.statusCode = row.status;
    EXPECT_EQ(onlyEvent(span).eventType, row.eventType) << row.operation << "/" << row.status;
  }
}

TEST(OtlpSpanEvents, NonStringOperationAndAgentNamesAreIgnored) {
  Span span = validSpan("s");
  span.attributes.push_back({"gen_ai.operation.name", integer(1)});
  span.attributes.push_back({"gen_ai.agent.name", integer(2)});
  const SpanEvent e = onlyEvent(span);
  EXPECT_EQ(e.eventType, "custom");
  EXPECT_EQ(e.agentId, std::nullopt);
}

TEST(OtlpSpanEvents, FailedToolCallIsAnAgentErrorThatKeepsItsTool) {
  Span span = validSpan("execute_tool search");
  span.parentSpanId = repeated('\x33', 8);
  span.kind = 1;
  span.attributes = {{"gen_ai.operation.name", text("execute_tool")},
                     {"gen_ai.tool.name", text("search")},
                     {"gen_ai.agent.name", text("planner")},
                     {"error.type", text("timeout")}};
  span.events.push_back({1'700'000'000'100'000'000ULL, "retry", {{"attempt", integer(2)}}});
  span.events.push_back({1'700'000'000'200'000'000ULL, "gave up", {}});
  span.linkCount = 2;
  span.droppedAttributesCount = 3;
  span.statusCode = kStatusError;
  span.statusMessage = "deadline exceeded";

  const SpanEvent e = onlyEvent(span);
  EXPECT_EQ(e.eventType, "agent.error");
  EXPECT_TRUE(e.isError);
  EXPECT_EQ(e.agentId, "planner");
  EXPECT_EQ(e.traceId, "11111111111111111111111111111111");
  EXPECT_EQ(e.spanId, "2222222222222222");
  EXPECT_EQ(e.parentSpanId, "3333333333333333");
  const auto m = parse(e.metadataJson);
  EXPECT_EQ(m->getValue<std::string>("status"), "error");
  EXPECT_EQ(m->getValue<std::string>("error.type"), "timeout");
  EXPECT_EQ(m->getValue<std::string>("tool"), "search");
  EXPECT_EQ(m->getValue<std::string>("operation"), "execute_tool");
  EXPECT_EQ(e.payloadJson,
            R"({"name":"execute_tool search","kind":"internal","startTimeUnixNano":"1700000000000000000",)"
            R"("endTimeUnixNano":"1700000000250000000","status":{"code":"error","message":"deadline exceeded"},)"
            R"("events":[{"name":"retry","timeUnixNano":"1700000000100000000","attributes":{"attempt":2}},)"
            R"({"name":"gave up","timeUnixNano":"1700000000200000000","attributes":{}}],)"
            R"("links":2,"droppedAttributesCount":3})");
}

TEST(OtlpSpanEvents, InvalidSpansAreRejectedOneByOneAndCounted) {
  std::vector<Span> first;
  first.push_back(validSpan("ok"));  // 0
  Span shortTrace = validSpan("short trace");
  shortTrace.traceId.pop_back();
  first.push_back(shortTrace);  // 1
  Span zeroTrace = validSpan("zero trace");
  zeroTrace.traceId = repeated('\0', 16);
  first.push_back(zeroTrace);  // 2
  Span noSpanId = validSpan("no span id");
  noSpanId.spanId.clear();
  first.push_back(noSpanId);  // 3
  Span zeroSpan = validSpan("zero span id");
  zeroSpan.spanId = repeated('\0', 8);
  first.push_back(zeroSpan);  // 4
  Span shortParent = validSpan("short parent");
  shortParent.parentSpanId = repeated('\x01', 7);
  first.push_back(shortParent);    // 5
  first.push_back(validSpan(""));  // 6
  Span zeroParent = validSpan("zero parent");
  zeroParent.parentSpanId = repeated('\0', 8);
  first.push_back(zeroParent);  // 7: accepted as a root span

  TraceRequest req = requestOf(first);
  Span noTrace = validSpan("no trace id");
  noTrace.traceId.clear();
  Span jsonProblem = validSpan("json");
  jsonProblem.idProblem = "traceId is not hex";
  // Indexes count across resources and scopes.
  ResourceSpans second;
  second.scopeSpans.push_back(ScopeSpans{.scopeName = "", .scopeVersion = "", .spans = {noTrace, jsonProblem}});
  req.resourceSpans.push_back(second);

  const SpanBatch batch = spanEvents(req);
  ASSERT_EQ(batch.events.size(), 2u);
  EXPECT_EQ(batch.events[0].identifier, "ok");
  EXPECT_EQ(batch.events[1].identifier, "zero parent");
  EXPECT_EQ(batch.events[1].parentSpanId, std::nullopt);

  const std::vector<std::pair<std::size_t, std::string>> expected{
      {1, "traceId must be 32 hex digits"},
      {2, "traceId is all zeros"},
      {3, "spanId is missing"},
      {4, "spanId is all zeros"},
      {5, "parentSpanId must be 16 hex digits"},
      {6, "name is empty"},
      {8, "traceId is missing"},
      {9, "traceId is not hex"},
  };
  ASSERT_EQ(batch.rejected.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(batch.rejected[i].spanIndex, expected[i].first);
    EXPECT_EQ(batch.rejected[i].reason, expected[i].second);
  }
  EXPECT_EQ(batch.rejectionMessage(),
            "8 spans were rejected: span 1: traceId must be 32 hex digits; span 2: traceId is all zeros; "
            "span 3: spanId is missing; ...");
}

TEST(OtlpSpanEvents, RejectionMessageForOneSpanAndForNone) {
  Span bad = validSpan("");
  const SpanBatch one = spanEvents(requestOf({bad}));
  EXPECT_EQ(one.rejectionMessage(), "1 span was rejected: span 0: name is empty");
  EXPECT_EQ(spanEvents(requestOf({validSpan("fine")})).rejectionMessage(), "");
}

TEST(OtlpSpanEvents, DurationAndOccurredAtArithmetic) {
  const auto eventFor = [](std::uint64_t start, std::uint64_t end) {
    Span s = validSpan("t");
    s.startTimeUnixNano = start;
    s.endTimeUnixNano = end;
    return onlyEvent(s);
  };
  const auto durationOf = [](const SpanEvent& e) -> std::optional<double> {
    const auto m = parse(e.metadataJson);
    if (!m->has("duration_ms")) return std::nullopt;
    return m->getValue<double>("duration_ms");
  };

  // Nanoseconds → microseconds truncates; the duration keeps sub-millisecond precision.
  SpanEvent e = eventFor(1'000'000'999, 1'002'500'999);
  EXPECT_EQ(e.occurredAtMicros, 1'000'000);
  EXPECT_EQ(durationOf(e), 2.5);

  e = eventFor(5, 6);
  EXPECT_EQ(e.occurredAtMicros, 0);
  EXPECT_DOUBLE_EQ(*durationOf(e), 1e-6);

  e = eventFor(1'700'000'000'123'456'789ULL, 1'700'000'000'123'456'789ULL);  // zero-length span
  EXPECT_EQ(e.occurredAtMicros, 1'700'000'000'123'456);
  EXPECT_EQ(durationOf(e), 0.0);

  e = eventFor(2000, 1000);  // ends before it starts: no duration
  EXPECT_EQ(e.occurredAtMicros, 2);
  EXPECT_EQ(durationOf(e), std::nullopt);

  e = eventFor(3000, 0);  // no end time
  EXPECT_EQ(durationOf(e), std::nullopt);

  e = eventFor(0, 5000);  // no start time: the caller uses the receive time
  EXPECT_EQ(e.occurredAtMicros, std::nullopt);
  EXPECT_EQ(durationOf(e), std::nullopt);

  e = eventFor(~0ULL, ~0ULL);  // the largest fixed64 still fits once in microseconds
  EXPECT_EQ(e.occurredAtMicros, 18'446'744'073'709'551LL);
}

TEST(OtlpSpanEvents, ResourceAttributesNeverOverrideSpanAttributes) {
  Span span = validSpan("s");
  span.attributes = {{"service.name", text("from-span")}, {"resource", text("span's own")}, {"release", text("r9")}};
  const std::vector<KeyValue> resource{{"service.name", text("from-resource")},
                                       {"service.version", text("1.0")},
                                       {"deployment.environment", text("staging")}};
  const auto m = parse(onlyEvent(span, resource).metadataJson);
  EXPECT_EQ(m->getValue<std::string>("service.name"), "from-span");
  EXPECT_EQ(m->getValue<std::string>("resource"), "span's own");
  EXPECT_EQ(m->getValue<std::string>("release"), "r9");
  EXPECT_EQ(m->getValue<std::string>("environment"), "staging");  // the older attribute name
}

TEST(OtlpSpanEvents, SpanFactsOverrideAttributesOfTheSameName) {
  Span span = validSpan("s");
  span.attributes = {{"duration_ms", integer(1)}, {"status", text("fine")}};
  span.statusCode = kStatusOk;
  const auto m = parse(onlyEvent(span).metadataJson);
  EXPECT_EQ(m->getValue<double>("duration_ms"), 250.0);
  EXPECT_EQ(m->getValue<std::string>("status"), "ok");

  // With the status unset the span has no status to state, so the attribute stays.
  span.statusCode = kStatusUnset;
  EXPECT_EQ(parse(onlyEvent(span).metadataJson)->getValue<std::string>("status"), "fine");
}

TEST(OtlpSpanEvents, DuplicateAttributeKeysKeepTheLast) {
  Span span = validSpan("s");
  span.attributes = {{"k", integer(1)}, {"k", integer(2)}};
  EXPECT_EQ(parse(onlyEvent(span).metadataJson)->getValue<Poco::Int64>("k"), 2);
}

TEST(OtlpSpanEvents, SpanKindNames) {
  const char* names[] = {"unspecified", "internal", "server", "client", "producer", "consumer", "unspecified"};
  for (int kind = 0; kind <= 6; ++kind) {
    Span span = validSpan("s");
    span.kind = kind;
    EXPECT_EQ(parse(onlyEvent(span).payloadJson)->getValue<std::string>("kind"), names[kind]) << kind;
  }
}

}  // namespace
}  // namespace aev::otlp

// exporter_otlp against a loopback receiver: OTLP/HTTP bodies decoded field by field
// (protobuf) or parsed (JSON), endpoints per signal, the metrics signal's aggregates,
// and the OTLP retry rules.
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "common/metrics.h"
#include "support/plugin_test_support.h"

namespace aev::plugins {
namespace {

using test::LoopbackReceiver;
using test::pbAll;
using test::pbOne;

// Two stored events: a chat turn inside a trace, and an error outside any trace.
const std::string kEvents = R"([
  {"id": 41, "identifier": "llm-call", "eventType": "agent.message", "agentId": "planner",
   "channelId": "40", "appId": "12", "orgId": "7",
   "traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "b7ad6b7169203331", "parentSpanId": "00f067aa0ba902b7",
   "payload": {"role": "assistant", "content": "hello"},
   "metadata": {"service": "checkout", "model": "gpt-4o", "duration_ms": 250, "status": "ok",
                "usage": {"input_tokens": 12, "output_tokens": 30}, "temperature": 0.5, "cached": true},
   "timestamp": "2026-01-02T03:04:05.000006Z"},
  {"id": 42, "identifier": "tool failed", "eventType": "agent.error", "payload": {"message": "disk full"},
   "metadata": {"error_type": "io"}, "timestamp": "2026-01-02T03:04:06Z"}
])";

constexpr std::uint64_t kT1 = 1767323045000006000ull;  // 2026-01-02T03:04:05.000006Z
constexpr std::uint64_t kT2 = 1767323046000000000ull;

class OtlpExporter : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { host_ = test::standardHost().release(); }
  static void TearDownTestSuite() {
    delete host_;
    host_ = nullptr;
  }
  std::shared_ptr<ExporterInstance> open(const std::string& extra = "", const std::string& path = "") {
    return host_->registry().exporter("otlp")->open(R"({"endpointUrl":")" + receiver_.url(path) +
                                                     R"(","allowPrivateAddresses":true,"serviceName":"svc-default")" +
                                                     extra + "}");
  }
  static Host* host_;
  LoopbackReceiver receiver_;
};

Host* OtlpExporter::host_ = nullptr;

// KeyValue list (repeated field `number` of msg) as key → AnyValue message bytes.
std::map<std::string, std::string> attributes(std::string_view msg, std::uint32_t number) {
  std::map<std::string, std::string> out;
  for (const auto& kv : pbAll(msg, number)) out[pbOne(kv.bytes, 1).bytes] = pbOne(kv.bytes, 2).bytes;
  return out;
}
std::string stringValue(const std::string& any) { return pbOne(any, 1).bytes; }
std::int64_t intValue(const std::string& any) { return static_cast<std::int64_t>(pbOne(any, 3).value); }

TEST_F(OtlpExporter, SpansAsProtobuf) {
  auto r = open()->exportBatch(AEV_SIGNAL_TRACES, kEvents, 2);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.responseStatus, 200);
  auto requests = receiver_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].method, "POST");
  EXPECT_EQ(requests[0].uri, "/v1/traces");
  EXPECT_EQ(requests[0].headers["content-type"], "application/x-protobuf");

  const std::string& body = requests[0].body;
  auto resources = pbAll(body, 1);  // resource_spans: one per service
  ASSERT_EQ(resources.size(), 2u);

  // First resource: service "checkout", the chat span.
  const auto& rs = resources[0].bytes;
  EXPECT_EQ(stringValue(attributes(pbOne(rs, 1).bytes, 1).at("service.name")), "checkout");
  auto scopeSpans = pbOne(rs, 2).bytes;
  EXPECT_EQ(pbOne(pbOne(scopeSpans, 1).bytes, 1).bytes, "agent-events");
  auto span = pbOne(scopeSpans, 2).bytes;
  EXPECT_EQ(test::hex(pbOne(span, 1).bytes), "0af7651916cd43dd8448eb211c80319c");
  EXPECT_EQ(test::hex(pbOne(span, 2).bytes), "b7ad6b7169203331");
  EXPECT_EQ(test::hex(pbOne(span, 4).bytes), "00f067aa0ba902b7");
  EXPECT_EQ(pbOne(span, 5).bytes, "llm-call");
  EXPECT_EQ(pbOne(span, 6).value, 1u);  // SPAN_KIND_INTERNAL
  EXPECT_EQ(pbOne(span, 7).wireType, 1);  // fixed64
  EXPECT_EQ(pbOne(span, 7).value, kT1);
  EXPECT_EQ(pbOne(span, 8).value, kT1 + 250'000'000ull);
  auto attrs = attributes(span, 9);
  EXPECT_EQ(stringValue(attrs.at("model")), "gpt-4o");
  EXPECT_EQ(intValue(attrs.at("usage.input_tokens")), 12);
  EXPECT_EQ(intValue(attrs.at("agent_events.event.id")), 41);
  EXPECT_EQ(stringValue(attrs.at("gen_ai.operation.name")), "chat");
  EXPECT_EQ(stringValue(attrs.at("gen_ai.agent.name")), "planner");
  EXPECT_EQ(pbOne(attrs.at("cached"), 2).value, 1u);                       // bool_value
  EXPECT_EQ(pbOne(attrs.at("temperature"), 4).value, 0x3FE0000000000000u);  // double_value 0.5
  EXPECT_EQ(stringValue(attrs.at("agent_events.payload")), R"({"role":"assistant","content":"hello"})");
  EXPECT_EQ(pbOne(pbOne(span, 15).bytes, 3).value, 1u);  // STATUS_CODE_OK

  // Second resource: the configured default service, an error span with its own trace.
  const auto& rs2 = resources[1].bytes;
  EXPECT_EQ(stringValue(attributes(pbOne(rs2, 1).bytes, 1).at("service.name")), "svc-default");
  auto span2 = pbOne(pbOne(rs2, 2).bytes, 2).bytes;
  EXPECT_EQ(pbOne(span2, 1).bytes.size(), 16u);
  EXPECT_EQ(pbOne(span2, 2).bytes.size(), 8u);
  EXPECT_TRUE(pbAll(span2, 4).empty());  // no parent
  EXPECT_EQ(pbOne(span2, 7).value, kT2);
  auto status = pbOne(span2, 15).bytes;
  EXPECT_EQ(pbOne(status, 3).value, 2u);  // STATUS_CODE_ERROR
  EXPECT_EQ(pbOne(status, 2).bytes, "io");
}

TEST_F(OtlpExporter, LogRecordsAsProtobuf) {
  auto r = open()->exportBatch(AEV_SIGNAL_LOGS, kEvents, 2);
  ASSERT_TRUE(r.ok()) << r.error;
  auto requests = receiver_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].uri, "/v1/logs");
  auto resources = pbAll(requests[0].body, 1);
  ASSERT_EQ(resources.size(), 2u);

  auto log = pbOne(pbOne(resources[0].bytes, 2).bytes, 2).bytes;  // scope_logs → log_records
  EXPECT_EQ(pbOne(log, 1).value, kT1);                            // time_unix_nano
  EXPECT_GT(pbOne(log, 11).value, kT1);                           // observed (now)
  EXPECT_EQ(pbOne(log, 2).value, 9u);                             // SEVERITY_NUMBER_INFO
  EXPECT_EQ(pbOne(log, 3).bytes, "INFO");
  auto body = pbOne(pbOne(log, 5).bytes, 6).bytes;                // body: kvlist_value
  auto bodyKv = attributes(body, 1);
  EXPECT_EQ(stringValue(bodyKv.at("role")), "assistant");
  EXPECT_EQ(stringValue(bodyKv.at("content")), "hello");
  EXPECT_EQ(test::hex(pbOne(log, 9).bytes), "0af7651916cd43dd8448eb211c80319c");
  EXPECT_EQ(test::hex(pbOne(log, 10).bytes), "b7ad6b7169203331");
  EXPECT_EQ(pbOne(log, 12).bytes, "agent.message");  // event_name
  EXPECT_EQ(stringValue(attributes(log, 6).at("agent_events.identifier")), "llm-call");

  auto error = pbOne(pbOne(resources[1].bytes, 2).bytes, 2).bytes;
  EXPECT_EQ(pbOne(error, 2).value, 17u);  // SEVERITY_NUMBER_ERROR
  EXPECT_TRUE(pbAll(error, 9).empty());   // no trace: no trace_id
}

TEST_F(OtlpExporter, SpansAndLogsAsJson) {
  auto exporter = open(R"(,"encoding":"json","resourceAttributes":{"deployment.environment":"prod"})");
  ASSERT_TRUE(exporter->exportBatch(AEV_SIGNAL_TRACES, kEvents, 2).ok());
  ASSERT_TRUE(exporter->exportBatch(AEV_SIGNAL_LOGS, kEvents, 2).ok());
  auto requests = receiver_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].headers["content-type"], "application/json");

  Poco::JSON::Parser parser;
  auto traces = parser.parse(requests[0].body).extract<Poco::JSON::Object::Ptr>();
  auto rs = traces->getArray("resourceSpans")->getObject(0);
  auto resourceAttrs = rs->getObject("resource")->getArray("attributes");
  ASSERT_EQ(resourceAttrs->size(), 2u);
  EXPECT_EQ(resourceAttrs->getObject(1)->getValue<std::string>("key"), "deployment.environment");
  auto span = rs->getArray("scopeSpans")->getObject(0)->getArray("spans")->getObject(0);
  EXPECT_EQ(span->getValue<std::string>("traceId"), "0af7651916cd43dd8448eb211c80319c");
  EXPECT_EQ(span->getValue<std::string>("spanId"), "b7ad6b7169203331");
  EXPECT_EQ(span->getValue<std::string>("parentSpanId"), "00f067aa0ba902b7");
  EXPECT_EQ(span->getValue<std::string>("startTimeUnixNano"), std::to_string(kT1));  // int64 as string
  EXPECT_EQ(span->getValue<int>("kind"), 1);
  EXPECT_EQ(span->getObject("status")->getValue<int>("code"), 1);
  bool sawTokens = false;
  auto attrs = span->getArray("attributes");
  for (std::size_t i = 0; i < attrs->size(); ++i) {
    auto kv = attrs->getObject(i);
    if (kv->getValue<std::string>("key") == "usage.input_tokens") {
      EXPECT_EQ(kv->getObject("value")->getValue<std::string>("intValue"), "12");
      sawTokens = true;
    }
  }
  EXPECT_TRUE(sawTokens);

  auto logs = parser.parse(requests[1].body).extract<Poco::JSON::Object::Ptr>();
  auto record = logs->getArray("resourceLogs")->getObject(0)->getArray("scopeLogs")->getObject(0)->getArray(
      "logRecords")->getObject(0);
  EXPECT_EQ(record->getValue<int>("severityNumber"), 9);
  EXPECT_EQ(record->getValue<std::string>("timeUnixNano"), std::to_string(kT1));
  EXPECT_EQ(record->getValue<std::string>("eventName"), "agent.message");
  auto body = record->getObject("body")->getObject("kvlistValue")->getArray("values");
  EXPECT_EQ(body->getObject(0)->getValue<std::string>("key"), "role");
}

// Four stored events for the metrics signal: two chat turns of one group (tokens under
// the nested and the flat GenAI names, costs, durations), an error of another group of
// the same service (with a negative cost and a NaN duration, both ignored), and a tool
// call of the default service (the batch's earliest event).
const std::string kMetricEvents = R"([
  {"id": 1, "identifier": "turn-1", "eventType": "agent.message", "agentId": "planner",
   "metadata": {"service": "checkout", "model": "gpt-4o", "provider": "openai", "duration_ms": 250,
                "usage": {"input_tokens": 12, "output_tokens": 30}, "cost_usd": 0.01},
   "timestamp": "2026-01-02T03:04:05.000006Z"},
  {"id": 2, "identifier": "turn-2", "eventType": "agent.message", "agentId": "planner",
   "metadata": {"service": "checkout", "gen_ai.request.model": "gpt-4o", "gen_ai.system": "openai",
                "duration_ms": 4, "gen_ai.usage.input_tokens": 8, "gen_ai.usage.output_tokens": "10",
                "cost_usd": 0.02},
   "timestamp": "2026-01-02T03:04:05.5Z"},
  {"id": 3, "identifier": "failed", "eventType": "agent.error", "agentId": "planner",
   "metadata": {"service": "checkout", "cost_usd": -1, "duration_ms": "NaN"}, "timestamp": "2026-01-02T03:04:06Z"},
  {"id": 4, "identifier": "search", "eventType": "agent.tool_call.end",
   "metadata": {"model": "claude-sonnet", "gen_ai.provider.name": "anthropic", "status": "error"},
   "timestamp": "2026-01-02T03:04:04Z"}
])";
constexpr std::uint64_t kT0 = 1767323044000000000ull;  // 2026-01-02T03:04:04Z, the earliest event

double asDouble(std::uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
// Metric messages of a ResourceMetrics by name.
std::map<std::string, std::string> metricsByName(const std::string& resourceMetrics) {
  std::map<std::string, std::string> out;
  for (const auto& m : pbAll(pbOne(resourceMetrics, 2).bytes, 2)) out[pbOne(m.bytes, 1).bytes] = m.bytes;
  return out;
}
// The data point (NumberDataPoint attributes = 7, HistogramDataPoint attributes = 9)
// whose string attributes include all of `want`; fails the test when none does.
std::string pointWith(const std::string& data, std::uint32_t attributesField,
                      const std::map<std::string, std::string>& want) {
  for (const auto& p : pbAll(data, 1)) {
    auto attrs = attributes(p.bytes, attributesField);
    bool all = true;
    for (const auto& [k, v] : want) all = all && attrs.count(k) && stringValue(attrs.at(k)) == v;
    if (all) return p.bytes;
  }
  ADD_FAILURE() << "no data point with the wanted attributes";
  return {};
}

TEST_F(OtlpExporter, MetricsAsProtobufAggregateTheBatch) {
  auto r = open()->exportBatch(AEV_SIGNAL_METRICS, kMetricEvents, 4);
  ASSERT_TRUE(r.ok()) << r.error;
  auto requests = receiver_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].uri, "/v1/metrics");
  EXPECT_EQ(requests[0].headers["content-type"], "application/x-protobuf");
  auto resources = pbAll(requests[0].body, 1);  // resource_metrics: one per service
  ASSERT_EQ(resources.size(), 2u);
  EXPECT_EQ(stringValue(attributes(pbOne(resources[0].bytes, 1).bytes, 1).at("service.name")), "checkout");
  EXPECT_EQ(stringValue(attributes(pbOne(resources[1].bytes, 1).bytes, 1).at("service.name")), "svc-default");
  EXPECT_EQ(pbOne(pbOne(pbOne(resources[0].bytes, 2).bytes, 1).bytes, 1).bytes, "agent-events");  // scope name

  auto checkout = metricsByName(resources[0].bytes);
  ASSERT_EQ(checkout.size(), 5u);
  const std::map<std::string, std::string> chat = {{"gen_ai.request.model", "gpt-4o"},
                                                   {"gen_ai.system", "openai"},
                                                   {"agent_events.event.type", "agent.message"},
                                                   {"gen_ai.agent.name", "planner"}};
  // agent_events.events: a monotonic delta Sum with one point per group.
  const auto& events = checkout.at("agent_events.events");
  EXPECT_EQ(pbOne(events, 3).bytes, "{event}");
  auto eventsSum = pbOne(events, 7).bytes;
  EXPECT_EQ(pbOne(eventsSum, 2).value, 1u);  // AGGREGATION_TEMPORALITY_DELTA
  EXPECT_EQ(pbOne(eventsSum, 3).value, 1u);  // is_monotonic
  ASSERT_EQ(pbAll(eventsSum, 1).size(), 2u);
  auto chatCount = pointWith(eventsSum, 7, chat);
  EXPECT_EQ(pbOne(chatCount, 6).wireType, 1);  // as_int: sfixed64
  EXPECT_EQ(pbOne(chatCount, 6).value, 2u);
  EXPECT_EQ(pbOne(chatCount, 2).value, kT0);  // start: the batch's earliest event
  EXPECT_EQ(pbOne(chatCount, 3).value, kT2);  // time: its latest
  auto errorCount = pointWith(eventsSum, 7, {{"agent_events.event.type", "agent.error"}});
  EXPECT_EQ(pbOne(errorCount, 6).value, 1u);
  EXPECT_EQ(attributes(errorCount, 7).count("gen_ai.request.model"), 0u);  // absent keys are not attributes

  // agent_events.errors: only the group with errors.
  auto errorsSum = pbOne(checkout.at("agent_events.errors"), 7).bytes;
  ASSERT_EQ(pbAll(errorsSum, 1).size(), 1u);
  EXPECT_EQ(pbOne(pointWith(errorsSum, 7, {{"agent_events.event.type", "agent.error"}}), 6).value, 1u);

  // agent_events.tokens: nested and flat GenAI names summed, by gen_ai.token.type.
  auto tokensSum = pbOne(checkout.at("agent_events.tokens"), 7).bytes;
  ASSERT_EQ(pbAll(tokensSum, 1).size(), 2u);
  auto input = chat, output = chat;
  input["gen_ai.token.type"] = "input";
  output["gen_ai.token.type"] = "output";
  EXPECT_EQ(pbOne(pointWith(tokensSum, 7, input), 6).value, 20u);
  EXPECT_EQ(pbOne(pointWith(tokensSum, 7, output), 6).value, 40u);

  // agent_events.cost_usd: a double Sum.
  auto costSum = pbOne(checkout.at("agent_events.cost_usd"), 7).bytes;
  EXPECT_EQ(pbOne(checkout.at("agent_events.cost_usd"), 3).bytes, "USD");
  ASSERT_EQ(pbAll(costSum, 1).size(), 1u);  // the error's negative cost is no point
  auto cost = pointWith(costSum, 7, chat);
  EXPECT_TRUE(pbAll(cost, 6).empty());
  EXPECT_DOUBLE_EQ(asDouble(pbOne(cost, 4).value), 0.01 + 0.02);  // as_double

  // agent_events.duration_ms: a delta Histogram with explicit bounds.
  const auto& durationMetric = checkout.at("agent_events.duration_ms");
  EXPECT_TRUE(pbAll(durationMetric, 7).empty());
  auto histogram = pbOne(durationMetric, 9).bytes;
  EXPECT_EQ(pbOne(histogram, 2).value, 1u);  // DELTA
  ASSERT_EQ(pbAll(histogram, 1).size(), 1u);
  auto point = pointWith(histogram, 9, chat);
  EXPECT_EQ(pbOne(point, 4).value, 2u);                      // count
  EXPECT_DOUBLE_EQ(asDouble(pbOne(point, 5).value), 254.0);  // sum
  EXPECT_DOUBLE_EQ(asDouble(pbOne(point, 11).value), 4.0);   // min
  EXPECT_DOUBLE_EQ(asDouble(pbOne(point, 12).value), 250.0); // max
  auto packedCounts = pbOne(point, 6).bytes;                 // packed fixed64
  auto packedBounds = pbOne(point, 7).bytes;                 // packed double
  ASSERT_EQ(packedCounts.size(), packedBounds.size() + 8);   // one bucket more than bounds
  std::vector<std::uint64_t> counts(packedCounts.size() / 8);
  std::memcpy(counts.data(), packedCounts.data(), packedCounts.size());
  std::vector<double> bounds(packedBounds.size() / 8);
  std::memcpy(bounds.data(), packedBounds.data(), packedBounds.size());
  ASSERT_FALSE(bounds.empty());
  EXPECT_GT(bounds.front(), 4.0);
  std::vector<std::uint64_t> want(counts.size(), 0);
  want[0] = 1;  // 4 ms: at most the first bound
  auto at250 = std::find(bounds.begin(), bounds.end(), 250.0);
  ASSERT_NE(at250, bounds.end());
  want[at250 - bounds.begin()] = 1;  // 250 ms: the bucket whose inclusive upper bound is 250
  EXPECT_EQ(counts, want);

  // The default service: a tool call with the provider under gen_ai.provider.name, an error by status.
  auto other = metricsByName(resources[1].bytes);
  EXPECT_EQ(other.count("agent_events.tokens"), 0u);  // no usage: no token points
  EXPECT_EQ(other.count("agent_events.duration_ms"), 0u);
  auto toolPoint = pointWith(pbOne(other.at("agent_events.events"), 7).bytes, 7,
                             {{"gen_ai.request.model", "claude-sonnet"},
                              {"gen_ai.system", "anthropic"},
                              {"agent_events.event.type", "agent.tool_call.end"}});
  EXPECT_EQ(pbOne(toolPoint, 6).value, 1u);
  EXPECT_EQ(attributes(toolPoint, 7).count("gen_ai.agent.name"), 0u);
  EXPECT_EQ(pbOne(pbOne(pbOne(other.at("agent_events.errors"), 7).bytes, 1).bytes, 6).value, 1u);
}

TEST_F(OtlpExporter, MetricsAsJson) {
  ASSERT_TRUE(open(R"(,"encoding":"json")")->exportBatch(AEV_SIGNAL_METRICS, kMetricEvents, 4).ok());
  auto requests = receiver_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].uri, "/v1/metrics");
  EXPECT_EQ(requests[0].headers["content-type"], "application/json");
  Poco::JSON::Parser parser;
  auto root = parser.parse(requests[0].body).extract<Poco::JSON::Object::Ptr>();
  auto rm = root->getArray("resourceMetrics")->getObject(0);
  auto service = rm->getObject("resource")->getArray("attributes")->getObject(0);
  EXPECT_EQ(service->getValue<std::string>("key"), "service.name");
  EXPECT_EQ(service->getObject("value")->getValue<std::string>("stringValue"), "checkout");
  auto sm = rm->getArray("scopeMetrics")->getObject(0);
  EXPECT_EQ(sm->getObject("scope")->getValue<std::string>("name"), "agent-events");
  std::map<std::string, Poco::JSON::Object::Ptr> metrics;
  auto list = sm->getArray("metrics");
  for (std::size_t i = 0; i < list->size(); ++i)
    metrics[list->getObject(i)->getValue<std::string>("name")] = list->getObject(i);
  ASSERT_EQ(metrics.size(), 5u);

  auto events = metrics.at("agent_events.events")->getObject("sum");
  EXPECT_EQ(events->getValue<int>("aggregationTemporality"), 1);  // enums as numbers
  EXPECT_TRUE(events->getValue<bool>("isMonotonic"));
  auto first = events->getArray("dataPoints")->getObject(0);
  EXPECT_EQ(first->getValue<std::string>("asInt"), "2");  // int64 as a string
  EXPECT_EQ(first->getValue<std::string>("startTimeUnixNano"), std::to_string(kT0));
  EXPECT_EQ(first->getValue<std::string>("timeUnixNano"), std::to_string(kT2));
  auto cost = metrics.at("agent_events.cost_usd")->getObject("sum")->getArray("dataPoints")->getObject(0);
  EXPECT_DOUBLE_EQ(cost->getValue<double>("asDouble"), 0.01 + 0.02);
  EXPECT_FALSE(cost->has("asInt"));

  auto histogram = metrics.at("agent_events.duration_ms")->getObject("histogram");
  EXPECT_EQ(histogram->getValue<int>("aggregationTemporality"), 1);
  auto point = histogram->getArray("dataPoints")->getObject(0);
  EXPECT_EQ(point->getValue<std::string>("count"), "2");
  EXPECT_DOUBLE_EQ(point->getValue<double>("sum"), 254.0);
  EXPECT_DOUBLE_EQ(point->getValue<double>("min"), 4.0);
  EXPECT_DOUBLE_EQ(point->getValue<double>("max"), 250.0);
  auto buckets = point->getArray("bucketCounts");
  EXPECT_EQ(buckets->size(), point->getArray("explicitBounds")->size() + 1);
  EXPECT_EQ(buckets->getElement<std::string>(0), "1");  // uint64 as strings
}

TEST_F(OtlpExporter, EndpointPathsPerSignal) {
  auto base = open("", "/otlp/");
  ASSERT_TRUE(base->exportBatch(AEV_SIGNAL_TRACES, kEvents, 2).ok());
  auto explicitTraces = open("", "/collector/v1/traces");
  ASSERT_TRUE(explicitTraces->exportBatch(AEV_SIGNAL_LOGS, kEvents, 2).ok());
  ASSERT_TRUE(explicitTraces->exportBatch(AEV_SIGNAL_METRICS, kEvents, 2).ok());
  auto requests = receiver_.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0].uri, "/otlp/v1/traces");
  EXPECT_EQ(requests[1].uri, "/collector/v1/logs");
  EXPECT_EQ(requests[2].uri, "/collector/v1/metrics");
}

TEST_F(OtlpExporter, ConfiguredHeadersAreSent) {
  auto exporter = open(R"(,"headers":{"authorization":"Bearer t0ken","x-scope":"team-a"})");
  ASSERT_TRUE(exporter->exportBatch(AEV_SIGNAL_LOGS, kEvents, 2).ok());
  auto req = receiver_.requests().at(0);
  EXPECT_EQ(req.headers["authorization"], "Bearer t0ken");
  EXPECT_EQ(req.headers["x-scope"], "team-a");
}

TEST_F(OtlpExporter, OtlpRetryRules) {
  auto exporter = open();
  receiver_.respond({503, {{"Retry-After", "7"}}, "overloaded"});
  auto busy = exporter->exportBatch(AEV_SIGNAL_TRACES, kEvents, 2);
  EXPECT_EQ(busy.status, AEV_RETRY);
  EXPECT_EQ(busy.responseStatus, 503);
  EXPECT_EQ(busy.responseBody, "overloaded");
  ASSERT_TRUE(busy.retryAfter.has_value());
  EXPECT_EQ(busy.retryAfter->count(), 7000);

  receiver_.respond({429, {}, ""});
  EXPECT_EQ(exporter->exportBatch(AEV_SIGNAL_TRACES, kEvents, 2).status, AEV_RETRY);
  receiver_.respond({500, {}, "bug"});  // not retryable under the OTLP specification
  EXPECT_EQ(exporter->exportBatch(AEV_SIGNAL_TRACES, kEvents, 2).status, AEV_ERR_PERMANENT);
  receiver_.respond({400, {}, "bad data"});
  auto bad = exporter->exportBatch(AEV_SIGNAL_TRACES, kEvents, 2);
  EXPECT_EQ(bad.status, AEV_ERR_PERMANENT);
  EXPECT_NE(bad.error.find("HTTP 400"), std::string::npos);
}

TEST_F(OtlpExporter, PartialSuccessIsOkAndCounted) {
  receiver_.respond({200, {{"Content-Type", "application/json"}}, R"({"partialSuccess":{"rejectedSpans":"1"}})"});
  auto r = open(R"(,"encoding":"json")")->exportBatch(AEV_SIGNAL_TRACES, kEvents, 2);
  EXPECT_TRUE(r.ok());
  EXPECT_NE(Metrics::instance().renderPrometheus().find("aev_plugin_rejected_total{plugin=\"exporter_otlp\"}"),
            std::string::npos);
}

TEST_F(OtlpExporter, PrivateAddressesAreRefusedUnlessAllowed) {
  auto exporter = host_->registry().exporter("otlp")->open(R"({"endpointUrl":")" + receiver_.url() + R"("})");
  auto r = exporter->exportBatch(AEV_SIGNAL_TRACES, kEvents, 2);
  EXPECT_EQ(r.status, AEV_RETRY);  // DNS may change: refused again at each attempt
  EXPECT_EQ(r.responseStatus, 0);
  EXPECT_NE(r.responseBody.find("refused by outbound policy: 127.0.0.1"), std::string::npos) << r.responseBody;
  EXPECT_TRUE(receiver_.requests().empty());
}

TEST_F(OtlpExporter, TimeoutBoundsTheAttempt) {
  receiver_.respond({200, {}, "", std::chrono::milliseconds(2000)});
  auto r = open(R"(,"timeoutMs":300)")->exportBatch(AEV_SIGNAL_TRACES, kEvents, 2);
  EXPECT_EQ(r.status, AEV_RETRY);
  EXPECT_EQ(r.responseStatus, 0);
  EXPECT_LT(r.elapsed.count(), 1'500'000'000);
  // The host's deadline bounds it too.
  auto d = open()->exportBatch(AEV_SIGNAL_TRACES, kEvents, 2, std::chrono::milliseconds(300));
  EXPECT_EQ(d.status, AEV_RETRY);
  EXPECT_LT(d.elapsed.count(), 1'500'000'000);
}

TEST_F(OtlpExporter, BadConfigurationsAreConfigErrors) {
  auto otlp = host_->registry().exporter("otlp");
  for (const char* cfg : {R"({})", R"({"endpointUrl":"ftp://x/"})", R"({"endpointUrl":"http://h","encoding":"xml"})",
                          R"({"endpointUrl":"http://h","headers":{"x":"a\r\nInjected: 1"}})",
                          R"({"endpointUrl":"http://h","headers":{"x":1}})",
                          R"({"endpointUrl":"http://h","timeoutMs":0})", "not json"}) {
    try {
      otlp->open(cfg);
      ADD_FAILURE() << "accepted " << cfg;
    } catch (const PluginError& e) {
      EXPECT_TRUE(e.status() == AEV_ERR_CONFIG || e.status() == AEV_ERR_INTERNAL) << cfg;
    }
  }
  try {
    otlp->open("{}");
  } catch (const PluginError& e) {
    EXPECT_EQ(e.status(), AEV_ERR_CONFIG);
    EXPECT_NE(std::string(e.what()).find("endpointUrl is required"), std::string::npos);
  }
}

TEST_F(OtlpExporter, EmptyOrNonObjectEventsSendNothing) {
  EXPECT_TRUE(open()->exportBatch(AEV_SIGNAL_TRACES, "[]", 0).ok());
  EXPECT_TRUE(open()->exportBatch(AEV_SIGNAL_TRACES, "[1, \"x\"]", 2).ok());
  EXPECT_TRUE(receiver_.requests().empty());
  EXPECT_TRUE(open()->exportBatch(AEV_SIGNAL_METRICS, "[1, \"x\"]", 2).ok());  // no event, no aggregate
  EXPECT_TRUE(receiver_.requests().empty());
  EXPECT_EQ(open()->exportBatch(AEV_SIGNAL_TRACES, "{broken", 1).status, AEV_ERR_PERMANENT);
  EXPECT_EQ(open()->exportBatch(AEV_SIGNAL_METRICS, "{broken", 1).status, AEV_ERR_PERMANENT);
}

}  // namespace
}  // namespace aev::plugins

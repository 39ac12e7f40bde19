// OTLP/HTTP traces ingest (docs/api.md#otlp-ingest): the official OpenTelemetry JS SDK exporting to
// POST /v1/traces in protobuf (gzip) and JSON, then the spans read back as events,
// traces and analytics; and the OTLP error contract on bad requests.
#include <Poco/JSON/Parser.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "integration/telemetry/traces_support.h"

namespace aev::testing {
namespace {

struct SdkSpan {
  std::string name, spanId, parentSpanId;
};
struct SdkExport {
  std::string traceId;
  std::vector<SdkSpan> spans;
};

class OtlpIngestApi : public TracesTest {
 protected:
  // Runs tests/otlp/emit.mjs (AEV_NODE, AEV_OTLP_EMIT from CTest) against the daemon.
  static SdkExport runSdk(const Publisher& p, const std::string& encoding, bool gzip) {
    const char* node = std::getenv("AEV_NODE");
    const char* script = std::getenv("AEV_OTLP_EMIT");
    if (!node || !*node || !script || !*script)
      throw std::runtime_error("AEV_NODE and AEV_OTLP_EMIT must name node and tests/otlp/emit.mjs (set by CTest)");
    const std::string command = "AEV_OTLP_URL=http://127.0.0.1:" + std::to_string(daemon().port()) +
                                " AEV_API_KEY=" + p.key.key + " AEV_CHANNEL_ID=" + std::to_string(p.channelId) +
                                " AEV_ENCODING=" + encoding + " AEV_GZIP=" + (gzip ? "1" : "0") + " " + node + " " +
                                script + " 2>&1";
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) throw std::runtime_error("cannot run node");
    std::array<char, 4096> buf{};
    while (auto n = fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
    const int rc = pclose(pipe);
    if (rc != 0) throw std::runtime_error("the OpenTelemetry SDK export failed: " + out);
    auto result = Poco::JSON::Parser().parse(out.substr(out.rfind("{\"traceId\""))).extract<Poco::JSON::Object::Ptr>();
    SdkExport e;
    e.traceId = result->getValue<std::string>("traceId");
    for (const auto& s : objects(result->getArray("spans")))
      e.spans.push_back({strField(s, "name"), strField(s, "spanId"),
                         s->isNull("parentSpanId") ? "" : strField(s, "parentSpanId")});
    return e;
  }

  static void checkExport(const Publisher& p, const SdkExport& sdk) {
    ASSERT_EQ(sdk.spans.size(), 3u);
    auto r = p.keyed.get(tracePath(sdk.traceId, "events"));
    ASSERT_STATUS(r, 200);
    auto events = objects(listOf(r));
    ASSERT_EQ(events.size(), 3u) << r.describe();
    std::map<std::string, Poco::JSON::Object::Ptr> byName;
    for (const auto& e : events) byName[strField(e, "identifier")] = e;
    for (const auto& s : sdk.spans) {
      auto e = byName[s.name];
      ASSERT_TRUE(e) << s.name;
      EXPECT_EQ(strField(e, "traceId"), sdk.traceId);
      EXPECT_EQ(strField(e, "spanId"), s.spanId);
      if (s.parentSpanId.empty())
        EXPECT_TRUE(e->isNull("parentSpanId"));
      else
        EXPECT_EQ(strField(e, "parentSpanId"), s.parentSpanId);
      EXPECT_EQ(strField(e, "channelId"), std::to_string(p.channelId));
      EXPECT_FALSE(e->isNull("occurredAt"));
      EXPECT_EQ(strField(e->getObject("metadata"), "service.name"), "otel-sdk-test");
    }
    EXPECT_EQ(strField(byName["invoke_agent planner"], "eventType"), "agent.end");
    EXPECT_EQ(strField(byName["invoke_agent planner"], "agentId"), "planner");
    auto chat = byName["chat gpt-4o"];
    EXPECT_EQ(strField(chat, "eventType"), "agent.message");
    EXPECT_EQ(strField(chat->getObject("metadata"), "gen_ai.request.model"), "gpt-4o");
    EXPECT_EQ(chat->getObject("metadata")->getValue<std::int64_t>("gen_ai.usage.input_tokens"), 1000);
    EXPECT_EQ(strField(byName["execute_tool search"], "eventType"), "agent.error");  // span status ERROR

    auto summary = p.keyed.get(tracePath(sdk.traceId, "summary"));
    ASSERT_STATUS(summary, 200);
    EXPECT_EQ(intField(summary.object(), "eventCount"), 3);
    EXPECT_EQ(intField(summary.object(), "errorCount"), 1);
  }
};

TEST_F(OtlpIngestApi, OpenTelemetrySdkProtobufWithGzip) {
  auto p = newPublisher("otlp-proto");
  auto sdk = runSdk(p, "proto", true);
  checkExport(p, sdk);
  // Telemetry of the spans reached analytics: source otlp, model, tokens, cost, tool.
  auto r = p.keyed.get("/analytics/breakdown?dimension=model");
  ASSERT_STATUS(r, 200);
  auto rows = objects(r.object()->getArray("rows"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(strField(rows[0], "key"), "gpt-4o");
  EXPECT_EQ(intField(rows[0], "totalTokens"), 1500);
  EXPECT_NEAR(rows[0]->getValue<double>("costUsd"), (1000 * 2.50 + 500 * 10.00) / 1e6, 1e-12);
  auto sources = objects(p.keyed.get("/analytics/breakdown?dimension=source").object()->getArray("rows"));
  ASSERT_EQ(sources.size(), 1u);
  EXPECT_EQ(strField(sources[0], "key"), "otlp");
  EXPECT_EQ(intField(sources[0], "eventCount"), 3);
  auto tools = objects(p.keyed.get("/analytics/breakdown?dimension=tool").object()->getArray("rows"));
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_EQ(strField(tools[0], "key"), "search");
  auto ops = objects(p.keyed.get("/analytics/breakdown?dimension=operation").object()->getArray("rows"));
  EXPECT_EQ(ops.size(), 3u);
}

TEST_F(OtlpIngestApi, OpenTelemetrySdkJson) {
  auto p = newPublisher("otlp-json");
  checkExport(p, runSdk(p, "json", false));
}

TEST_F(OtlpIngestApi, ErrorsFollowTheOtlpContract) {
  auto p = newPublisher("otlp-err");
  const Headers json = {{"Content-Type", "application/json"}, {"x-channel-id", std::to_string(p.channelId)}};
  const std::string span =
      R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"5b8efff798038103d269b633813fc60c",
      "spanId":"eee19b7ec3c1b174","name":"chat","startTimeUnixNano":"1700000000000000000",
      "endTimeUnixNano":"1700000000500000000"}]}]}]})";
  // Accepted: 200 with an empty ExportTraceServiceResponse.
  auto ok = p.keyed.post("/v1/traces", span, json);
  ASSERT_STATUS(ok, 200);
  EXPECT_EQ(ok.contentType().rfind("application/json", 0), 0u);
  EXPECT_EQ(ok.body, "{}");
  auto stored = objects(listOf(p.keyed.get(tracePath("5b8efff798038103d269b633813fc60c", "events"))));
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(strField(stored[0], "occurredAt"), "2023-11-14T22:13:20.000000Z");
  EXPECT_DOUBLE_EQ(stored[0]->getObject("metadata")->getValue<double>("duration_ms"), 500);

  // A span with a bad id is refused alone: partial_success.
  const std::string mixed =
      R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"xyz","spanId":"eee19b7ec3c1b174","name":"bad"},
      {"traceId":"6b8efff798038103d269b633813fc60c","spanId":"fee19b7ec3c1b174","name":"good"}]}]}]})";
  auto partial = p.keyed.post("/v1/traces", mixed, json);
  ASSERT_STATUS(partial, 200);
  auto ps = partial.object()->getObject("partialSuccess");
  ASSERT_TRUE(ps) << partial.body;
  EXPECT_EQ(ps->getValue<std::string>("rejectedSpans"), "1");

  // Errors are google.rpc.Status bodies, not problem+json.
  auto missingChannel = p.keyed.post("/v1/traces", span, {{"Content-Type", "application/json"}});
  EXPECT_EQ(missingChannel.status, 400);
  EXPECT_EQ(missingChannel.object()->getValue<int>("code"), 3);
  auto foreignChannel = newPublisher("otlp-other");
  auto wrongOrg = foreignChannel.keyed.post("/v1/traces", span, json);
  EXPECT_EQ(wrongOrg.status, 400) << wrongOrg.describe();
  auto malformed = p.keyed.post("/v1/traces", "{\"resourceSpans\":", json);
  EXPECT_EQ(malformed.status, 400);
  EXPECT_EQ(malformed.object()->getValue<int>("code"), 3);
  auto badProto = p.keyed.post("/v1/traces", std::string("\x0a\xff\xff\xff\xff\x0f", 6),
                               {{"Content-Type", "application/x-protobuf"},
                                {"x-channel-id", std::to_string(p.channelId)}});
  EXPECT_EQ(badProto.status, 400);
  EXPECT_EQ(badProto.contentType(), "application/x-protobuf");
  auto wrongType = p.keyed.post("/v1/traces", span, {{"Content-Type", "text/plain"}});
  EXPECT_EQ(wrongType.status, 415);
  auto unauthenticated = anon().post("/v1/traces", span, json);
  EXPECT_EQ(unauthenticated.status, 401);
  EXPECT_EQ(unauthenticated.object()->getValue<int>("code"), 16);
  auto readOnly = createKey(p.tenant, {"read"});
  auto forbidden = anon().withApiKey(readOnly.key).post("/v1/traces", span, json);
  EXPECT_EQ(forbidden.status, 403);
  EXPECT_EQ(forbidden.object()->getValue<int>("code"), 7);
  // Nothing of the refused requests was stored.
  auto list = p.keyed.get("/traces?limit=100");
  EXPECT_EQ(traceIdsOf(list).size(), 2u);
}

}  // namespace
}  // namespace aev::testing

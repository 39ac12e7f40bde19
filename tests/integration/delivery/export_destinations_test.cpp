// Export destinations (docs/features.md#export-destinations) with real receivers: CRUD
// with write-only header values and every 422, other organizations' destinations 404;
// events of the organization filtered by envSlug and eventTypeFilter flow in batches
// through the OTLP exporter (protobuf decoded by the OpenTelemetry JS packages' code
// generated from the official proto definitions: spans, and metrics aggregated per batch
// in both encodings) and the HTTP exporter (JSON batches, and the same metric aggregates
// as JSON), retried on 503, with the attempts listed and a test call.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>

#include "integration/delivery/delivery_support.h"
#include "support/process.h"

namespace aev::testing {
namespace {

using namespace std::chrono_literals;

class ExportDestinationsApi : public DeliveryTest {
 protected:
  static HttpResult postDestination(const Tenant& t, Poco::JSON::Object::Ptr body) {
    return t.http.post("/export-destinations", body);
  }
  static Poco::JSON::Object::Ptr createDestination(const Tenant& t, Poco::JSON::Object::Ptr body) {
    auto r = postDestination(t, body);
    if (r.status != 201) throw std::runtime_error("create destination: " + r.describe());
    return r.object();
  }
  static std::vector<Poco::JSON::Object::Ptr> exportDeliveries(const Tenant& t, const std::string& id) {
    auto r = t.http.get("/export-destinations/" + id + "/deliveries?limit=200");
    if (r.status != 200) throw std::runtime_error("deliveries: " + r.describe());
    return objects(r.object()->getArray("data"));
  }
  // Decodes an OTLP/HTTP protobuf body with tests/exports/decode.mjs.
  static Poco::JSON::Object::Ptr decodeOtlp(const std::string& signal, const std::string& body) {
    const char* node = std::getenv("AEV_NODE");
    const char* decoder = std::getenv("AEV_OTLP_DECODE");
    if (!node || !*node || !decoder || !*decoder)
      throw std::runtime_error("AEV_NODE and AEV_OTLP_DECODE must name node and tests/exports/decode.mjs (CTest)");
    TempDir dir("aev-otlp-decode");
    writeFile(dir.file("body.bin"), body);
    auto r = runCommand({node, decoder, signal, dir.file("body.bin")}, 60s);
    if (!r.ok()) throw std::runtime_error("decode.mjs failed: " + r.output);
    return parseJson(r.output).extract<Poco::JSON::Object::Ptr>();
  }

  // What a receiver got on the metrics signal, summed over its requests (the daemon may
  // split the events into several batches): "name{k=v,...}" (attributes sorted) → value;
  // histograms add "<name>.count" and "<name>.sum". Works on the OTLP/JSON of a request
  // and on decode.mjs's rendering of its protobuf alike (int64 as strings in both).
  struct MetricTotals {
    std::map<std::string, double> values;
    std::set<std::string> services;
    std::set<std::string> temporalities;  // "1" (JSON) or "AGGREGATION_TEMPORALITY_DELTA" (decoded)
    bool allMonotonic = true;
  };
  static std::string pointKey(const std::string& name, const Poco::JSON::Object::Ptr& point) {
    std::map<std::string, std::string> attrs;
    if (auto a = point->getArray("attributes"))
      for (const auto& kv : objects(a))
        attrs[strField(kv, "key")] = kv->getObject("value")->getValue<std::string>("stringValue");
    std::string key = name + "{";
    for (const auto& [k, v] : attrs) key += (key.back() == '{' ? "" : ",") + k + "=" + v;
    return key + "}";
  }
  static void addMetrics(const Poco::JSON::Object::Ptr& request, MetricTotals& totals) {
    for (const auto& rm : objects(request->getArray("resourceMetrics"))) {
      for (const auto& a : objects(rm->getObject("resource")->getArray("attributes")))
        if (strField(a, "key") == "service.name")
          totals.services.insert(a->getObject("value")->getValue<std::string>("stringValue"));
      for (const auto& sm : objects(rm->getArray("scopeMetrics")))
        for (const auto& m : objects(sm->getArray("metrics"))) {
          const auto name = strField(m, "name");
          auto data = m->has("sum") ? m->getObject("sum") : m->getObject("histogram");
          totals.temporalities.insert(data->get("aggregationTemporality").convert<std::string>());
          if (m->has("sum") && !data->optValue<bool>("isMonotonic", false)) totals.allMonotonic = false;
          for (const auto& p : objects(data->getArray("dataPoints"))) {
            const auto key = pointKey(name, p);
            if (m->has("histogram")) {
              totals.values[key + ".count"] += p->get("count").convert<double>();
              totals.values[key + ".sum"] += p->get("sum").convert<double>();
            } else {
              totals.values[key] += p->get(p->has("asDouble") ? "asDouble" : "asInt").convert<double>();
            }
          }
        }
    }
  }

  // Two chat turns and an error of one model and agent; costs are binary fractions so
  // the sums are exact. threeTurnTotals() is what any metrics export of them adds up to.
  static void publishThreeTurns(const Tenant& t, std::int64_t ch) {
    struct Sent {
      const char* type;
      int input, output;
      double cost;
      int durationMs;  // 0: none
    };
    const std::vector<Sent> sent = {
        {"agent.message", 10, 100, 0.5, 40}, {"agent.message", 20, 200, 0.25, 60}, {"agent.error", 30, 300, 1.0, 0}};
    for (std::size_t i = 0; i < sent.size(); ++i) {
      auto metadata = obj({{"model", "gpt-4o"},
                           {"provider", "openai"},
                           {"cost_usd", sent[i].cost},
                           {"usage", obj({{"input_tokens", sent[i].input}, {"output_tokens", sent[i].output}})}});
      if (sent[i].durationMs) metadata->set("duration_ms", sent[i].durationMs);
      publish(t.http, ch, "turn-" + std::to_string(i), nullptr,
              obj({{"eventType", sent[i].type}, {"agentId", "billing-bot"}, {"metadata", metadata}}));
    }
  }
  static const std::map<std::string, double>& threeTurnTotals() {
    static const std::string group =
        "agent_events.event.type=agent.message,gen_ai.agent.name=billing-bot,"
        "gen_ai.request.model=gpt-4o,gen_ai.system=openai";
    static const std::string errorGroup =
        "agent_events.event.type=agent.error,gen_ai.agent.name=billing-bot,"
        "gen_ai.request.model=gpt-4o,gen_ai.system=openai";
    static const std::map<std::string, double> totals = {
        {"agent_events.events{" + group + "}", 2},
        {"agent_events.events{" + errorGroup + "}", 1},
        {"agent_events.errors{" + errorGroup + "}", 1},
        {"agent_events.tokens{" + group + ",gen_ai.token.type=input}", 30},
        {"agent_events.tokens{" + group + ",gen_ai.token.type=output}", 300},
        {"agent_events.tokens{" + errorGroup + ",gen_ai.token.type=input}", 30},
        {"agent_events.tokens{" + errorGroup + ",gen_ai.token.type=output}", 300},
        {"agent_events.cost_usd{" + group + "}", 0.75},
        {"agent_events.cost_usd{" + errorGroup + "}", 1.0},
        {"agent_events.duration_ms{" + group + "}.count", 2},
        {"agent_events.duration_ms{" + group + "}.sum", 100},
    };
    return totals;
  }
  static double eventCount(const MetricTotals& m) {
    double n = 0;
    for (const auto& [key, value] : m.values)
      if (key.rfind("agent_events.events{", 0) == 0) n += value;
    return n;
  }
};

TEST_F(ExportDestinationsApi, CrudKeepsHeaderValuesWriteOnly) {
  auto t = newTenant("exp");
  HttpReceiver receiver;
  auto created = createDestination(
      t, obj({{"name", "collector"}, {"endpointUrl", receiver.url("")}, {"envSlug", "*"}, {"signals", arr({"traces"})},
              {"headers", obj({{"authorization", "Bearer top-secret-value"}})}, {"serviceName", "svc"}}));
  const auto id = strField(created, "destinationId");
  EXPECT_EQ(strField(created, "kind"), "otlp");
  EXPECT_EQ(strField(created, "encoding"), "protobuf");
  EXPECT_EQ(strField(created, "orgId"), std::to_string(t.orgId));
  EXPECT_EQ(strField(created, "envSlug"), "*");
  EXPECT_EQ(strField(created, "serviceName"), "svc");
  EXPECT_TRUE(created->getValue<bool>("active"));
  ASSERT_EQ(created->getArray("headerKeys")->size(), 1u);
  EXPECT_EQ(created->getArray("headerKeys")->getElement<std::string>(0), "authorization");
  EXPECT_FALSE(created->has("headers"));
  EXPECT_EQ(strField(created, "$schema"), schemaBase() + "ExportDestination.json");

  for (const auto& r : {t.http.get("/export-destinations"), t.http.get("/export-destinations/" + id),
                        t.http.patch("/export-destinations/" + id, obj({{"name", "renamed"}}))}) {
    ASSERT_TRUE(r.status == 200) << r.describe();
    EXPECT_EQ(r.body.find("top-secret-value"), std::string::npos) << r.body;
  }
  auto listed = objects(t.http.get("/export-destinations").object()->getArray("data"));
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(strField(listed[0], "name"), "renamed");
  ASSERT_STATUS(t.http.del("/export-destinations/" + id), 204);
  EXPECT_TRUE(IsProblem(t.http.get("/export-destinations/" + id), 404));
  EXPECT_TRUE(IsProblem(t.http.get("/export-destinations/" + id + "/deliveries"), 404));

  // Audited, with header names and never their values.
  auto audit = t.http.get("/audit-logs?resourceType=export_destination");
  ASSERT_STATUS(audit, 200);
  std::vector<std::string> actions;
  for (const auto& e : objects(audit.object()->getArray("data"))) actions.push_back(strField(e, "action"));
  EXPECT_EQ(actions, (std::vector<std::string>{"export_destination.delete", "export_destination.update",
                                               "export_destination.create"}));
  EXPECT_EQ(audit.body.find("top-secret-value"), std::string::npos) << audit.body;
  EXPECT_NE(audit.body.find("authorization"), std::string::npos);
}

TEST_F(ExportDestinationsApi, BadFieldsAreOne422AndOtherOrganizationsSeeNothing) {
  auto t = newTenant("expbad");
  auto r = postDestination(t, obj({{"kind", "kafka"}, {"signals", arr({"traces", "bogus"})},
                                   {"eventTypeFilter", arr({"agent.nope"})}, {"encoding", "xml"},
                                   {"headers", obj({{"bad header", "x"}})}}));
  ASSERT_TRUE(IsProblem(r, 422));
  auto where = errorLocations(r);
  for (const char* f : {"body.name", "body.endpointUrl", "body.envSlug", "body.kind", "body.signals",
                        "body.eventTypeFilter", "body.encoding", "body.headers.bad header"})
    EXPECT_NE(std::find(where.begin(), where.end(), f), where.end()) << f << " in " << r.body;
  auto base = [](const std::string& env, Poco::JSON::Array::Ptr signals, const std::string& url) {
    return obj({{"name", "n"}, {"endpointUrl", url}, {"envSlug", env}, {"signals", signals}});
  };
  EXPECT_TRUE(IsProblem(postDestination(t, base("no-such-env", arr({"traces"}), "http://127.0.0.1:9")), 422));
  EXPECT_TRUE(IsProblem(postDestination(t, base("*", arr({}), "http://127.0.0.1:9")), 422));
  EXPECT_TRUE(IsProblem(postDestination(t, base("*", arr({"traces"}), "file:///etc/passwd")), 422));
  EXPECT_EQ(t.http.get("/export-destinations").object()->getArray("data")->size(), 0u);

  auto other = newTenant("expother");
  const auto id = strField(createDestination(t, base("*", arr({"traces"}), "http://127.0.0.1:9")), "destinationId");
  for (const auto& res : {other.http.get("/export-destinations/" + id),
                          other.http.patch("/export-destinations/" + id, obj({{"active", false}})),
                          other.http.del("/export-destinations/" + id),
                          other.http.get("/export-destinations/" + id + "/deliveries"),
                          other.http.post("/export-destinations/" + id + "/test")})
    EXPECT_TRUE(IsProblem(res, 404)) << res.describe();
  EXPECT_EQ(other.http.get("/export-destinations").object()->getArray("data")->size(), 0u);
  EXPECT_TRUE(t.http.get("/export-destinations/" + id).object()->getValue<bool>("active"));
}

TEST_F(ExportDestinationsApi, OtlpProtobufSpansDecodeWithTheOfficialDefinitions) {
  auto t = newTenant("expotlp");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  createDestination(t, obj({{"name", "otel"}, {"endpointUrl", receiver.url("")}, {"envSlug", "*"},
                            {"signals", arr({"traces"})}, {"serviceName", "checkout-agent"},
                            {"headers", obj({{"x-api-token", "tok-123"}})}}));
  const std::string traceId = "0af7651916cd43dd8448eb211c80319c";
  std::vector<std::string> names;
  for (int i = 0; i < 3; ++i) {
    names.push_back("step-" + std::to_string(i));
    publish(t.http, ch, names.back(), obj({{"i", i}}),
            obj({{"traceId", traceId}, {"spanId", "b7ad6b716920333" + std::to_string(i)},
                 {"eventType", "agent.tool_call.end"}}));
  }
  std::vector<Poco::JSON::Object::Ptr> spans;
  std::string service;
  ASSERT_TRUE(eventually([&] {
    spans.clear();
    for (const auto& r : receiver.requests()) {
      if (r.path != "/v1/traces") continue;
      auto decoded = decodeOtlp("traces", r.body);
      for (const auto& rs : objects(decoded->getArray("resourceSpans"))) {
        for (const auto& a : objects(rs->getObject("resource")->getArray("attributes")))
          if (strField(a, "key") == "service.name") service = a->getObject("value")->getValue<std::string>("stringValue");
        for (const auto& ss : objects(rs->getArray("scopeSpans")))
          for (const auto& s : objects(ss->getArray("spans"))) spans.push_back(s);
      }
    }
    return spans.size() >= 3;
  }, 20s)) << daemon().logTail();
  ASSERT_EQ(spans.size(), 3u);
  auto first = receiver.requests().front();
  EXPECT_EQ(first.header("content-type"), "application/x-protobuf");
  EXPECT_EQ(first.header("x-api-token"), "tok-123");
  EXPECT_EQ(service, "checkout-agent");
  for (std::size_t i = 0; i < spans.size(); ++i) {
    EXPECT_EQ(strField(spans[i], "name"), names[i]);
    EXPECT_EQ(strField(spans[i], "traceId"), traceId);
    EXPECT_EQ(strField(spans[i], "spanId"), "b7ad6b716920333" + std::to_string(i));
  }
}

TEST_F(ExportDestinationsApi, OtlpMetricsAggregateTheEventsInBothEncodings) {
  auto t = newTenant("expmetrics");
  const auto ch = newChannel(t);
  HttpReceiver protobuf, json;
  const auto id = strField(createDestination(t, obj({{"name", "otel-metrics"}, {"endpointUrl", protobuf.url("")},
                                                     {"envSlug", "*"}, {"signals", arr({"metrics"})},
                                                     {"serviceName", "billing-agent"}})),
                           "destinationId");
  createDestination(t, obj({{"name", "otel-metrics-json"}, {"endpointUrl", json.url("/otlp")}, {"envSlug", "*"},
                            {"signals", arr({"metrics"})}, {"serviceName", "billing-agent"},
                            {"encoding", "json"}}));
  publishThreeTurns(t, ch);
  auto totalsOf = [&](const HttpReceiver& receiver, bool decode) {
    MetricTotals totals;
    for (const auto& r : receiver.requests()) {
      EXPECT_EQ(r.path, decode ? "/v1/metrics" : "/otlp/v1/metrics");
      addMetrics(decode ? decodeOtlp("metrics", r.body) : parseJson(r.body).extract<Poco::JSON::Object::Ptr>(),
                 totals);
    }
    return totals;
  };
  MetricTotals decoded, parsed;
  ASSERT_TRUE(eventually([&] {
    decoded = totalsOf(protobuf, true);
    parsed = totalsOf(json, false);
    return eventCount(decoded) >= 3 && eventCount(parsed) >= 3;
  }, 20s)) << daemon().logTail();
  EXPECT_EQ(protobuf.requests().front().header("content-type"), "application/x-protobuf");
  EXPECT_EQ(json.requests().front().header("content-type"), "application/json");

  EXPECT_EQ(decoded.values, threeTurnTotals());
  EXPECT_EQ(parsed.values, threeTurnTotals());
  EXPECT_EQ(decoded.services, std::set<std::string>{"billing-agent"});
  EXPECT_EQ(parsed.services, std::set<std::string>{"billing-agent"});
  EXPECT_EQ(decoded.temporalities, std::set<std::string>{"AGGREGATION_TEMPORALITY_DELTA"});
  EXPECT_EQ(parsed.temporalities, std::set<std::string>{"1"});  // enums as numbers in OTLP/JSON
  EXPECT_TRUE(decoded.allMonotonic);
  EXPECT_TRUE(parsed.allMonotonic);

  // The test call aggregates its one synthetic event.
  const auto before = protobuf.count();
  auto test = t.http.post("/export-destinations/" + id + "/test");
  ASSERT_STATUS(test, 200);
  EXPECT_TRUE(test.object()->getValue<bool>("ok")) << test.body;
  ASSERT_EQ(protobuf.count(), before + 1);
  MetricTotals probe;
  addMetrics(decodeOtlp("metrics", protobuf.requests().back().body), probe);
  EXPECT_EQ(eventCount(probe), 1);
}

TEST_F(ExportDestinationsApi, HttpJsonBatchesFollowTheEnvironmentAndTypeFilters) {
  auto t = newTenant("exphttp");
  const auto ch = newChannel(t);
  ASSERT_STATUS(t.http.post("/environments", obj({{"name", "Production"}, {"slug", "prod"}})), 201);
  HttpReceiver receiver;
  receiver.respond([](const ReceivedRequest&, std::size_t i) {
    return i == 0 ? Reply{503, "warming up", {}, 0ms} : Reply{};
  });
  const auto id = strField(
      createDestination(t, obj({{"name", "json"}, {"kind", "http"}, {"endpointUrl", receiver.url("/batches")},
                                {"envSlug", "prod"}, {"signals", arr({"logs"})},
                                {"eventTypeFilter", arr({"agent.error", "custom"})}})),
      "destinationId");
  auto prod = obj({{"environment", "prod"}});
  publish(t.http, ch, "dev-event", nullptr, obj({{"metadata", obj({{"environment", "dev"}})}}));
  publish(t.http, ch, "prod-message", nullptr, obj({{"metadata", prod}, {"eventType", "agent.message"}}));
  const auto want1 = intField(publish(t.http, ch, "prod-custom", nullptr, obj({{"metadata", prod}})), "id");
  const auto want2 = intField(
      publish(t.http, ch, "prod-error", nullptr, obj({{"metadata", prod}, {"eventType", "agent.error"}})), "id");
  std::set<std::int64_t> exported;
  ASSERT_TRUE(eventually([&] {
    exported.clear();
    auto got = receiver.requests();
    for (std::size_t i = 1; i < got.size(); ++i) {
      auto body = parseJson(got[i].body).extract<Poco::JSON::Object::Ptr>();
      for (const auto& e : objects(body->getArray("events"))) exported.insert(intField(e, "id"));
    }
    return exported.size() >= 2;
  }, 20s)) << daemon().logTail();
  EXPECT_EQ(exported, (std::set<std::int64_t>{want1, want2}));
  EXPECT_EQ(receiver.requests()[1].header("x-agent-events-signal"), "logs");
  auto first = parseJson(receiver.requests()[1].body).extract<Poco::JSON::Object::Ptr>();
  EXPECT_EQ(strField(first, "signal"), "logs");

  ASSERT_TRUE(eventually([&] { return exportDeliveries(t, id).size() >= 2; }));
  auto attempts = exportDeliveries(t, id);  // newest first
  EXPECT_EQ(intField(attempts.back(), "statusCode"), 503);
  EXPECT_EQ(strField(attempts.back(), "outcome"), "retrying");
  EXPECT_EQ(intField(attempts.front(), "statusCode"), 200);
  EXPECT_EQ(strField(attempts.front(), "outcome"), "delivered");
  // The same filters as webhook attempts: outcome and status class.
  auto filtered = [&](const std::string& query) {
    auto r = t.http.get("/export-destinations/" + id + "/deliveries?" + query);
    if (r.status != 200) throw std::runtime_error(query + ": " + r.describe());
    return objects(r.object()->getArray("data"));
  };
  auto failed = filtered("statusClass=5xx");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(intField(failed[0], "statusCode"), 503);
  EXPECT_EQ(filtered("outcome=retrying").size(), 1u);
  for (const auto& a : filtered("outcome=delivered")) EXPECT_EQ(intField(a, "statusCode"), 200);
  EXPECT_TRUE(filtered("statusClass=none").empty());
  EXPECT_TRUE(IsProblem(t.http.get("/export-destinations/" + id + "/deliveries?statusClass=2XX"), 422));

  // The test call goes out now, through the same exporter.
  const auto before = receiver.count();
  auto test = t.http.post("/export-destinations/" + id + "/test");
  ASSERT_STATUS(test, 200);
  EXPECT_TRUE(test.object()->getValue<bool>("ok")) << test.body;
  EXPECT_EQ(intField(test.object(), "statusCode"), 200);
  EXPECT_EQ(receiver.count(), before + 1);
  EXPECT_NE(receiver.requests().back().body.find("agent-events.export-test"), std::string::npos);
}

TEST_F(ExportDestinationsApi, HttpMetricsShipTheSameAggregatesAsJson) {
  // kind http takes signals ⊆ traces, logs, metrics: its metrics are the batch's
  // aggregates as an OTLP/JSON document inside its own JSON envelope.
  auto t = newTenant("exphttpmetrics");
  const auto ch = newChannel(t);
  HttpReceiver receiver;
  const auto id = strField(createDestination(t, obj({{"name", "http-metrics"},
                                                     {"kind", "http"},
                                                     {"endpointUrl", receiver.url("/metrics-in")},
                                                     {"envSlug", "*"},
                                                     {"signals", arr({"metrics", "logs"})}})),
                           "destinationId");
  publishThreeTurns(t, ch);
  MetricTotals totals;
  std::set<std::int64_t> logged;
  ASSERT_TRUE(eventually(
      [&] {
        totals = MetricTotals{};
        logged.clear();
        for (const auto& r : receiver.requests()) {
          const auto body = parseJson(r.body).extract<Poco::JSON::Object::Ptr>();
          if (strField(body, "signal") == "metrics") {
            EXPECT_EQ(r.header("x-agent-events-signal"), "metrics");
            EXPECT_EQ(r.path, "/metrics-in");
            EXPECT_GT(intField(body, "count"), 0);
            addMetrics(body->getObject("metrics"), totals);
          } else {
            for (const auto& e : objects(body->getArray("events"))) logged.insert(intField(e, "id"));
          }
        }
        return eventCount(totals) >= 3 && logged.size() >= 3;
      },
      20s))
      << daemon().logTail();
  EXPECT_EQ(receiver.requests().front().header("content-type"), "application/json");
  EXPECT_EQ(totals.values, threeTurnTotals());
  EXPECT_EQ(totals.temporalities, std::set<std::string>{"1"});  // delta
  EXPECT_TRUE(totals.allMonotonic);

  // The test call ships one synthetic event on each signal, metrics included.
  const auto before = receiver.count();
  auto test = t.http.post("/export-destinations/" + id + "/test");
  ASSERT_STATUS(test, 200);
  EXPECT_TRUE(test.object()->getValue<bool>("ok")) << test.body;
  EXPECT_EQ(receiver.count(), before + 2);
}

}  // namespace
}  // namespace aev::testing

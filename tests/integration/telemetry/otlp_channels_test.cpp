// OTLP ingest as clients are set up in practice (docs/api.md#otlp-ingest): the API key in
// every form exporters send it (Bearer, x-axonpush-api-key, the Langfuse SDKs' Basic), the
// Langfuse exporter path, the channel taken from the request, the resource or the key's
// default channel, and refused exports made visible (GET /ingest/problems, /metrics, the
// log) to their own organization only.
#include <Poco/Base64Encoder.h>

#include <regex>
#include <sstream>

#include "integration/telemetry/traces_support.h"

namespace aev::testing {
namespace {

std::string base64(const std::string& text) {
  std::ostringstream out;
  Poco::Base64Encoder encoder(out);
  encoder.rdbuf()->setLineLength(0);
  encoder << text;
  encoder.close();
  return out.str();
}

// A 32-hex-digit trace id unique to this test run's counter.
std::string traceIdOf(int n) {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%08x%024x", 0x5b8e0000 + n, n);
  return buf;
}

// One resource per entry of `resources`: its agent_events.channel_id attribute (a JSON
// value, "" for none) and one span of trace `traceIds[i]`.
std::string exportJson(const std::vector<std::string>& resourceChannels, const std::vector<std::string>& traceIds) {
  std::string out = R"({"resourceSpans":[)";
  for (std::size_t i = 0; i < traceIds.size(); ++i) {
    if (i) out += ',';
    out += R"({"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}})";
    if (i < resourceChannels.size() && !resourceChannels[i].empty())
      out += R"(,{"key":"agent_events.channel_id","value":)" + resourceChannels[i] + "}";
    out += R"(]},"scopeSpans":[{"spans":[{"traceId":")" + traceIds[i] +
           R"(","spanId":"eee19b7ec3c1b174","name":"chat","startTimeUnixNano":"1700000000000000000",)"
           R"("endTimeUnixNano":"1700000000500000000"}]}]})";
  }
  return out + "]}";
}

std::string oneSpan(const std::string& traceId) { return exportJson({}, {traceId}); }

const Headers kJson = {{"Content-Type", "application/json"}};

Headers jsonTo(std::int64_t channelId) {
  return {{"Content-Type", "application/json"}, {"x-channel-id", std::to_string(channelId)}};
}

// The value of a counter line of /metrics ("name{labels} value"); -1 when absent.
std::int64_t metricValue(const std::string& metrics, const std::string& series) {
  std::istringstream lines(metrics);
  std::string line;
  while (std::getline(lines, line))
    if (line.rfind(series + " ", 0) == 0) return std::stoll(line.substr(series.size() + 1));
  return -1;
}

std::string refusals(const std::string& reason) {
  return "agent_events_ingest_refusals_total{reason=\"" + reason + "\"}";
}

class OtlpChannelsApi : public TracesTest {
 protected:
  // The channel ids of trace `traceId`'s events (as the key's organization reads them);
  // none when the trace is unknown.
  static std::vector<std::string> channelsOfTrace(const Publisher& p, const std::string& traceId) {
    std::vector<std::string> out;
    auto r = p.keyed.get(tracePath(traceId, "events"));
    if (r.status == 404) return out;  // no event of the trace was stored
    for (const auto& e : objects(listOf(r))) out.push_back(strField(e, "channelId"));
    return out;
  }
  static int next() {
    static int n = 0;
    return ++n;
  }
};

TEST_F(OtlpChannelsApi, TheApiKeyInEveryFormExportersSend) {
  auto p = newPublisher("otlp-forms");
  const auto ch = std::to_string(p.channelId);
  struct Form {
    const char* name;
    std::string header, value;
  };
  const std::vector<Form> forms = {
      {"Bearer", "Authorization", "Bearer " + p.key.key},
      {"x-axonpush-api-key", "x-axonpush-api-key", p.key.key},
      {"Basic (Langfuse: public key ignored)", "Authorization", "Basic " + base64("pk-lf-anything:" + p.key.key)},
      {"X-API-Key", "X-API-Key", p.key.key},
  };
  for (const auto& form : forms) {
    const auto traceId = traceIdOf(next());
    auto r = anon().post("/v1/traces", oneSpan(traceId),
                         {{"Content-Type", "application/json"}, {"x-channel-id", ch}, {form.header, form.value}});
    EXPECT_EQ(r.status, 200) << form.name << ": " << r.describe();
    EXPECT_EQ(channelsOfTrace(p, traceId), std::vector<std::string>{ch}) << form.name;
  }

  // Without credentials, or with a key in none of the forms: 401 naming every form, with
  // a WWW-Authenticate that offers Basic too; nothing stored.
  const auto refusedTrace = traceIdOf(next());
  for (const auto& headers : std::vector<Headers>{
           jsonTo(p.channelId),
           {{"Content-Type", "application/json"},
            {"x-channel-id", ch},
            {"Authorization", "Basic " + base64("pk:wrong")}},
           {{"Content-Type", "application/json"}, {"x-channel-id", ch}, {"Authorization", "Token " + p.key.key}}}) {
    auto r = anon().post("/v1/traces", oneSpan(refusedTrace), headers);
    ASSERT_EQ(r.status, 401) << r.describe();
    EXPECT_EQ(r.object()->getValue<int>("code"), 16);
    const auto message = r.object()->getValue<std::string>("message");
    for (const char* form : {"Authorization: Bearer aes_", "X-API-Key", "x-axonpush-api-key", "Authorization: Basic"})
      EXPECT_NE(message.find(form), std::string::npos) << form << " not named in: " << message;
    EXPECT_NE(r.header("WWW-Authenticate").find("Basic"), std::string::npos) << r.describe();
  }
  EXPECT_TRUE(channelsOfTrace(p, refusedTrace).empty());

  // Basic is for the OTLP routes only: elsewhere it is refused, and the 401 names the
  // forms that route takes (Basic not among them).
  auto rest = anon().get("/event/" + ch + "/list", {{"Authorization", "Basic " + base64("pk:" + p.key.key)}});
  ASSERT_TRUE(IsProblem(rest, 401));
  const auto detail = rest.object()->getValue<std::string>("detail");
  EXPECT_NE(detail.find("x-axonpush-api-key"), std::string::npos) << detail;
  EXPECT_EQ(detail.find("Basic"), std::string::npos) << detail;
}

TEST_F(OtlpChannelsApi, TheLangfuseExporterPathIsTheSameRoute) {
  auto p = newPublisher("otlp-langfuse");
  const auto traceId = traceIdOf(next());
  auto r = anon().post("/api/public/otel/v1/traces", oneSpan(traceId),
                       {{"Content-Type", "application/json"},
                        {"x-channel-id", std::to_string(p.channelId)},
                        {"Authorization", "Basic " + base64("pk-lf-1:" + p.key.key)}});
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(r.body, "{}");
  EXPECT_EQ(channelsOfTrace(p, traceId), std::vector<std::string>{std::to_string(p.channelId)});
  // The same errors as /v1/traces: google.rpc.Status, not problem+json.
  auto unauthenticated = anon().post("/api/public/otel/v1/traces", oneSpan(traceId), jsonTo(p.channelId));
  EXPECT_EQ(unauthenticated.status, 401);
  EXPECT_EQ(unauthenticated.object()->getValue<int>("code"), 16);
  // Documented as a route of its own.
  auto doc = anon().get("/openapi.json");
  ASSERT_STATUS(doc, 200);
  EXPECT_TRUE(doc.object()->getObject("paths")->has("/api/public/otel/v1/traces"));
}

TEST_F(OtlpChannelsApi, TheChannelFromTheRequestTheResourceOrTheKeysDefault) {
  auto p = newPublisher("otlp-ch");
  const auto second = createChannel(p.tenant, p.appId);
  const auto third = createChannel(p.tenant, p.appId);
  const auto s = [](std::int64_t id) { return std::to_string(id); };

  // The resource attribute, as a string or an integer, per resource of one export.
  const auto a = traceIdOf(next()), b = traceIdOf(next());
  auto r = p.keyed.post(
      "/v1/traces",
      exportJson({R"({"stringValue":")" + s(second) + R"("})", R"({"intValue":")" + s(third) + R"("})"}, {a, b}),
      kJson);
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(channelsOfTrace(p, a), std::vector<std::string>{s(second)});
  EXPECT_EQ(channelsOfTrace(p, b), std::vector<std::string>{s(third)});

  // x-channel-id (or ?channel_id=) wins over the resource.
  const auto c = traceIdOf(next()), d = traceIdOf(next());
  ASSERT_STATUS(
      p.keyed.post("/v1/traces", exportJson({R"({"stringValue":")" + s(second) + R"("})"}, {c}), jsonTo(p.channelId)),
      200);
  EXPECT_EQ(channelsOfTrace(p, c), std::vector<std::string>{s(p.channelId)});
  ASSERT_STATUS(p.keyed.post("/v1/traces?channel_id=" + s(third), oneSpan(d), kJson), 200);
  EXPECT_EQ(channelsOfTrace(p, d), std::vector<std::string>{s(third)});

  // Nothing names a channel and the key has no default: 400 naming the three, nothing stored.
  const auto e = traceIdOf(next());
  auto none = p.keyed.post("/v1/traces", oneSpan(e), kJson);
  ASSERT_EQ(none.status, 400) << none.describe();
  EXPECT_EQ(none.object()->getValue<int>("code"), 3);
  const auto message = none.object()->getValue<std::string>("message");
  for (const char* source : {"x-channel-id", "agent_events.channel_id", "defaultChannelId"})
    EXPECT_NE(message.find(source), std::string::npos) << source << " not named in: " << message;
  // One resource without a channel refuses the export whole.
  auto mixed = p.keyed.post("/v1/traces", exportJson({R"({"stringValue":")" + s(second) + R"("})", ""}, {e, e}), kJson);
  EXPECT_EQ(mixed.status, 400) << mixed.describe();
  EXPECT_TRUE(channelsOfTrace(p, e).empty());

  // The key's default channel (set on create, changed by PATCH).
  auto created = p.tenant.http.post(
      "/api-keys", obj({{"name", "exporter"}, {"scopes", arr({"publish", "read"})}, {"defaultChannelId", second}}));
  ASSERT_STATUS(created, 201);
  EXPECT_EQ(intField(created.object(), "defaultChannelId"), second);
  Publisher withDefault = p;
  withDefault.keyed = anon().withApiKey(strField(created.object(), "key"));
  const auto f = traceIdOf(next());
  ASSERT_STATUS(withDefault.keyed.post("/v1/traces", oneSpan(f), kJson), 200);
  EXPECT_EQ(channelsOfTrace(withDefault, f), std::vector<std::string>{s(second)});
  // The resource wins over the default.
  const auto g = traceIdOf(next());
  ASSERT_STATUS(withDefault.keyed.post("/v1/traces", exportJson({R"({"intValue":")" + s(third) + R"("})"}, {g}), kJson),
                200);
  EXPECT_EQ(channelsOfTrace(withDefault, g), std::vector<std::string>{s(third)});

  // A resource naming another organization's channel (or none of ours): 400, nothing stored.
  auto other = newPublisher("otlp-ch-other");
  const auto h = traceIdOf(next());
  auto foreign =
      p.keyed.post("/v1/traces", exportJson({R"({"intValue":")" + s(other.channelId) + R"("})"}, {h}), kJson);
  EXPECT_EQ(foreign.status, 400) << foreign.describe();
  auto notAnId = p.keyed.post("/v1/traces", exportJson({R"({"stringValue":"main"})"}, {h}), kJson);
  EXPECT_EQ(notAnId.status, 400) << notAnId.describe();
  EXPECT_NE(notAnId.object()->getValue<std::string>("message").find("agent_events.channel_id"), std::string::npos);
  EXPECT_TRUE(channelsOfTrace(p, h).empty());
  EXPECT_TRUE(channelsOfTrace(other, h).empty());

  // Deleting the default channel clears it: the key's exports need a channel again.
  ASSERT_STATUS(p.tenant.http.del("/channel/" + s(second)), 204);
  const auto keyId = intField(created.object(), "id");
  for (const auto& k : objects(p.tenant.http.get("/api-keys").array()))
    if (intField(k, "id") == keyId) {
      EXPECT_TRUE(k->isNull("defaultChannelId")) << toJson(k);
    }
  const auto i = traceIdOf(next());
  EXPECT_EQ(withDefault.keyed.post("/v1/traces", oneSpan(i), kJson).status, 400);
}

TEST_F(OtlpChannelsApi, RefusedExportsAreCountedLoggedAndListedForTheirOrganization) {
  auto p = newPublisher("otlp-problems");
  auto other = newPublisher("otlp-problems-other");
  const auto metricsBefore = anon().get("/metrics").body;
  // Every reason is exported from the start, at 0 or more.
  for (const char* reason : {"unauthenticated", "forbidden", "no_channel", "unknown_channel", "malformed", "too_large",
                             "unsupported_media_type", "rate_limited", "spans_invalid", "spans_refused"})
    EXPECT_GE(metricValue(metricsBefore, refusals(reason)), 0) << reason;

  // Three refusals of p's organization: no channel (twice), a wrong content type, a
  // partial success (one span with a bad id).
  EXPECT_EQ(p.keyed.post("/v1/traces", oneSpan(traceIdOf(next())), kJson).status, 400);
  EXPECT_EQ(p.keyed.post("/v1/traces", oneSpan(traceIdOf(next())), kJson).status, 400);
  EXPECT_EQ(p.keyed.post("/v1/traces", oneSpan(traceIdOf(next())), {{"Content-Type", "text/plain"}}).status, 415);
  const std::string partial =
      R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"xyz","spanId":"eee19b7ec3c1b174","name":"bad"},
      {"traceId":")" +
      traceIdOf(next()) + R"(","spanId":"fee19b7ec3c1b174","name":"good"}]}]}]})";
  ASSERT_STATUS(p.keyed.post("/v1/traces", partial, jsonTo(p.channelId)), 200);
  // Refused by the HTTP parser before any route (over http.max_body_bytes): counted only.
  const std::string big = R"({"resourceSpans":[],"pad":")" + std::string(1024 * 1024 + 10, 'a') + R"("})";
  EXPECT_EQ(anon().rawExchange("POST", "/v1/traces", {"Content-Type: application/json"}, big).status, 413);
  // One of the other organization's; and one that cannot be attributed (a bad key).
  EXPECT_EQ(other.keyed.post("/v1/traces", "{", jsonTo(other.channelId)).status, 400);
  EXPECT_EQ(
      anon().withApiKey("aes_" + std::string(43, 'x')).post("/v1/traces", oneSpan(traceIdOf(next())), kJson).status,
      401);

  auto list = p.keyed.get("/ingest/problems");
  ASSERT_STATUS(list, 200);
  EXPECT_EQ(strField(list.object(), "$schema"), schemaBase() + "IngestProblemList.json");
  auto problems = objects(list.object()->getArray("data"));
  ASSERT_EQ(problems.size(), 4u) << list.describe();
  EXPECT_EQ(intField(list.object()->getObject("meta"), "total"), 4);
  // Newest first.
  EXPECT_EQ(strField(problems[0], "reason"), "spans_invalid");
  EXPECT_EQ(intField(problems[0], "status"), 200);
  EXPECT_EQ(intField(problems[0], "rejectedSpans"), 1);
  EXPECT_EQ(strField(problems[1], "reason"), "unsupported_media_type");
  EXPECT_EQ(intField(problems[1], "status"), 415);
  for (int k : {2, 3}) {
    EXPECT_EQ(strField(problems[k], "reason"), "no_channel");
    EXPECT_EQ(strField(problems[k], "reasonText"), "no channel");
    EXPECT_EQ(intField(problems[k], "status"), 400);
    EXPECT_NE(strField(problems[k], "detail").find("x-channel-id"), std::string::npos);
  }
  for (const auto& problem : problems) {
    EXPECT_EQ(strField(problem, "orgId"), std::to_string(p.tenant.orgId));
    EXPECT_EQ(strField(problem, "apiKeyId"), std::to_string(p.key.id));
    EXPECT_EQ(strField(problem, "route"), "/v1/traces");
    EXPECT_FALSE(strField(problem, "occurredAt").empty());
  }
  // Paged; the same list for a member's Bearer token.
  auto paged = p.tenant.http.get("/ingest/problems?limit=3&page=2");
  ASSERT_STATUS(paged, 200);
  auto second = objects(paged.object()->getArray("data"));
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(strField(second[0], "id"), strField(problems[3], "id"));

  // Another organization's problems are never visible, whoever asks.
  auto theirs = other.keyed.get("/ingest/problems");
  ASSERT_STATUS(theirs, 200);
  auto theirProblems = objects(theirs.object()->getArray("data"));
  ASSERT_EQ(theirProblems.size(), 1u) << theirs.describe();
  EXPECT_EQ(strField(theirProblems[0], "reason"), "malformed");
  EXPECT_EQ(strField(theirProblems[0], "orgId"), std::to_string(other.tenant.orgId));
  EXPECT_EQ(other.tenant.http.get("/ingest/problems").object()->getArray("data")->size(), 1u);
  EXPECT_EQ(other.tenant.http.get("/ingest/problems", {{"x-tenant-id", std::to_string(p.tenant.orgId)}}).status, 403);

  // Counted by reason; the unattributed 401 too.
  const auto metricsAfter = anon().get("/metrics").body;
  EXPECT_EQ(metricValue(metricsAfter, refusals("no_channel")) - metricValue(metricsBefore, refusals("no_channel")), 2);
  EXPECT_EQ(metricValue(metricsAfter, refusals("unsupported_media_type")) -
                metricValue(metricsBefore, refusals("unsupported_media_type")),
            1);
  EXPECT_EQ(
      metricValue(metricsAfter, refusals("spans_invalid")) - metricValue(metricsBefore, refusals("spans_invalid")), 1);
  EXPECT_EQ(metricValue(metricsAfter, refusals("malformed")) - metricValue(metricsBefore, refusals("malformed")), 1);
  EXPECT_EQ(
      metricValue(metricsAfter, refusals("unauthenticated")) - metricValue(metricsBefore, refusals("unauthenticated")),
      1);
  EXPECT_EQ(metricValue(metricsAfter, refusals("too_large")) - metricValue(metricsBefore, refusals("too_large")), 1);

  // Logged at warn once per key and reason a minute: two no-channel refusals, one line.
  const auto log = daemon().log();
  const std::regex noChannelLine("OTLP export refused \\(no_channel, 400\\) from key " + std::to_string(p.key.id) +
                                 " ");
  const auto lines = std::distance(std::sregex_iterator(log.begin(), log.end(), noChannelLine), std::sregex_iterator());
  EXPECT_EQ(lines, 1) << "no-channel warnings for key " << p.key.id;

  // Reading takes `read`; publishing keys without it are refused.
  auto publishOnly = createKey(p.tenant, {"publish"});
  EXPECT_TRUE(IsProblem(anon().withApiKey(publishOnly.key).get("/ingest/problems"), 403));
  EXPECT_TRUE(IsProblem(anon().get("/ingest/problems"), 401));
}

TEST_F(OtlpChannelsApi, AnOrganizationKeepsItsNewest100Problems) {
  auto p = newPublisher("otlp-bound");
  for (int i = 0; i < 103; ++i) ASSERT_EQ(p.keyed.post("/v1/traces", oneSpan(traceIdOf(next())), kJson).status, 400);
  ASSERT_EQ(p.keyed.post("/v1/traces", "{", jsonTo(p.channelId)).status, 400);
  auto list = p.keyed.get("/ingest/problems?limit=100");
  ASSERT_STATUS(list, 200);
  EXPECT_EQ(intField(list.object()->getObject("meta"), "total"), 100);
  auto problems = objects(list.object()->getArray("data"));
  ASSERT_EQ(problems.size(), 100u);
  EXPECT_EQ(strField(problems[0], "reason"), "malformed");  // the newest is kept
}

}  // namespace
}  // namespace aev::testing

// Any loaded exporter is an export destination kind (docs/plugins.md#writing-an-export-sink):
// the SDK's example NDJSON file sink (sdk/examples/export_sink_example, loaded from a second
// plugins.dir directory) listed by GET /export-destinations/kinds, selected through the API
// with its own config (no endpointUrl), receiving the organization's events; two
// organizations' destinations of the same kind kept apart; the plugin's refusal as a 422;
// a batch the sink cannot write retried, given up (health, the error log line, /metrics)
// and redelivered. Alert rules of a sink whose schema needs no address (the "file" sink of
// tests/plugins/fixtures/typed_file_sinks.cpp) need no destination.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "integration/delivery/delivery_support.h"
#include "support/process.h"

namespace aev::testing {
namespace {

using namespace std::chrono_literals;

std::string pluginDirs() {
  const char* dirs = std::getenv("AEV_PLUGIN_DIRS");
  if (!dirs || !*dirs) throw std::runtime_error("AEV_PLUGIN_DIRS must list the standard and example plugin dirs");
  return dirs;
}

class PluginDestinationsApi : public DeliveryTest {
 public:
  static void SetUpTestSuite() {
    startDaemon(options(deliverySettings({{"plugins.dir", pluginDirs()}, {"alerts.evaluate_interval_seconds", "1"}})));
  }

 protected:
  static Poco::JSON::Object::Ptr fileDestination(const std::string& path, const std::string& name = "file") {
    return obj({{"name", name},
                {"kind", "ndjson_file"},
                {"envSlug", "*"},
                {"signals", arr({"logs"})},
                {"config", obj({{"path", path}})}});
  }
  static std::string create(const Tenant& t, Poco::JSON::Object::Ptr body) {
    auto r = t.http.post("/export-destinations", body);
    if (r.status != 201) throw std::runtime_error("create destination: " + r.describe());
    return strField(r.object(), "destinationId");
  }
  // The ids of the events in an NDJSON file, in file order.
  static std::vector<std::int64_t> idsIn(const std::string& path) {
    std::vector<std::int64_t> out;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) out.push_back(intField(parseJson(line).extract<Poco::JSON::Object::Ptr>(), "id"));
    return out;
  }
  static Poco::JSON::Object::Ptr health(const Tenant& t, const std::string& id) {
    auto r = t.http.get("/export-destinations/" + id);
    if (r.status != 200) throw std::runtime_error("get destination: " + r.describe());
    return r.object()->getObject("health");
  }
};

TEST_F(PluginDestinationsApi, KindsListEveryLoadedExporterWithItsSchema) {
  auto t = newTenant("kinds");
  auto r = t.http.get("/export-destinations/kinds");
  ASSERT_STATUS(r, 200);
  std::map<std::string, Poco::JSON::Object::Ptr> kinds;
  for (const auto& k : objects(r.object()->getArray("data"))) kinds[strField(k, "name")] = k;
  ASSERT_EQ(kinds.count("otlp"), 1u) << r.body;
  ASSERT_EQ(kinds.count("http"), 1u) << r.body;
  ASSERT_EQ(kinds.count("ndjson_file"), 1u) << r.body;
  auto file = kinds["ndjson_file"];
  EXPECT_EQ(strField(file, "plugin"), "export_sink_example");
  EXPECT_EQ(toJson(file->get("requiredKeys")), R"(["path"])");
  EXPECT_EQ(toJson(file->get("signals")), R"(["logs"])");
  EXPECT_EQ(strField(file->getObject("configSchema")->getObject("properties")->getObject("path"), "type"), "string");
  EXPECT_EQ(toJson(kinds["otlp"]->get("requiredKeys")), R"(["endpointUrl"])");
  EXPECT_TRUE(IsProblem(anon().get("/export-destinations/kinds"), 401));
}

TEST_F(PluginDestinationsApi, AFileSinkReceivesTheEventsOfItsOwnOrganizationOnly) {
  TempDir dir("aev-ndjson");
  auto a = newTenant("filea");
  auto b = newTenant("fileb");
  const auto idA = create(a, fileDestination(dir.file("a.ndjson")));
  const auto idB = create(b, fileDestination(dir.file("b.ndjson")));
  auto shown = a.http.get("/export-destinations/" + idA).object();
  EXPECT_EQ(strField(shown, "kind"), "ndjson_file");
  EXPECT_EQ(strField(shown, "endpointUrl"), "");
  EXPECT_EQ(toJson(shown->get("config")), R"({"path":")" + dir.file("a.ndjson") + R"("})");

  const auto chA = newChannel(a);
  const auto chB = newChannel(b);
  auto wantA = publishMany(a.http, chA, 3);
  auto wantB = publishMany(b.http, chB, 2);
  ASSERT_TRUE(eventually(
      [&] { return idsIn(dir.file("a.ndjson")).size() >= 3 && idsIn(dir.file("b.ndjson")).size() >= 2; }, 20s))
      << daemon().logTail();
  EXPECT_EQ(idsIn(dir.file("a.ndjson")), wantA);
  EXPECT_EQ(idsIn(dir.file("b.ndjson")), wantB);
  EXPECT_EQ(strField(health(a, idA), "state"), "ok");
  EXPECT_EQ(intField(health(b, idB), "consecutiveFailures"), 0);

  // Changing one destination's path moves only its own events.
  ASSERT_STATUS(a.http.patch("/export-destinations/" + idA, obj({{"config", obj({{"path", dir.file("a2.ndjson")}})}})),
                200);
  auto moved = publishMany(a.http, chA, 1);
  ASSERT_TRUE(eventually([&] { return !idsIn(dir.file("a2.ndjson")).empty(); }, 20s)) << daemon().logTail();
  EXPECT_EQ(idsIn(dir.file("a2.ndjson")), moved);
  EXPECT_EQ(idsIn(dir.file("b.ndjson")), wantB);
}

TEST_F(PluginDestinationsApi, ThePluginRefusesItsConfigWithA422AndNothingIsSaved) {
  auto t = newTenant("filebad");
  auto r = t.http.post("/export-destinations", fileDestination("relative.ndjson"));
  ASSERT_TRUE(IsProblem(r, 422));
  EXPECT_EQ(errorLocations(r), (std::vector<std::string>{"body.config"}));
  EXPECT_NE(r.body.find("path must be an absolute file path"), std::string::npos) << r.body;

  auto noConfig = obj({{"name", "n"}, {"kind", "ndjson_file"}, {"envSlug", "*"}, {"signals", arr({"logs"})}});
  r = t.http.post("/export-destinations", noConfig);
  ASSERT_TRUE(IsProblem(r, 422));
  EXPECT_NE(r.body.find("path must be an absolute file path"), std::string::npos) << r.body;

  auto reserved = fileDestination("/tmp/x.ndjson");
  reserved->getObject("config")->set("endpointUrl", "http://127.0.0.1:9");
  r = t.http.post("/export-destinations", reserved);
  ASSERT_TRUE(IsProblem(r, 422));
  EXPECT_EQ(errorLocations(r), (std::vector<std::string>{"body.config.endpointUrl"}));
  auto notObject = fileDestination("/tmp/x.ndjson");
  notObject->set("config", "path=/tmp/x");
  EXPECT_TRUE(IsProblem(t.http.post("/export-destinations", notObject), 422));
  // otlp still needs its endpointUrl.
  r = t.http.post("/export-destinations",
                  obj({{"name", "o"}, {"kind", "otlp"}, {"envSlug", "*"}, {"signals", arr({"traces"})}}));
  ASSERT_TRUE(IsProblem(r, 422));
  EXPECT_EQ(errorLocations(r), (std::vector<std::string>{"body.endpointUrl"}));
  EXPECT_EQ(t.http.get("/export-destinations").object()->getArray("data")->size(), 0u);
}

TEST_F(PluginDestinationsApi, AGivenUpBatchShowsInHealthAndTheLogAndRedeliveryCompletesIt) {
  TempDir dir("aev-ndjson-fail");
  const auto target = dir.file("later/out.ndjson");  // its directory does not exist yet: every write fails
  auto t = newTenant("filefail");
  const auto id = create(t, fileDestination(target));
  const auto ch = newChannel(t);
  const auto from = publishMany(t.http, ch, 1);
  // Five retries 200 ms apart, then the batch is given up.
  ASSERT_TRUE(eventually([&] { return intField(health(t, id), "givenUpBatches") >= 1; }, 30s)) << daemon().logTail();
  auto h = health(t, id);
  EXPECT_EQ(strField(h, "state"), "failing");
  EXPECT_GE(intField(h, "consecutiveFailures"), 6);
  EXPECT_NE(strField(h, "lastFailureReason").find("cannot open " + target), std::string::npos) << toJson(h);
  EXPECT_TRUE(h->isNull("lastSuccessAt"));
  // One line at error level naming the destination, the batch and the reason.
  std::string line;
  {
    std::istringstream log(daemon().log());
    for (std::string l; std::getline(log, l);)
      if (l.find("export destination " + id + " of organization") != std::string::npos) line = l;
  }
  EXPECT_NE(line.find(" error ["), std::string::npos) << line;
  EXPECT_NE(line.find(": batch msg_"), std::string::npos) << line;
  EXPECT_NE(line.find("given up after 6 attempt(s), retries exhausted: "), std::string::npos) << line;
  EXPECT_NE(line.find("cannot open " + target), std::string::npos) << line;
  auto metrics = anon().get("/metrics");
  EXPECT_NE(metrics.body.find("agent_events_export_batches_given_up_total"), std::string::npos);

  // Redelivering one batch that is not given up is a 404; the window re-sends the batch.
  EXPECT_TRUE(
      IsProblem(t.http.post("/export-destinations/" + id + "/redeliver", obj({{"deliveryId", "999999"}})), 404));
  EXPECT_TRUE(IsProblem(t.http.post("/export-destinations/" + id + "/redeliver", obj({})), 422));
  std::filesystem::create_directories(dir.file("later"));
  auto r = t.http.post("/export-destinations/" + id + "/redeliver", obj({{"from", "2020-01-01T00:00:00Z"}}));
  ASSERT_STATUS(r, 202);
  EXPECT_EQ(intField(r.object(), "queued"), 1);
  ASSERT_TRUE(eventually([&] { return idsIn(target).size() >= 1; }, 20s)) << daemon().logTail();
  EXPECT_EQ(idsIn(target), from);
  ASSERT_TRUE(eventually([&] { return strField(health(t, id), "state") == "ok"; }, 20s));
  EXPECT_EQ(intField(health(t, id), "givenUpBatches"), 0);
  // health24h: the six failed attempts and the delivered one; a file sink has no HTTP status.
  for (const auto& d : {t.http.get("/export-destinations/" + id).object(),
                        t.http.get("/export-destinations").object()->getArray("data")->getObject(0)}) {
    auto h24 = d->getObject("health24h");
    ASSERT_TRUE(h24) << toJson(d);
    EXPECT_GE(intField(h24, "deliveries"), 7);
    EXPECT_GE(intField(h24, "succeeded"), 1);
    EXPECT_LT(h24->getValue<double>("successRate"), 1);
    EXPECT_TRUE(h24->isNull("lastFailureStatus"));
    EXPECT_NE(strField(h24, "lastFailureReason").find("cannot open"), std::string::npos) << toJson(h24);
  }
  // Nothing left to re-send: a second redelivery queues nothing.
  r = t.http.post("/export-destinations/" + id + "/redeliver", obj({{"from", "2020-01-01T00:00:00Z"}}));
  ASSERT_STATUS(r, 202);
  EXPECT_EQ(intField(r.object(), "queued"), 0);
  // Another organization cannot redeliver it.
  auto other = newTenant("fileother");
  EXPECT_TRUE(IsProblem(
      other.http.post("/export-destinations/" + id + "/redeliver", obj({{"from", "2020-01-01T00:00:00Z"}})), 404));
}

TEST_F(PluginDestinationsApi, AlertSinksAreDestinationKindsAndSecretConfigIsNeverReturned) {
  auto t = newTenant("alertkinds");
  auto kinds = t.http.get("/v2/alerts/destination-kinds");
  ASSERT_STATUS(kinds, 200);
  std::map<std::string, Poco::JSON::Object::Ptr> byName;
  for (const auto& k : objects(kinds.object()->getArray("data"))) byName[strField(k, "name")] = k;
  ASSERT_EQ(byName.count("webhook"), 1u) << kinds.body;
  EXPECT_EQ(toJson(byName["webhook"]->get("secretKeys")), R"(["secret"])");
  EXPECT_EQ(strField(byName["webhook"], "plugin"), "alert_webhook");

  const std::string secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  auto rule = obj({{"name", "busy"},
                   {"metric", "event_count"},
                   {"operator", "gt"},
                   {"threshold", 1000},
                   {"destination", "http://127.0.0.1:9/alerts"},
                   {"destinationType", "webhook"},
                   {"destinationConfig", obj({{"secret", secret}})}});
  auto r = t.http.post("/v2/alerts", rule);
  ASSERT_STATUS(r, 201);
  EXPECT_EQ(r.body.find(secret), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), std::string::npos) << r.body;
  EXPECT_EQ(toJson(r.object()->get("secretConfigKeys")), R"(["secret"])");
  EXPECT_EQ(toJson(r.object()->get("destinationConfig")), "{}");
  const auto id = strField(r.object(), "alertRuleId");
  auto got = t.http.get("/v2/alerts/" + id);
  ASSERT_STATUS(got, 200);
  EXPECT_EQ(got.body.find("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), std::string::npos) << got.body;
  EXPECT_EQ(toJson(got.object()->get("secretConfigKeys")), R"(["secret"])");
  auto list = t.http.get("/v2/alerts");
  EXPECT_EQ(list.body.find("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), std::string::npos) << list.body;

  // The sink checks its own config: a malformed secret is a 422 with its message.
  rule->set("destinationConfig", obj({{"secret", "not-a-secret"}}));
  auto bad = t.http.post("/v2/alerts", rule);
  ASSERT_TRUE(IsProblem(bad, 422));
  EXPECT_EQ(errorLocations(bad), (std::vector<std::string>{"body.destinationConfig"}));
  EXPECT_NE(bad.body.find("secret must be"), std::string::npos) << bad.body;
  EXPECT_EQ(objects(t.http.get("/v2/alerts").object()->getArray("data")).size(), 1u);
}

// The lines of a file (an alert sink's notifications), each parsed.
std::vector<Poco::JSON::Object::Ptr> jsonLines(const std::string& path) {
  std::vector<Poco::JSON::Object::Ptr> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(parseJson(line).extract<Poco::JSON::Object::Ptr>());
  return out;
}

TEST_F(PluginDestinationsApi, AnAlertSinkThatNeedsNoAddressTakesARuleWithoutDestination) {
  TempDir dir("aev-alertfile");
  auto t = newTenant("alertfile");
  auto kinds = t.http.get("/v2/alerts/destination-kinds");
  ASSERT_STATUS(kinds, 200);
  std::map<std::string, Poco::JSON::Object::Ptr> byName;
  for (const auto& k : objects(kinds.object()->getArray("data"))) byName[strField(k, "name")] = k;
  ASSERT_EQ(byName.count("file"), 1u) << kinds.body;
  EXPECT_EQ(toJson(byName["file"]->get("requiredKeys")), R"(["path"])");

  auto rule = obj({{"name", "any event"},
                   {"metric", "event_count"},
                   {"operator", "gt"},
                   {"threshold", 0},
                   {"windowMins", 5},
                   {"destinationType", "file"},
                   {"destinationConfig", obj({{"path", dir.file("alerts.ndjson")}})}});
  auto r = t.http.post("/v2/alerts", rule);
  ASSERT_STATUS(r, 201);
  EXPECT_TRUE(r.object()->isNull("destination")) << r.body;
  EXPECT_EQ(strField(r.object(), "destinationType"), "file");
  const auto id = strField(r.object(), "alertRuleId");

  // The sink still checks its own config: a relative path is its 422, and nothing changes.
  auto bad = t.http.patch("/v2/alerts/" + id, obj({{"destinationConfig", obj({{"path", "alerts.ndjson"}})}}));
  ASSERT_TRUE(IsProblem(bad, 422));
  EXPECT_EQ(errorLocations(bad), (std::vector<std::string>{"body.destinationConfig"}));
  EXPECT_NE(bad.body.find("path must be an absolute file path"), std::string::npos) << bad.body;
  EXPECT_EQ(toJson(t.http.get("/v2/alerts/" + id).object()->get("destinationConfig")),
            R"({"path":")" + dir.file("alerts.ndjson") + R"("})");

  // It fires: the notification reaches the file, with no address anywhere.
  const auto channel = newChannel(t);
  publishMany(t.http, channel, 1);
  ASSERT_TRUE(eventually([&] { return !jsonLines(dir.file("alerts.ndjson")).empty(); }, 20s)) << daemon().logTail();
  auto first = jsonLines(dir.file("alerts.ndjson")).front();
  EXPECT_EQ(strField(first, "state"), "firing");
  EXPECT_EQ(strField(first, "alertRuleId"), id);

  // A sink whose schema requires an address still needs one, from destination or its config.
  auto webhook = obj({{"name", "hook"},
                      {"metric", "event_count"},
                      {"operator", "gt"},
                      {"threshold", 1000},
                      {"destinationType", "webhook"}});
  auto missing = t.http.post("/v2/alerts", webhook);
  ASSERT_TRUE(IsProblem(missing, 422));
  EXPECT_EQ(errorLocations(missing), (std::vector<std::string>{"body.destination"}));
  webhook->set("destinationConfig", obj({{"url", "http://127.0.0.1:9/alerts"}}));
  ASSERT_STATUS(t.http.post("/v2/alerts", webhook), 201);
  EXPECT_EQ(objects(t.http.get("/v2/alerts").object()->getArray("data")).size(), 2u);
}

TEST_F(PluginDestinationsApi, ATypedSinksSecretIsSealedAndNeverReturned) {
  TempDir dir("aev-typed");
  auto t = newTenant("typed");
  const std::string token = "tok_" + std::string(24, 'q');
  auto body = obj({{"name", "typed"},
                   {"kind", "typed_file"},
                   {"envSlug", "*"},
                   {"signals", arr({"logs"})},
                   {"config", obj({{"path", dir.file("typed.ndjson")},
                                   {"token", token},
                                   {"maxLineBytes", 4096},
                                   {"flush", true},
                                   {"format", "json-seq"}})}});
  auto r = t.http.post("/export-destinations", body);
  ASSERT_STATUS(r, 201);
  EXPECT_EQ(r.body.find(token), std::string::npos) << r.body;
  EXPECT_EQ(toJson(r.object()->get("secretConfigKeys")), R"(["token"])");
  EXPECT_FALSE(r.object()->getObject("config")->has("token")) << r.body;
  const auto id = strField(r.object(), "destinationId");
  EXPECT_EQ(t.http.get("/export-destinations").body.find(token), std::string::npos);
  // The plugin got the opened token: its events arrive.
  auto want = publishMany(t.http, newChannel(t), 2);
  ASSERT_TRUE(eventually([&] { return jsonLines(dir.file("typed.ndjson")).size() >= 2; }, 20s)) << daemon().logTail();
  EXPECT_EQ(intField(jsonLines(dir.file("typed.ndjson")).front()->getObject("event"), "id"), want.front());

  body->getObject("config")->set("token", "nope");
  auto bad = t.http.post("/export-destinations", body);
  ASSERT_TRUE(IsProblem(bad, 422));
  EXPECT_NE(bad.body.find("token must start with tok_"), std::string::npos) << bad.body;
  EXPECT_EQ(bad.body.find("nope"), std::string::npos) << "a refused secret is not echoed: " << bad.body;
  (void)id;
}

}  // namespace
}  // namespace aev::testing

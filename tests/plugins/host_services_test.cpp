// What the host table gives plugins (configuration section, metrics, logging, call
// reporting), what instances return, and the JSON description for GET /admin/plugins.
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include "common/metrics.h"
#include "support/plugin_test_support.h"

namespace aev::plugins {
namespace {

using test::fixturePath;

TEST(HostServices, PluginReadsItsOwnConfigSection) {
  HostOptions options;
  options.config["plugins.fixture_c_basic.word"] = "banana";
  options.config["plugins.other_plugin.word"] = "apple";  // another plugin's section
  Host host(options);
  ASSERT_EQ(host.loadFile(fixturePath("c_basic")).loaded.size(), 1u);
  auto r = host.registry().detector("fixture.word")->create()->scan("apple banana apple banana");
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].start, 6u);
  EXPECT_EQ(r.findings[1].start, 19u);
  EXPECT_EQ(r.findings[0].label, "word");
  EXPECT_DOUBLE_EQ(r.findings[0].score, 0.5);
}

TEST(HostServices, DefaultWhenTheKeyIsAbsentAndConfigErrorWhenInvalid) {
  {
    Host host;
    ASSERT_EQ(host.loadFile(fixturePath("c_basic")).loaded.size(), 1u);
    EXPECT_EQ(host.registry().detector("fixture.word")->create()->scan("a secret").findings.size(), 1u);
  }
  HostOptions options;
  options.config["plugins.fixture_c_basic.word"] = "";
  Host host(options);
  ASSERT_EQ(host.loadFile(fixturePath("c_basic")).loaded.size(), 1u);
  try {
    host.registry().detector("fixture.word")->create();
    FAIL();
  } catch (const PluginError& e) {
    EXPECT_EQ(e.status(), AEV_ERR_CONFIG);
    EXPECT_NE(std::string(e.what()).find("must not be empty"), std::string::npos);
  }
}

TEST(HostServices, PluginCountersAppearInMetrics) {
  Host host;
  ASSERT_EQ(host.loadFile(fixturePath("c_basic")).loaded.size(), 1u);
  auto instance = host.registry().detector("fixture.word")->create();
  auto& counter = Metrics::instance().counter("aev_plugin_scans_total{plugin=\"fixture_c_basic\"}");
  auto before = counter.load();
  instance->scan("x");
  instance->scan("y");
  EXPECT_EQ(counter.load(), before + 2);
  EXPECT_NE(Metrics::instance().renderPrometheus().find("# HELP aev_plugin_scans_total Scans by fixture.word"),
            std::string::npos);
}

TEST(HostServices, ExporterOutcomesCarryResponseAndRetryHint) {
  Host host;
  ASSERT_EQ(host.loadFile(fixturePath("c_basic")).loaded.size(), 1u);
  auto exporters = host.registry().exporter("fixture.recorder");

  auto ok = exporters->open(R"({"mode":"ok"})")->exportBatch(AEV_SIGNAL_TRACES, "[{},{}]", 2);
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.responseStatus, 200);
  EXPECT_NE(ok.responseBody.find("\"events\":2"), std::string::npos) << ok.responseBody;
  EXPECT_NE(ok.responseBody.find("\"signal\":1"), std::string::npos);
  EXPECT_NE(ok.responseBody.find("\"deadline\":true"), std::string::npos);
  EXPECT_FALSE(ok.retryAfter.has_value());

  auto retry = exporters->open(R"({"mode":"retry"})")->exportBatch(AEV_SIGNAL_LOGS, "[]", 0);
  EXPECT_EQ(retry.status, AEV_RETRY);
  EXPECT_TRUE(retry.retryable());
  EXPECT_EQ(retry.responseStatus, 503);
  ASSERT_TRUE(retry.retryAfter.has_value());
  EXPECT_EQ(retry.retryAfter->count(), 1500);
  EXPECT_EQ(retry.error, "receiver busy");

  auto permanent = exporters->open(R"({"mode":"permanent"})")->exportBatch(AEV_SIGNAL_LOGS, "[]", 0);
  EXPECT_EQ(permanent.status, AEV_ERR_PERMANENT);
  EXPECT_FALSE(permanent.retryable());
  EXPECT_EQ(permanent.responseStatus, 400);

  EXPECT_THROW(exporters->open(R"({"mode":"invalid"})"), PluginError);
}

TEST(HostServices, AlertSinkAndDimension) {
  Host host;
  ASSERT_EQ(host.loadFile(fixturePath("c_basic")).loaded.size(), 1u);
  auto d = host.registry().alertSink("fixture.alert")->open("{}")->deliver(R"({"state":"firing"})");
  EXPECT_TRUE(d.ok());
  EXPECT_EQ(d.responseStatus, 202);
  EXPECT_EQ(d.responseBody, R"({"state":"firing"})");

  auto dim = host.registry().dimension("fixture.length")->create();
  EXPECT_EQ(dim->key("{}").key.value_or(""), "2");
  EXPECT_EQ(dim->key("{}", "team").key.value_or(""), "param:team");
}

TEST(HostServices, DescribeJsonListsPluginsComponentsAndRefusals) {
  Host host;
  host.loadFile(fixturePath("c_basic"));
  host.loadFile(fixturePath("future_major"));
  host.registry().detector("fixture.word")->create()->scan("secret");

  Poco::JSON::Parser parser;
  auto root = parser.parse(host.describeJson()).extract<Poco::JSON::Object::Ptr>();
  EXPECT_EQ(root->getObject("abi")->getValue<int>("major"), AEV_ABI_MAJOR);
  auto plugins = root->getArray("plugins");
  ASSERT_EQ(plugins->size(), 1u);
  auto p = plugins->getObject(0);
  EXPECT_EQ(p->getValue<std::string>("name"), "fixture_c_basic");
  EXPECT_EQ(p->getValue<std::string>("version"), "1.2.3");
  EXPECT_EQ(p->getValue<std::string>("supportUrl"), "https://example.invalid/support");
  auto components = p->getArray("components");
  ASSERT_EQ(components->size(), 5u);
  auto word = components->getObject(0);
  EXPECT_EQ(word->getValue<std::string>("kind"), "detector");
  EXPECT_EQ(word->getValue<std::string>("name"), "fixture.word");
  EXPECT_EQ(word->getArray("targets")->size(), 1u);
  EXPECT_GE(word->getValue<int>("calls"), 1);
  EXPECT_TRUE(word->has("avgLatencyMs"));
  auto refused = root->getArray("refused");
  ASSERT_EQ(refused->size(), 1u);
  EXPECT_EQ(refused->getObject(0)->getValue<std::string>("kind"), "incompatible");
}

TEST(HostServices, LoadedAndRefusedGaugesInMetrics) {
  Host host;
  host.loadFile(fixturePath("c_basic"));
  host.loadFile(fixturePath("bad_magic"));
  auto text = Metrics::instance().renderPrometheus();
  EXPECT_NE(text.find("aev_plugins_loaded 1"), std::string::npos);
  EXPECT_NE(text.find("aev_plugins_refused 1"), std::string::npos);
  EXPECT_NE(text.find("aev_plugin_info{plugin=\"fixture_c_basic\",version=\"1.2.3\"} 1"), std::string::npos);
}

}  // namespace
}  // namespace aev::plugins

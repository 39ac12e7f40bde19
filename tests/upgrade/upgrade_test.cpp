// Upgrade in place (tests/upgrade/README.md): each checked-in fixture is a store written by
// an earlier release. The current daemon starts on it as an operator's upgrade would:
// the migrations apply, every answer the release recorded is answered the same, its API key
// still publishes, the audit chains verify offline, and a subscriber resumes exactly. Then a
// schema version from the future makes the daemon refuse to start and change nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include <Poco/JSON/Parser.h>
#include <Poco/URI.h>

#include <filesystem>
#include <map>
#include <set>

#include "support/backend.h"
#include "support/daemon_process.h"
#include "support/postgres_server.h"
#include "support/sse_client.h"
#include "upgrade/store_commands.h"
#include "upgrade/upgrade_probes.h"

namespace aev::testing::upgrade {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::vector<std::string> fixtureDirs() {
  std::vector<std::string> dirs;
  const char* root = std::getenv("AEV_UPGRADE_FIXTURES");
  if (!root) return dirs;
  for (const auto& e : fs::directory_iterator(root))
    if (e.is_directory()) dirs.push_back(e.path().string());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

Poco::JSON::Object::Ptr readJson(const fs::path& path) {
  return Poco::JSON::Parser().parse(readFile(path.string())).extract<Poco::JSON::Object::Ptr>();
}

class Upgrade : public ::testing::TestWithParam<std::string> {};

TEST_P(Upgrade, TheReleasesStoreMigratesAndAnswersAsItDid) {
  const fs::path dir = GetParam();
  const auto backend = currentBackendName();
  const auto manifest = SeedManifest::fromJson(readJson(dir / ("manifest-" + backend + ".json")));
  const auto expected = readJson(dir / ("expected-" + backend + ".json"));

  DaemonOptions options;
  if (currentBackend() == Backend::PostgreSQL) {
    options.databaseUrl = PostgresServer::instance().createDatabase();
    loadSqlDump((dir / "postgresql.sql.gz").string(), *options.databaseUrl);
  } else {
    options.databaseUrl = "";
  }
  DaemonProcess daemon(options);
  untar((dir / ("datadir-" + backend + ".tar.gz")).string(), daemon.dataDir());
  ASSERT_NO_THROW(daemon.start()) << daemon.logTail();
  EXPECT_NE(daemon.log().find("applying migration"), std::string::npos) << "no migration ran: " << daemon.logTail();

  // Every answer the release recorded, answered the same (fields added since are allowed).
  auto login = daemon.client().post("/auth/login", obj({{"login", manifest.login}, {"password", manifest.password}}));
  ASSERT_EQ(login.status, 200) << login.describe();
  auto http = daemon.client()
                  .withBearer(login.object()->getValue<std::string>("access_token"))
                  .withHeader("x-tenant-id", std::to_string(manifest.orgId));
  for (const auto& [path, recorded] : *expected) {
    auto now = http.get(path);
    ASSERT_EQ(now.status, 200) << now.describe();
    EXPECT_EQ(probeDifference(path, recorded, now.json()), "") << "GET " << path;
  }

  // The release's events are folded into the analytics rollups in the background
  // (docs/features.md#analytics-rollups); once that is done the analytics answers, now
  // served from the rollups, are still the recorded ones (percentiles within 1 %).
  const auto backfilled = [&] {
    const auto text = daemon.client().get("/metrics").body;
    return text.find("\nagent_events_rollup_backfill_remaining 0\n") != std::string::npos &&
           text.find("\nagent_events_rollup_backfill_events_total 0\n") == std::string::npos;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!backfilled() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(backfilled()) << daemon.logTail();
  EXPECT_NE(daemon.log().find("analytics rollups: backfill done"), std::string::npos) << daemon.logTail();
  for (const auto& [path, recorded] : *expected) {
    if (path.rfind("/analytics/", 0) != 0) continue;
    auto now = http.get(path);
    ASSERT_EQ(now.status, 200) << now.describe();
    EXPECT_EQ(probeDifference(path, recorded, now.json()), "") << "GET " << path << " (from the rollups)";
  }

  // The release's events get their trace facets in the background too (v23,
  // docs/features.md#traces); once that is done, each filtered traces list, now answered
  // from the facets, holds exactly the recorded traces whose recorded events carry the
  // value, in the recorded order.
  const auto facetsDone = [&] {
    const auto text = daemon.client().get("/metrics").body;
    return text.find("\nagent_events_trace_facet_backfill_remaining 0\n") != std::string::npos &&
           text.find("\nagent_events_trace_facet_backfill_events_total 0\n") == std::string::npos;
  };
  const auto facetDeadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!facetsDone() && std::chrono::steady_clock::now() < facetDeadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(facetsDone()) << daemon.logTail();
  EXPECT_NE(daemon.log().find("trace facets: backfill done"), std::string::npos) << daemon.logTail();
  std::vector<std::string> recordedOrder;
  std::map<std::string, std::set<std::string>> facetsOf;  // trace -> "model=gpt-4o", "tag:tier=gold", ...
  std::set<std::string> allFacets;
  const auto recordedTraces = expected->getObject("/traces?limit=100")->getArray("data");
  for (std::size_t i = 0; i < recordedTraces->size(); ++i) {
    const auto traceId = recordedTraces->getObject(static_cast<unsigned>(i))->getValue<std::string>("traceId");
    recordedOrder.push_back(traceId);
    const auto events = expected->getArray("/traces/" + traceId + "/events");
    ASSERT_TRUE(events) << "no recorded events of " << traceId;
    for (std::size_t k = 0; k < events->size(); ++k) {
      const auto metadata = events->getObject(static_cast<unsigned>(k))->getObject("metadata");
      if (!metadata) continue;
      for (const char* field : {"environment", "model", "provider", "tool"})
        if (metadata->has(field) && metadata->get(field).isString())
          facetsOf[traceId].insert(std::string(field) + "=" + metadata->getValue<std::string>(field));
      if (const auto tags = metadata->getObject("tags"))
        for (const auto& [key, value] : *tags) facetsOf[traceId].insert("tag:" + key + "=" + value.toString());
    }
    allFacets.insert(facetsOf[traceId].begin(), facetsOf[traceId].end());
  }
  ASSERT_FALSE(allFacets.empty());
  allFacets.insert("model=no-such-model");
  for (const auto& facet : allFacets) {
    const auto eq = facet.find('=');
    const auto name = facet.substr(0, eq), value = facet.substr(eq + 1);
    std::string query;
    Poco::URI::encode(value, "&=+?#", query);
    const auto path = name.rfind("tag:", 0) == 0
                          ? "/traces?limit=100&filterTagKey=" + name.substr(4) + "&filterTagValue=" + query
                          : "/traces?limit=100&" + name + "=" + query;
    std::vector<std::string> want, got;
    for (const auto& id : recordedOrder)
      if (facetsOf[id].count(facet)) want.push_back(id);
    auto now = http.get(path);
    ASSERT_EQ(now.status, 200) << now.describe();
    const auto data = now.object()->getArray("data");
    for (std::size_t i = 0; i < data->size(); ++i)
      got.push_back(data->getObject(static_cast<unsigned>(i))->getValue<std::string>("traceId"));
    EXPECT_EQ(got, want) << "GET " << path << " (from the facets)";
  }

  // The release's API key still reads and publishes.
  auto keyed = daemon.client().withApiKey(manifest.apiKey);
  const auto channel = manifest.channelIds.front();
  EXPECT_EQ(keyed.get("/event/" + std::to_string(channel) + "/list").status, 200);

  // A subscriber that saw the release's third event resumes with exactly the ones after it,
  // then gets the first event published after the upgrade.
  const auto& ids = manifest.firstChannelEventIds;
  ASSERT_GT(ids.size(), 3u);
  SseStream stream("127.0.0.1", daemon.port());
  stream.start("/channel/" + std::to_string(channel) + "/subscribe",
               {{"Authorization", "Bearer " + login.object()->getValue<std::string>("access_token")},
                {"Last-Event-ID", std::to_string(ids[2])}});
  ASSERT_TRUE(stream.waitHead(10s)) << stream.describe();
  auto published = keyed.post(
      "/event", obj({{"identifier", "after-upgrade"}, {"channel_id", channel}, {"payload", obj({{"n", 1}})}}));
  ASSERT_EQ(published.status, 201) << published.describe();
  const auto newId = published.object()->getValue<std::int64_t>("id");
  std::vector<std::int64_t> want(ids.begin() + 3, ids.end());
  want.push_back(newId);
  std::vector<std::int64_t> got;
  while (got.size() < want.size()) {
    auto m = stream.next(10s);
    ASSERT_TRUE(m) << "stream ended after " << got.size() << " events: " << stream.describe();
    ASSERT_NE(m->event, "reset") << m->raw;
    got.push_back(m->numericId());
  }
  EXPECT_EQ(got, want);
  stream.close();

  auto stopped = daemon.stop();
  ASSERT_TRUE(stopped.exited && stopped.code == 0) << stopped.describe();
  auto verify = runStoreCommand(daemon, {"audit", "verify"});
  EXPECT_TRUE(verify.ok()) << verify.output;
  EXPECT_NE(verify.output.find("0 broken"), std::string::npos) << verify.output;

  // An older build on this store: simulated by a version from the future. It stops with
  // exit 78 naming both versions, before changing anything.
  storeSql(daemon, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'from the future', 0)");
  const auto eventsBefore = storeSql(daemon, "SELECT COUNT(*) FROM events");
  const auto migrationsBefore = storeSql(daemon, "SELECT COUNT(*) FROM schema_migrations");
  auto argv = daemon.commandLine();
  auto refused = runCommand(argv, 60s);
  EXPECT_TRUE(refused.status.exited && refused.status.code == 78) << refused.status.describe() << refused.output;
  EXPECT_NE(refused.output.find("schema is version 9999"), std::string::npos) << refused.output;
  EXPECT_NE(refused.output.find("knows (version "), std::string::npos) << refused.output;
  EXPECT_EQ(storeSql(daemon, "SELECT COUNT(*) FROM events"), eventsBefore);
  EXPECT_EQ(storeSql(daemon, "SELECT COUNT(*) FROM schema_migrations"), migrationsBefore);
}

std::string fixtureName(const ::testing::TestParamInfo<std::string>& info) {
  auto name = fs::path(info.param).filename().string();
  for (auto& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Upgrade, ::testing::ValuesIn(fixtureDirs()), fixtureName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Upgrade);

}  // namespace
}  // namespace aev::testing::upgrade

// Writes the upgrade fixture of one release (tests/upgrade/README.md): starts that
// release's daemon ($AEV_DAEMON_BIN) on a fresh store, seeds it through its API, records
// the answers of the probes (upgrade_probes.h), stops it cleanly and packs its store:
//
//   <out>/manifest-<backend>.json   what the seed created (logins, ids, the window)
//   <out>/expected-<backend>.json   {path: answer} of every probe
//   <out>/datadir-<backend>.tar.gz  the data directory (SQLite file and key files)
//   <out>/postgresql.sql.gz         PostgreSQL only: pg_dump of its database
//
//   AEV_DAEMON_BIN=<old release>/bin/agent-eventsd aev_upgrade_fixture_writer --backend=sqlite --out DIR
#include <Poco/JSON/Stringifier.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "support/backend.h"
#include "support/daemon_process.h"
#include "support/postgres_server.h"
#include "upgrade/upgrade_probes.h"

namespace fs = std::filesystem;
using namespace aev::testing;
using namespace aev::testing::upgrade;

namespace {

HttpResult expect(const HttpResult& r, int status) {
  if (r.status != status) throw std::runtime_error("seed request failed: " + r.describe());
  return r;
}

std::int64_t idOf(const HttpResult& r, const std::string& field = "id") {
  return r.object()->getValue<std::int64_t>(field);
}

// Three traces of a support agent handing off to a billing agent: messages with models and
// token usage, tool calls as start and end, a hand-off, one error, tags, an end user and an
// environment, all at fixed times so the analytics window is the same in every later run.
struct TraceStep {
  std::string eventType;
  std::string identifier;
  std::string agent;
  std::string metadata;  // JSON object text
  std::string payload;   // JSON object text
};

std::vector<TraceStep> traceSteps(int n) {
  const auto user = "user-" + std::to_string(n % 2);
  const auto common =
      R"("environment":"prod","user":")" + user + R"(","tags":{"tier":"gold","n":")" + std::to_string(n) + R"("})";
  std::vector<TraceStep> steps = {
      {"agent.start", "support.start", "support", "{" + common + "}", R"({"goal":"refund"})"},
      {"agent.message", "support.llm", "support",
       R"({"model":"gpt-4o","provider":"openai","usage":{"input_tokens":)" + std::to_string(100 + n) +
           R"(,"output_tokens":)" + std::to_string(40 + n) + R"(},"duration_ms":)" + std::to_string(800 + 10 * n) +
           "," + common + "}",
       R"({"role":"assistant","content":"Let me look up order 1234."})"},
      {"agent.tool_call.start", "lookup_order", "support", R"({"tool":"lookup_order",)" + common + "}",
       R"({"tool":"lookup_order","args":{"order":"1234"}})"},
      {"agent.tool_call.end", "lookup_order", "support", R"({"tool":"lookup_order","duration_ms":120,)" + common + "}",
       R"({"tool":"lookup_order","result":"shipped"})"},
      {"agent.handoff", "to.billing", "support", "{" + common + "}", R"({"to":"billing"})"},
      {"agent.message", "billing.llm", "billing",
       R"({"model":"claude-3-5-sonnet","provider":"anthropic","usage":{"input_tokens":)" + std::to_string(200 + n) +
           R"(,"output_tokens":)" + std::to_string(60 + n) + R"(},"duration_ms":1200,)" + common + "}",
       R"({"role":"assistant","content":"Refund of secret-42 issued."})"},
  };
  if (n == 2)
    steps.push_back({"agent.error", "billing.error", "billing",
                     R"({"error_type":"RateLimitError","status":"error",)" + common + "}",
                     R"({"message":"rate limited"})"});
  steps.push_back({"agent.end", "billing.end", "billing", "{" + common + "}", R"({"ok":true})"});
  return steps;
}

std::string at(int trace, std::size_t step) {
  // 2026-11-01T10:0T:SS.000000Z: trace T starts at minute T, one second per step.
  char buf[64];
  std::snprintf(buf, sizeof buf, "2026-11-01T10:%02d:%02zu.000000Z", trace, step);
  return buf;
}

SeedManifest seed(DaemonProcess& daemon) {
  SeedManifest m;
  m.login = "upgrade-admin@example.com";
  m.password = "correct horse battery staple";
  auto anon = daemon.client();
  expect(anon.post("/auth/register", obj({{"email", m.login},
                                          {"username", "upgrade-admin"},
                                          {"password", m.password},
                                          {"firstName", "Ada"},
                                          {"lastName", "Admin"}})),
         201);
  auto login = expect(anon.post("/auth/login", obj({{"login", m.login}, {"password", m.password}})), 200);
  auto bearer = daemon.client().withBearer(login.object()->getValue<std::string>("access_token"));
  m.orgId = bearer.get("/users/me").object()->getValue<std::int64_t>("organizationId");
  // Tenant-scoped routes name the organization (interface: x-tenant-id).
  auto http = bearer.withHeader("x-tenant-id", std::to_string(m.orgId));

  expect(http.post("/environments", obj({{"name", "Production"}, {"slug", "prod"}})), 201);
  m.appId = idOf(expect(http.post("/apps", obj({{"name", "support-bot"}})), 201));
  for (const char* name : {"main", "tools"})
    m.channelIds.push_back(idOf(expect(http.post("/channel", obj({{"name", name}, {"appId", m.appId}})), 201)));
  auto key =
      expect(http.post("/api-keys", obj({{"name", "publisher"}, {"scopes", arr({"publish", "read"})}})), 201).object();
  m.apiKey = key->getValue<std::string>("key");
  expect(
      http.post("/moderation/rules",
                obj({{"name", "no secrets"}, {"action", "flag"}, {"detector", "regex"}, {"pattern", "secret-[0-9]+"}})),
      201);
  expect(http.post("/spend-policies", obj({{"name", "monthly budget"},
                                           {"limitUsd", 100},
                                           {"windowType", "month"},
                                           {"rungs", arr({obj({{"at_percent", 80}, {"action", "alert"}})})}})),
         201);
  expect(http.post("/v2/alerts",
                   obj({{"name", "Errors"}, {"metric", "error_rate"}, {"operator", "gt"}, {"threshold", 0.5}})),
         201);

  auto keyed = daemon.client().withApiKey(m.apiKey);
  for (int trace = 1; trace <= 3; ++trace) {
    const auto traceId = "upgrade-trace-" + std::to_string(trace);
    m.traceIds.push_back(traceId);
    const auto steps = traceSteps(trace);
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const auto& s = steps[i];
      // Tool calls go to the second channel, the rest to the first.
      const bool tool = s.eventType.rfind("agent.tool_call", 0) == 0;
      const auto channel = tool ? m.channelIds[1] : m.channelIds[0];
      std::ostringstream body;
      body << R"({"identifier":")" << s.identifier << R"(","channel_id":)" << channel << R"(,"eventType":")"
           << s.eventType << R"(","agentId":")" << s.agent << R"(","traceId":")" << traceId << R"(","spanId":"span-)"
           << trace << "-" << i << R"(","timestamp":")" << at(trace, i) << R"(","metadata":)" << s.metadata
           << R"(,"payload":)" << s.payload << "}";
      auto r = expect(keyed.post("/event", body.str()), 201);
      if (!tool) m.firstChannelEventIds.push_back(idOf(r));
    }
  }
  // A batch as well: the other write path.
  std::ostringstream batch;
  batch << R"({"events":[)";
  for (int i = 0; i < 3; ++i)
    batch << (i ? "," : "") << R"({"identifier":"batch-)" << i << R"(","channel_id":)" << m.channelIds[0]
          << R"(,"eventType":"custom","payload":{"i":)" << i << R"(},"timestamp":")" << at(9, i) << "\"}";
  batch << "]}";
  auto b = expect(keyed.post("/events/batch", batch.str()), 200).object();
  auto results = b->getArray("results") ? b->getArray("results") : b->getArray("data");
  for (std::size_t i = 0; results && i < results->size(); ++i) {
    auto item = results->getObject(i);
    auto ev = item->has("event") ? item->getObject("event") : item;
    m.firstChannelEventIds.push_back(ev->getValue<std::int64_t>("id"));
  }
  m.windowSince = "2026-11-01T09:00:00Z";
  m.windowUntil = "2026-11-01T12:00:00Z";
  return m;
}

void writeJson(const fs::path& path, const Poco::Dynamic::Var& value) {
  std::ofstream out(path);
  Poco::JSON::Stringifier::stringify(value, out, 1);
  out << "\n";
}

void run(const std::string& command) {
  if (std::system(command.c_str()) != 0) throw std::runtime_error("failed: " + command);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    parseBackendArgument(argc, argv);
    fs::path out;
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--out=", 0) == 0) out = a.substr(6);
      if (a == "--out" && i + 1 < argc) out = argv[++i];
    }
    if (out.empty()) throw std::invalid_argument("usage: aev_upgrade_fixture_writer --backend=B --out DIR");
    fs::create_directories(out);
    const auto backend = currentBackendName();

    DaemonProcess daemon;
    daemon.start();
    auto manifest = seed(daemon);
    auto http =
        daemon.client()
            .withBearer(expect(daemon.client().post("/auth/login",
                                                    obj({{"login", manifest.login}, {"password", manifest.password}})),
                               200)
                            .object()
                            ->getValue<std::string>("access_token"))
            .withHeader("x-tenant-id", std::to_string(manifest.orgId));
    Poco::JSON::Object::Ptr expected = new Poco::JSON::Object;
    for (const auto& path : probePaths(manifest)) {
      auto r = http.get(path);
      if (r.status != 200) throw std::runtime_error("probe failed: " + r.describe());
      expected->set(path, withoutVolatileFields(r.json()));
    }
    const auto status = daemon.stop();
    if (!status.exited || status.code != 0)
      throw std::runtime_error("the daemon did not stop cleanly: " + status.describe());

    writeJson(out / ("manifest-" + backend + ".json"), manifest.toJson());
    writeJson(out / ("expected-" + backend + ".json"), expected);
    run("tar -C '" + daemon.dataDir() + "' -czf '" + (out / ("datadir-" + backend + ".tar.gz")).string() + "' .");
    if (currentBackend() == Backend::PostgreSQL) {
      const auto dump = PostgresServer::binDir() + "/pg_dump";
      run("'" + dump + "' --no-owner --no-privileges '" + daemon.databaseUrl() + "' | gzip -9 > '" +
          (out / "postgresql.sql.gz").string() + "'");
    }
    std::cout << "fixture written to " << out << " (" << backend << ")\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "aev_upgrade_fixture_writer: " << e.what() << "\n";
    return 1;
  }
}

// The contract, checked from both sides against a running daemon (docs/api.md#the-contract):
// /openapi.json as a document tools accept (one rule per operation, driven by the route
// table the daemon serves, so a route added without its documentation fails here), the
// tools themselves (Redocly lint, real traffic validated, a generated TypeScript client,
// requests generated from the document: tests/contract/*.mjs), and /metrics with the
// shipped alert rules and dashboard (promtool).
#include <Poco/JSON/Parser.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "support/api_fixture.h"
#include "support/process.h"

namespace aev::testing {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

class ContractApi : public ApiTest {
 protected:
  static Poco::JSON::Object::Ptr document() {
    auto r = anon().get("/openapi.json");
    EXPECT_EQ(r.status, 200) << r.describe();
    return r.object();
  }

  // The document as a file beside the daemon's data, for the node tools.
  static std::string documentFile() {
    const auto path = daemon().dataDir() + "/openapi.json";
    writeFile(path, anon().get("/openapi.json").body);
    return path;
  }

  // Runs tests/contract/<script> with node; fails the test with its output otherwise.
  static void runScript(const std::string& script, const std::vector<std::string>& args, int timeoutSeconds) {
    const auto node = env("AEV_NODE");
    const auto dir = env("AEV_CONTRACT_DIR");
    if (node.empty() || dir.empty()) GTEST_FAIL() << "AEV_NODE and AEV_CONTRACT_DIR are set by CTest";
    std::vector<std::string> argv = {node, dir + "/" + script};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = runCommand(argv, std::chrono::seconds(timeoutSeconds));
    EXPECT_TRUE(r.ok()) << joinArgv(argv) << " " << r.status.describe() << "\n" << r.output;
    std::cout << r.output.substr(r.output.size() > 4000 ? r.output.size() - 4000 : 0) << std::flush;
  }

  // The daemon logs "contract: <route> reads a JSON body that /openapi.json does not
  // declare" once per route whose handler read one (http/dispatcher.cpp): after the
  // traffic of these tests, there must be none.
  static void expectNoUndeclaredBodyRead() {
    std::istringstream log(daemon().log());
    std::string line;
    while (std::getline(log, line)) EXPECT_EQ(line.find("contract: "), std::string::npos) << line;
  }

  // The tokens and ids the node scripts need: the instance admin and its organization.
  static std::vector<std::string> session() {
    return {daemon().baseUrl(), admin().accessToken, std::to_string(admin().personalOrgId)};
  }
};

std::vector<std::pair<std::string, Poco::JSON::Object::Ptr>> operations(const Poco::JSON::Object::Ptr& doc,
                                                                        std::vector<std::string>* paths = nullptr) {
  std::vector<std::pair<std::string, Poco::JSON::Object::Ptr>> out;
  auto p = doc->getObject("paths");
  for (const auto& [path, item] : *p) {
    if (paths) paths->push_back(path);
    for (const auto& [method, op] : *item.extract<Poco::JSON::Object::Ptr>())
      out.emplace_back(method + " " + path, op.extract<Poco::JSON::Object::Ptr>());
  }
  return out;
}

// operationId: the method, then each segment in UpperCamelCase, a parameter as By<Name>
// (docs/api.md#operation-ids), written here independently of the daemon's code.
std::string expectedOperationId(const std::string& method, const std::string& path) {
  std::string id = method;
  std::istringstream segments(path);
  std::string segment;
  while (std::getline(segments, segment, '/')) {
    if (segment.empty()) continue;
    if (segment.front() == '{') id += "By";
    bool start = true;
    for (char c : segment) {
      if (!std::isalnum(static_cast<unsigned char>(c))) {
        start = true;
        continue;
      }
      id += start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      start = false;
    }
  }
  return id;
}

TEST_F(ContractApi, EveryOperationHasItsIdTagsErrorsAndCredentialsByOneRule) {
  auto doc = document();
  std::vector<std::string> paths;
  auto ops = operations(doc, &paths);
  ASSERT_GT(ops.size(), 50u);
  EXPECT_TRUE(doc->getObject("info")->getObject("license")) << "info.license";
  EXPECT_GT(doc->getArray("servers")->size(), 0u);
  std::set<std::string> ids, shapes;
  for (const auto& path : paths)
    EXPECT_TRUE(shapes.insert(std::regex_replace(path, std::regex("\\{[^}]*\\}"), "{}")).second)
        << "a path templated twice: " << path;
  for (const auto& [name, op] : ops) {
    SCOPED_TRACE(name);
    const auto method = name.substr(0, name.find(' '));
    const auto path = name.substr(name.find(' ') + 1);
    ASSERT_TRUE(op->has("operationId"));
    const auto id = op->getValue<std::string>("operationId");
    EXPECT_EQ(id, expectedOperationId(method, path));
    EXPECT_TRUE(ids.insert(id).second) << "operationId twice: " << id;
    ASSERT_TRUE(op->getArray("tags"));
    EXPECT_EQ(op->getArray("tags")->size(), 1u);
    auto responses = op->getObject("responses");
    EXPECT_TRUE(responses->has("4XX"));
    EXPECT_TRUE(responses->has("default"));
    auto security = op->getArray("security");
    ASSERT_TRUE(security);
    if (security->size() > 0 && path != "/auth/refresh" && path != "/auth/logout") {
      EXPECT_TRUE(responses->has("401"));
      // Every authenticated route reads x-tenant-id (http/credentials.h).
      bool tenant = false;
      auto params = op->getArray("parameters");
      for (std::size_t i = 0; params && i < params->size(); ++i)
        tenant = tenant || params->getObject(i)->getValue<std::string>("name") == "x-tenant-id";
      EXPECT_TRUE(tenant);
    }
  }
}

// A route whose handler reads a JSON body must declare it: sent without one, such a
// route answers 400 "must be a JSON object" (or 415). Every POST, PUT and PATCH the
// document gives no body is called without one, as the admin, with ids of real records.
TEST_F(ContractApi, EveryOperationThatReadsABodyDeclaresIt) {
  auto doc = document();
  auto app = admin().http.post("/apps", R"({"name":"contract-app"})").object();
  const auto appId = app->getValue<std::string>("appId");
  for (const auto& [name, op] : operations(doc)) {
    const auto method = name.substr(0, name.find(' '));
    if ((method != "post" && method != "put" && method != "patch") || op->has("requestBody")) continue;
    auto path = name.substr(name.find(' ') + 1);
    path = std::regex_replace(path, std::regex("\\{appId\\}"), appId);
    path = std::regex_replace(path, std::regex("\\{[^}]*\\}"), std::to_string(admin().personalOrgId));
    std::string upper = method;
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    auto r = admin().http.request(upper, path, std::nullopt);
    const bool readsBody = r.status == 415 || (r.status == 400 && r.body.find("JSON") != std::string::npos);
    EXPECT_FALSE(readsBody) << name << " reads a body the document does not declare: " << r.describe();
  }
  expectNoUndeclaredBodyRead();
}

TEST_F(ContractApi, RedoclyLintHasNoErrorsAndNoNewWarnings) {
  runScript("lint.mjs", {documentFile(), env("AEV_CONTRACT_DIR") + "/redocly-warnings.txt"}, 180);
}

TEST_F(ContractApi, RealTrafficMatchesTheDocument) {
  auto args = session();
  args.insert(args.begin(), documentFile());
  runScript("tour.mjs", args, 180);
}

TEST_F(ContractApi, GeneratedTypeScriptClientRunsTheReadmeTour) {
  auto args = session();
  args.insert(args.begin(), {documentFile(), daemon().dataDir() + "/ts-client"});
  runScript("client.mjs", args, 240);
}

TEST_F(ContractApi, RequestsGeneratedFromTheDocumentGetNoServerErrorAndValidAnswers) {
  auto args = session();
  args.insert(args.begin(), documentFile());
  runScript("generated.mjs", args, 240);
}

// Every handler reached by the traffic above (the tour, the generated requests) read a
// body only where its operation declares one.
TEST_F(ContractApi, NoHandlerReadABodyItsOperationDoesNotDeclare) { expectNoUndeclaredBodyRead(); }

// Metric names a PromQL text uses (ours all start with agent_events_ or aev_).
std::set<std::string> metricsNamedIn(const std::string& text) {
  std::set<std::string> names;
  std::regex name("\\b(agent_events_[a-z0-9_]+|aev_[a-z0-9_]+)");
  for (std::sregex_iterator it(text.begin(), text.end(), name), end; it != end; ++it) names.insert((*it)[1]);
  return names;
}

TEST_F(ContractApi, MetricsPassPromtoolAndTheShippedRulesAndDashboardNameOnlyExportedMetrics) {
  const auto promtool = env("AEV_PROMTOOL");
  if (promtool.empty() || promtool.find("NOTFOUND") != std::string::npos)
    GTEST_SKIP() << "promtool not installed (Debian's prometheus package)";
  auto metrics = anon().get("/metrics");
  ASSERT_EQ(metrics.status, 200) << metrics.describe();
  const auto file = daemon().dataDir() + "/metrics.txt";
  writeFile(file, metrics.body);
  // promtool check metrics reads stdin.
  auto lint = runCommand({"/bin/sh", "-c", "'" + promtool + "' check metrics < '" + file + "'"});
  EXPECT_TRUE(lint.ok()) << lint.output;
  EXPECT_EQ(lint.output, "") << lint.output;

  std::set<std::string> exported;
  std::istringstream lines(metrics.body);
  std::string line;
  while (std::getline(lines, line))
    if (line.rfind("# TYPE ", 0) == 0) exported.insert(line.substr(7, line.find(' ', 7) - 7));
  for (const char* family : {"agent_events_commit_failures_total", "agent_events_delivery_failed_total",
                             "agent_events_stream_slow_subscribers_closed_total", "agent_events_commit_seconds_total"})
    EXPECT_TRUE(exported.count(family)) << family << " is not exported from start";

  const auto packaging = env("AEV_PACKAGING_DIR");
  const auto rules = packaging + "/prometheus/agent-events.rules.yml";
  auto check = runCommand({promtool, "check", "rules", rules});
  EXPECT_TRUE(check.ok()) << check.output;
  for (const auto& file : {rules, packaging + "/grafana/agent-events.json"}) {
    const auto named = metricsNamedIn(readFile(file));
    EXPECT_FALSE(named.empty()) << file;
    for (const auto& m : named) EXPECT_TRUE(exported.count(m)) << file << " names " << m << ", which /metrics lacks";
  }
}

}  // namespace
}  // namespace aev::testing

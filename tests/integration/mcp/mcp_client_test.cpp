// The official MCP TypeScript clients (tests/mcp/client.mjs) against the daemon, once per
// client and era: @modelcontextprotocol/sdk 1.x (2025-11-25), @modelcontextprotocol/client
// 2.x negotiating the stateless 2026-07-28 revision, and the same 2.x client in its default
// legacy mode. Each run: connect, tools/list, every tool compared with its REST answer, an
// isError case per tool, 401/403, another organization's ids invisible, the output cap
// with cursors; then every tools/call found in the audit log with source "mcp" and the
// revision the client spoke.
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "integration/mcp/mcp_support.h"

namespace aev::testing {
namespace {

std::string jsonText(const Poco::Dynamic::Var& v) {
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(v, out);
  return out.str();
}

class McpClientApi : public McpTest, public ::testing::WithParamInterface<const char*> {
 protected:
  // The suite makes ~100 requests with one key within a minute.
  static void SetUpTestSuite() { startDaemon(options({{"mcp.rate_limit_per_minute", "1000"}})); }

  // Runs tests/mcp/client.mjs (AEV_NODE, AEV_MCP_CLIENT from CTest); its last line.
  static std::string runClient(const std::string& kind, const std::string& seedJson) {
    const char* node = std::getenv("AEV_NODE");
    const char* script = std::getenv("AEV_MCP_CLIENT");
    if (!node || !*node || !script || !*script)
      throw std::runtime_error("AEV_NODE and AEV_MCP_CLIENT must name node and tests/mcp/client.mjs (set by CTest)");
    const auto seedFile = daemon().dataDir() + "/mcp-seed.json";
    {
      std::FILE* f = std::fopen(seedFile.c_str(), "w");
      if (!f) throw std::runtime_error("cannot write " + seedFile);
      std::fwrite(seedJson.data(), 1, seedJson.size(), f);
      std::fclose(f);
    }
    const std::string command =
        "AEV_MCP_CLIENT_KIND=" + kind + " AEV_MCP_SEED=\"$(cat " + seedFile + ")\" " + node + " " + script + " 2>&1";
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) throw std::runtime_error("cannot run node");
    std::array<char, 4096> buf{};
    while (auto n = fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
    const int rc = pclose(pipe);
    if (rc != 0) throw std::runtime_error("the MCP client checks failed:\n" + out);
    return out.substr(out.rfind("{\"ok\""));
  }

  static Poco::JSON::Object::Ptr orgJson(const SeededOrg& s) {
    const auto& p = s.publisher;
    return obj({{"orgId", p.tenant.orgId},
                {"appId", p.appId},
                {"channelId", p.channelId},
                {"bigChannelId", s.bigChannelId},
                {"traceId", s.traceId},
                {"eventId", s.eventId},
                {"policyId", s.policyId},
                {"bearer", p.tenant.user.accessToken},
                {"readKey", s.readKey.key},
                {"readKeyId", s.readKey.id},
                {"publishKey", s.publishKey.key},
                {"revokedKey", s.revokedKey.key}});
  }
};

TEST_P(McpClientApi, OfficialClientCallsEveryToolAndEachCallIsAudited) {
  auto a = seedOrg("mcpa", 60);
  auto b = seedOrg("mcpb", 0);
  const auto base = recentBase();
  auto seed = obj({{"baseUrl", daemon().baseUrl()},
                   {"since", rfc3339(base - 3600 * kSec)},
                   {"until", rfc3339(base + 3 * 3600 * kSec)},
                   {"a", orgJson(a)},
                   {"b", orgJson(b)}});
  std::string result;
  ASSERT_NO_THROW(result = runClient(GetParam(), jsonText(seed))) << result;
  auto summary = Poco::JSON::Parser().parse(result).extract<Poco::JSON::Object::Ptr>();
  const auto version = summary->getValue<std::string>("version");
  const auto calls = summary->getValue<int>("calls");
  ASSERT_GT(calls, 40);

  // One audit entry per tools/call of organization A's read key, none of B's.
  auto audit = a.publisher.tenant.http.get("/audit-logs?source=mcp&limit=200");
  ASSERT_STATUS(audit, 200);
  auto entries = objects(listOf(audit));
  EXPECT_EQ(static_cast<int>(entries.size()), calls) << audit.body.substr(0, 2000);
  // The actor is named: the key's name, as GET /api-keys lists it.
  std::string keyName;
  auto keys = a.publisher.tenant.http.get("/api-keys");
  ASSERT_STATUS(keys, 200);
  for (const auto& k : objects(listOf(keys)))
    if (k->get("id").toString() == std::to_string(a.readKey.id)) keyName = k->getValue<std::string>("name");
  ASSERT_FALSE(keyName.empty()) << keys.body;
  int isErrors = 0, unknown = 0;
  for (const auto& e : entries) {
    EXPECT_EQ(strField(e, "source"), "mcp");
    EXPECT_EQ(strField(e, "actorType"), "api_key");
    EXPECT_EQ(strField(e, "actorName"), keyName);
    EXPECT_EQ(strField(e, "action"), "mcp.call");
    EXPECT_EQ(strField(e, "actorId"), std::to_string(a.readKey.id));
    auto m = e->getObject("metadata");
    ASSERT_TRUE(m) << jsonText(e);
    EXPECT_EQ(strField(m, "tool"), strField(e, "resourceId"));
    EXPECT_EQ(strField(m, "apiKeyId"), std::to_string(a.readKey.id));
    EXPECT_TRUE(m->has("durationMs") && m->has("rows") && m->has("truncated") && m->has("arguments"));
    EXPECT_LE(strField(m, "arguments").size(), 320u);
    EXPECT_EQ(strField(m, "protocolVersion"), version);
    const auto outcome = strField(m, "outcome");
    isErrors += outcome == "isError";
    unknown += outcome == "-32602";
  }
  EXPECT_GT(isErrors, 15);  // at least one per tool
  EXPECT_EQ(unknown, 1);
  auto auditB = b.publisher.tenant.http.get("/audit-logs?source=mcp&limit=200");
  ASSERT_STATUS(auditB, 200);
  EXPECT_EQ(objects(listOf(auditB)).size(), 2u);  // B's own two calls
}

INSTANTIATE_TEST_SUITE_P(Clients, McpClientApi, ::testing::Values("sdk1", "client2_modern", "client2_legacy"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace aev::testing

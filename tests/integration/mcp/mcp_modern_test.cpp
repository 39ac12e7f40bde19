// POST /mcp in the stateless 2026-07-28 revision, at the HTTP level: server/discover, the
// per-request _meta, the headers that mirror the body (missing or disagreeing: 400
// HeaderMismatch), the version error a dual-era server gives (400 -32022 with the
// supported list), unknown methods (404), and both eras served by one daemon, decided per
// request. The official 2.x client drives the same endpoint in mcp_client_test.
#include <Poco/JSON/Parser.h>

#include "integration/mcp/mcp_support.h"

namespace aev::testing {
namespace {

constexpr const char* kModern = "2026-07-28";

Poco::JSON::Object::Ptr json(const HttpResult& r) {
  return Poco::JSON::Parser().parse(r.body).extract<Poco::JSON::Object::Ptr>();
}

int errorCode(const HttpResult& r) { return static_cast<int>(intField(json(r)->getObject("error"), "code")); }

// A modern request body: `fields` (without braces) go into params beside the _meta.
std::string modernBody(int id, const std::string& method, const std::string& fields = "",
                       const std::string& meta =
                           R"("io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                           R"("io.modelcontextprotocol/clientCapabilities":{},)"
                           R"("io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"})") {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + method + R"(","params":{)" + fields +
         (fields.empty() ? "" : ",") + R"("_meta":{)" + meta + "}}}";
}

Headers modernHeaders(const std::string& method, const std::string& name = "") {
  Headers h = {{"MCP-Protocol-Version", kModern}, {"Mcp-Method", method}};
  if (!name.empty()) h.emplace_back("Mcp-Name", name);
  return h;
}

class McpModernHttpApi : public McpTest {
 protected:
  static void SetUpTestSuite() { startDaemon(options({})); }
  static const Tenant& tenant() {
    static Tenant t = newTenant("mcpm");
    return t;
  }
  static const std::string& readKey() {
    static std::string key = createKey(tenant(), {"read"}).key;
    return key;
  }
};

TEST_F(McpModernHttpApi, DiscoverNamesVersionsCapabilitiesAndCacheHints) {
  auto r = rpc(readKey(), modernBody(1, "server/discover"), modernHeaders("server/discover"));
  ASSERT_STATUS(r, 200);
  EXPECT_TRUE(r.header("mcp-session-id").empty());
  auto result = json(r)->getObject("result");
  ASSERT_TRUE(result) << r.body;
  EXPECT_EQ(strField(result, "resultType"), "complete");
  auto versions = result->getArray("supportedVersions");
  ASSERT_TRUE(versions);
  std::vector<std::string> listed;
  for (std::size_t i = 0; i < versions->size(); ++i) listed.push_back(versions->getElement<std::string>(i));
  EXPECT_EQ(listed, (std::vector<std::string>{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}));
  ASSERT_TRUE(result->getObject("capabilities") && result->getObject("capabilities")->getObject("tools"));
  EXPECT_NE(strField(result, "instructions").find("get_context"), std::string::npos);
  EXPECT_GT(intField(result, "ttlMs"), 0);
  EXPECT_EQ(strField(result, "cacheScope"), "public");
  auto info = result->getObject("_meta")->getObject("io.modelcontextprotocol/serverInfo");
  ASSERT_TRUE(info) << r.body;
  EXPECT_EQ(strField(info, "name"), "agent-events");
}

TEST_F(McpModernHttpApi, ToolsListAndCallWithoutAHandshake) {
  const auto own = newTenant("mcpmc");  // its own audit log
  const auto key = createKey(own, {"read"}).key;
  auto r = rpc(key, modernBody(2, "tools/list"), modernHeaders("tools/list"));
  ASSERT_STATUS(r, 200);
  auto list = json(r)->getObject("result");
  EXPECT_EQ(strField(list, "resultType"), "complete");
  EXPECT_EQ(list->getArray("tools")->size(), 17u);
  EXPECT_GT(intField(list, "ttlMs"), 0);
  EXPECT_EQ(strField(list, "cacheScope"), "public");

  r = rpc(key, modernBody(3, "tools/call", R"("name":"get_context","arguments":{})"),
          modernHeaders("tools/call", "get_context"));
  ASSERT_STATUS(r, 200);
  auto result = json(r)->getObject("result");
  ASSERT_TRUE(result) << r.body;
  EXPECT_EQ(strField(result, "resultType"), "complete");
  EXPECT_FALSE(result->getValue<bool>("isError"));
  EXPECT_EQ(strField(result->getObject("structuredContent")->getObject("organization"), "id"),
            std::to_string(own.orgId));
  EXPECT_TRUE(result->getObject("_meta")->getObject("io.modelcontextprotocol/serverInfo"));
  // A tool name sent in the base64 sentinel form is decoded before it is compared.
  r = rpc(key, modernBody(4, "tools/call", R"("name":"list_alerts","arguments":{})"),
          modernHeaders("tools/call", "=?base64?bGlzdF9hbGVydHM=?="));
  ASSERT_STATUS(r, 200);
  EXPECT_FALSE(json(r)->getObject("result")->getValue<bool>("isError")) << r.body;
  // A wrong argument is still a tool result the model can read, marked complete.
  r = rpc(key, modernBody(5, "tools/call", R"("name":"list_alerts","arguments":{"state":"burning"})"),
          modernHeaders("tools/call", "list_alerts"));
  ASSERT_STATUS(r, 200);
  EXPECT_TRUE(json(r)->getObject("result")->getValue<bool>("isError"));
  EXPECT_EQ(strField(json(r)->getObject("result"), "resultType"), "complete");

  // The audit entries name the revision each call spoke.
  auto audit = own.http.get("/audit-logs?source=mcp&limit=10");
  ASSERT_STATUS(audit, 200);
  auto entries = objects(listOf(audit));
  ASSERT_EQ(entries.size(), 3u) << audit.body;
  for (const auto& e : entries) EXPECT_EQ(strField(e->getObject("metadata"), "protocolVersion"), kModern);
}

TEST_F(McpModernHttpApi, HeadersThatDisagreeWithTheBodyAre400HeaderMismatch) {
  const auto callBody = modernBody(7, "tools/call", R"("name":"get_context","arguments":{})");
  auto auditedCalls = [] {
    auto audit = tenant().http.get("/audit-logs?source=mcp&limit=200");
    EXPECT_EQ(audit.status, 200) << audit.describe();
    return objects(listOf(audit)).size();
  };
  const auto auditedBefore = auditedCalls();
  auto expectMismatch = [&](const std::string& body, const Headers& headers, const char* what) {
    auto r = rpc(readKey(), body, headers);
    EXPECT_EQ(r.status, 400) << what << ": " << r.body;
    EXPECT_EQ(errorCode(r), -32020) << what << ": " << r.body;
    EXPECT_EQ(intField(json(r), "id"), 7) << what;  // the client matches the error to its request
  };
  expectMismatch(callBody, {{"Mcp-Method", "tools/call"}, {"Mcp-Name", "get_context"}}, "no MCP-Protocol-Version");
  expectMismatch(callBody,
                 {{"MCP-Protocol-Version", "2025-11-25"}, {"Mcp-Method", "tools/call"}, {"Mcp-Name", "get_context"}},
                 "a legacy header over a modern body");
  expectMismatch(R"({"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}})", modernHeaders("tools/list"),
                 "a modern header over a body without _meta");
  expectMismatch(callBody, {{"MCP-Protocol-Version", kModern}, {"Mcp-Name", "get_context"}}, "no Mcp-Method");
  expectMismatch(callBody, modernHeaders("tools/list", "get_context"), "Mcp-Method differs");
  expectMismatch(callBody, modernHeaders("tools/call"), "no Mcp-Name");
  expectMismatch(callBody, modernHeaders("tools/call", "list_alerts"), "Mcp-Name differs");
  expectMismatch(callBody, modernHeaders("tools/call", "=?base64?not base64?="), "Mcp-Name malformed");

  // The client capabilities are a required _meta field: 400 Invalid params.
  auto r = rpc(readKey(), modernBody(8, "tools/list", "", R"("io.modelcontextprotocol/protocolVersion":"2026-07-28")"),
               modernHeaders("tools/list"));
  EXPECT_STATUS(r, 400);
  EXPECT_EQ(errorCode(r), -32602);
  // Refused before any tool ran: nothing was called, so nothing was audited.
  EXPECT_EQ(auditedCalls(), auditedBefore);
}

TEST_F(McpModernHttpApi, UnsupportedVersionNamesTheSupportedOnes) {
  auto r = rpc(readKey(),
               modernBody(9, "server/discover", "",
                          R"("io.modelcontextprotocol/protocolVersion":"2099-01-01",)"
                          R"("io.modelcontextprotocol/clientCapabilities":{})"),
               {{"MCP-Protocol-Version", "2099-01-01"}, {"Mcp-Method", "server/discover"}});
  ASSERT_STATUS(r, 400);
  EXPECT_EQ(errorCode(r), -32022);
  EXPECT_EQ(intField(json(r), "id"), 9);
  auto data = json(r)->getObject("error")->getObject("data");
  ASSERT_TRUE(data) << r.body;
  EXPECT_EQ(strField(data, "requested"), "2099-01-01");
  EXPECT_EQ(data->getArray("supported")->size(), 4u);
  EXPECT_EQ(data->getArray("supported")->getElement<std::string>(0), kModern);
}

TEST_F(McpModernHttpApi, MethodsOutsideTheRevisionAre404MethodNotFound) {
  // ping and initialize are gone from 2026-07-28; resources are not offered.
  for (const char* method : {"ping", "initialize", "resources/list"}) {
    auto r = rpc(readKey(), modernBody(11, method), modernHeaders(method));
    EXPECT_EQ(r.status, 404) << method << ": " << r.body;
    EXPECT_EQ(errorCode(r), -32601) << method;
    EXPECT_EQ(intField(json(r), "id"), 11) << method;
  }
  // A notification is accepted without a body, as in the legacy revisions.
  auto r = rpc(readKey(), R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})",
               modernHeaders("notifications/cancelled"));
  EXPECT_STATUS(r, 202);
}

TEST_F(McpModernHttpApi, BothErasOnOneEndpointDecidedPerRequest) {
  // A legacy initialize, then a modern call, then a legacy call without any header: each
  // is served in its own era, and nothing carries over from one request to the next.
  auto r = rpc(readKey(),
               call(1, "initialize",
                    R"({"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}})"));
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(strField(json(r)->getObject("result"), "protocolVersion"), "2025-11-25");
  EXPECT_FALSE(json(r)->getObject("result")->has("resultType"));
  r = rpc(readKey(), modernBody(2, "tools/list"), modernHeaders("tools/list"));
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(strField(json(r)->getObject("result"), "resultType"), "complete");
  r = rpc(readKey(), call(3, "tools/list"));
  ASSERT_STATUS(r, 200);
  EXPECT_FALSE(json(r)->getObject("result")->has("ttlMs"));
  r = rpc(readKey(), call(4, "ping"), {{"MCP-Protocol-Version", "2025-06-18"}});
  EXPECT_EQ(r.body, R"({"jsonrpc":"2.0","id":4,"result":{}})");
  // A legacy request whose _meta repeats its legacy header is still legacy.
  r = rpc(readKey(), call(5, "ping", R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}})"),
          {{"MCP-Protocol-Version", "2025-06-18"}});
  EXPECT_EQ(r.body, R"({"jsonrpc":"2.0","id":5,"result":{}})");
}

}  // namespace
}  // namespace aev::testing

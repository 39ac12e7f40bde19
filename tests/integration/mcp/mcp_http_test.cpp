// POST /mcp at the HTTP level, for what a client library never sends: batches, GET and
// DELETE, a bad Origin, an unsupported protocol version, malformed JSON, an oversized body,
// a null id; also notifications (202), sessions ignored, the SSE-only Accept, the rate limit.
#include <Poco/JSON/Parser.h>

#include "integration/mcp/mcp_support.h"

namespace aev::testing {
namespace {

Poco::JSON::Object::Ptr json(const HttpResult& r) {
  return Poco::JSON::Parser().parse(r.body).extract<Poco::JSON::Object::Ptr>();
}

int errorCode(const HttpResult& r) { return static_cast<int>(intField(json(r)->getObject("error"), "code")); }

class McpHttpApi : public McpTest {
 protected:
  static void SetUpTestSuite() {
    startDaemon(options({{"mcp.allowed_origins", "https://console.example"},
                         {"mcp.rate_limit_per_minute", "40"},
                         {"mcp.max_body_bytes", "4096"}}));
  }
  std::string readKey() {
    static std::string key = createKey(newTenant("mcph"), {"read"}).key;
    return key;
  }
};

TEST_F(McpHttpApi, InitializeAnswersJsonWithoutSession) {
  auto r = rpc(readKey(),
               call(1, "initialize",
                    R"({"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}})"));
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(r.header("content-type").rfind("application/json", 0), 0u) << r.describe();
  EXPECT_TRUE(r.header("mcp-session-id").empty());
  auto result = json(r)->getObject("result");
  ASSERT_TRUE(result) << r.body;
  EXPECT_EQ(strField(result, "protocolVersion"), "2025-06-18");
  EXPECT_EQ(intField(json(r), "id"), 1);
  // An unknown version is answered with ours.
  r = rpc(readKey(),
          call(2, "initialize",
               R"({"protocolVersion":"2099-01-01","capabilities":{},"clientInfo":{"name":"x","version":"1"}})"));
  EXPECT_EQ(strField(json(r)->getObject("result"), "protocolVersion"), "2025-11-25");
  // A session id sent is ignored; ping answers {} even with no initialize before it.
  r = rpc(readKey(), R"({"jsonrpc":"2.0","id":"p","method":"ping"})", {{"Mcp-Session-Id", "whatever"}});
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(r.body, R"({"jsonrpc":"2.0","id":"p","result":{}})");
}

TEST_F(McpHttpApi, NotificationsAndResponsesAre202WithoutBody) {
  auto r = rpc(readKey(), R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  EXPECT_STATUS(r, 202);
  EXPECT_TRUE(r.body.empty());
  r = rpc(readKey(), R"({"jsonrpc":"2.0","id":7,"result":{}})");
  EXPECT_STATUS(r, 202);
}

TEST_F(McpHttpApi, BatchIsRefused) {
  auto r = rpc(readKey(), "[" + call(1, "ping") + "," + call(2, "ping") + "]");
  ASSERT_STATUS(r, 400);
  EXPECT_EQ(errorCode(r), -32600);
  EXPECT_TRUE(json(r)->isNull("id"));
}

TEST_F(McpHttpApi, GetAndDeleteAre405AllowPost) {
  for (const char* method : {"GET", "DELETE"}) {
    auto r = anon().request(method, "/mcp", std::nullopt,
                            {{"Authorization", "Bearer " + readKey()}, {"Accept", "text/event-stream"}});
    EXPECT_STATUS(r, 405);
    EXPECT_EQ(r.header("allow"), "POST") << method;
  }
}

TEST_F(McpHttpApi, OriginMustBeAllowed) {
  auto r = rpc(readKey(), call(1, "ping"), {{"Origin", "https://evil.example"}});
  EXPECT_STATUS(r, 403);
  EXPECT_EQ(errorCode(r), -32600);
  r = rpc(readKey(), call(1, "ping"), {{"Origin", "https://console.example"}});
  EXPECT_STATUS(r, 200);
  // Checked before the key: a page cannot probe keys either.
  r = rpc("", call(1, "ping"), {{"Origin", "http://localhost:3000"}});
  EXPECT_STATUS(r, 403);
}

TEST_F(McpHttpApi, UnsupportedProtocolVersionIs400NamingTheSupportedOnes) {
  auto r = rpc(readKey(), call(1, "ping"), {{"MCP-Protocol-Version", "2024-11-05"}});
  ASSERT_STATUS(r, 400);
  // The code a dual-era server gives (-32022 UnsupportedProtocolVersion), with the list.
  EXPECT_EQ(errorCode(r), -32022);
  EXPECT_NE(r.body.find("2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26"), std::string::npos) << r.body;
  for (const char* v : {"2025-11-25", "2025-06-18", "2025-03-26"})
    EXPECT_STATUS(rpc(readKey(), call(1, "ping"), {{"MCP-Protocol-Version", v}}), 200);
}

TEST_F(McpHttpApi, MalformedJsonIsParseError) {
  auto r = rpc(readKey(), R"({"jsonrpc":"2.0","id":1,"method":)");
  ASSERT_STATUS(r, 400);
  EXPECT_EQ(errorCode(r), -32700);
  r = rpc(readKey(), R"({"jsonrpc":"2.0","id":1,"method":5})");
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(errorCode(r), -32600);
  r = rpc(readKey(), call(1, "ping"), {{"Content-Type", "text/plain"}});
  EXPECT_STATUS(r, 415);
}

TEST_F(McpHttpApi, OversizedBodyIs413) {
  auto args = R"({"name":"get_context","arguments":{"pad":")" + std::string(5000, 'x') + "\"}}";
  auto r = rpc(readKey(), call(1, "tools/call", args));
  ASSERT_STATUS(r, 413);
  EXPECT_EQ(errorCode(r), -32600);
}

TEST_F(McpHttpApi, NullOrMissingIdAndUnknownMethods) {
  auto r = rpc(readKey(), R"({"jsonrpc":"2.0","id":null,"method":"ping"})");
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(errorCode(r), -32600);
  EXPECT_TRUE(json(r)->isNull("id"));
  r = rpc(readKey(), R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})");
  EXPECT_EQ(errorCode(r), -32600);
  r = rpc(readKey(), R"({"jsonrpc":"1.0","id":1,"method":"ping"})");
  EXPECT_EQ(errorCode(r), -32600);
  r = rpc(readKey(), call(3, "resources/list"));
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(errorCode(r), -32601);
  EXPECT_EQ(intField(json(r), "id"), 3);
  r = rpc(readKey(), call(4, "tools/call", R"({"name":"nope"})"));
  EXPECT_EQ(errorCode(r), -32602);
  r = rpc(readKey(), call(5, "tools/call", R"({"name":"get_context","arguments":[1]})"));
  EXPECT_EQ(errorCode(r), -32602);
  r = rpc(readKey(), call(6, "tools/list", R"({"cursor":"x"})"));
  EXPECT_EQ(errorCode(r), -32602);
}

TEST_F(McpHttpApi, AuthenticationAndScope) {
  auto r = rpc("", call(1, "ping"));
  EXPECT_STATUS(r, 401);
  EXPECT_EQ(r.header("www-authenticate"), "Bearer realm=\"agent-events\"");
  r = rpc("aes_unknown", call(1, "ping"));
  EXPECT_STATUS(r, 401);
  EXPECT_EQ(r.header("www-authenticate"), "Bearer realm=\"agent-events\", error=\"invalid_token\"");
  auto t = newTenant("mcps");
  r = rpc(createKey(t, {"publish", "subscribe"}).key, call(1, "ping"));
  EXPECT_STATUS(r, 403);
  EXPECT_EQ(r.header("www-authenticate"), "Bearer error=\"insufficient_scope\", scope=\"read\"");
  // A dashboard session token is not an API key here.
  r = rpc(t.user.accessToken, call(1, "ping"));
  EXPECT_STATUS(r, 401);
  // X-API-Key is the other way to send the key.
  r = rpc("", call(1, "ping"), {{"X-API-Key", createKey(t, {"read"}).key}});
  EXPECT_STATUS(r, 200);
  // So is x-axonpush-api-key (the seed system's SDK); a 401 names every form /mcp takes.
  r = rpc("", call(1, "ping"), {{"x-axonpush-api-key", createKey(t, {"read"}).key}});
  EXPECT_STATUS(r, 200);
  for (const auto& refused : {rpc("", call(1, "ping")), rpc("aes_unknown", call(1, "ping"))}) {
    const auto message = refused.object()->getObject("error")->getValue<std::string>("message");
    for (const char* form : {"Authorization: Bearer aes_", "X-API-Key", "x-axonpush-api-key"})
      EXPECT_NE(message.find(form), std::string::npos) << form << " not in: " << message;
    EXPECT_EQ(message.find("access token"), std::string::npos) << message;
  }
  // No OAuth metadata: this server runs no authorization server.
  EXPECT_STATUS(anon().get("/.well-known/oauth-protected-resource"), 404);
  EXPECT_STATUS(anon().get("/.well-known/oauth-protected-resource/mcp"), 404);
}

TEST_F(McpHttpApi, SseOnlyAcceptGetsOneEvent) {
  auto r = rpc(readKey(), call(9, "ping"), {{"Accept", "text/event-stream"}});
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(r.header("content-type").rfind("text/event-stream", 0), 0u);
  EXPECT_EQ(r.body, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}\n\n");
}

TEST_F(McpHttpApi, RateLimitedPerKey) {
  auto t = newTenant("mcpr");
  const auto key = createKey(t, {"read"}).key;
  int ok = 0;
  HttpResult last;
  for (int i = 0; i < 45; ++i) {
    last = rpc(key, call(i + 1, "ping"));
    if (last.status == 200) ++ok;
    if (last.status == 429) break;
  }
  // 40 per minute: unless the minute turned during the loop, the 41st is refused.
  if (last.status == 429) {
    EXPECT_GE(ok, 1);
    EXPECT_FALSE(last.header("retry-after").empty());
    // Another key is not affected.
    EXPECT_STATUS(rpc(createKey(t, {"read"}).key, call(1, "ping")), 200);
  } else {
    EXPECT_EQ(ok, 45);
  }
}

}  // namespace
}  // namespace aev::testing

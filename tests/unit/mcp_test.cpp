// mcp/: argument checking and the generated input schema, relative windows, cursors,
// the output cap (valid JSON, cut at a row, a cursor to the first row left out), cut
// strings that stay valid UTF-8, protocol version negotiation, the checks of a 2026-07-28
// request's mirrored headers.
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include "common/clock.h"
#include "common/text.h"
#include "http/context.h"
#include "http/request.h"
#include "mcp/listing.h"
#include "mcp/modern_envelope.h"
#include "mcp/protocol.h"
#include "mcp/registry.h"

namespace aev::mcp {
namespace {

Poco::JSON::Object::Ptr parse(const std::string& json) {
  return Poco::JSON::Parser().parse(json).extract<Poco::JSON::Object::Ptr>();
}

const std::vector<Param>& params() {
  static const std::vector<Param> p = {Param::text("traceId", "a trace", true),
                                       sinceParam(),
                                       untilParam(),
                                       Param::oneOf("state", "a state", {"firing", "ok"}),
                                       limitParam(20, 100),
                                       Param::flag("includePayloads", "payloads"),
                                       cursorParam()};
  return p;
}

std::string errorOf(const std::string& args) {
  try {
    Arguments a(params(), parse(args));
  } catch (const ToolError& e) {
    return e.what();
  }
  return "";
}

TEST(McpArguments, EveryProblemInOneActionableMessage) {
  const auto text = errorOf(R"({"limit":0,"state":"burning","bogus":1,"includePayloads":"yes"})");
  EXPECT_NE(text.find("'traceId' is required"), std::string::npos) << text;
  EXPECT_NE(text.find("'limit' must be an integer from 1 to 100, not 0"), std::string::npos) << text;
  EXPECT_NE(text.find("'state' must be one of firing, ok"), std::string::npos) << text;
  EXPECT_NE(text.find("unknown argument 'bogus'"), std::string::npos) << text;
  EXPECT_NE(text.find("'includePayloads' must be true or false"), std::string::npos) << text;
  EXPECT_EQ(errorOf(R"({"traceId":"t","limit":5,"state":"ok","since":null})"), "");
  Arguments a(params(), parse(R"({"traceId":"t"})"));
  EXPECT_EQ(a.integer("limit"), 20);  // the default
  EXPECT_FALSE(a.flag("includePayloads"));
}

TEST(McpArguments, SchemaIsFlatAndClosed) {
  auto schema = inputSchema(params());
  EXPECT_EQ(schema->getValue<std::string>("type"), "object");
  EXPECT_FALSE(schema->getValue<bool>("additionalProperties"));
  const auto text = http::stringify(schema);
  EXPECT_EQ(text.find("anyOf"), std::string::npos);
  EXPECT_EQ(text.find("null"), std::string::npos);
  EXPECT_EQ(schema->getArray("required")->size(), 1u);
  EXPECT_EQ(schema->getObject("properties")->getObject("limit")->getValue<int>("maximum"), 100);
}

TEST(McpRegistry, ToolNamesAndAnnotations) {
  auto list = ToolRegistry::standard().listResult()->getArray("tools");
  ASSERT_EQ(list->size(), 17u);
  for (std::size_t i = 0; i < list->size(); ++i) {
    auto t = list->getObject(i);
    const auto name = t->getValue<std::string>("name");
    for (char c : name) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') << name;
    EXPECT_TRUE(t->getObject("annotations")->getValue<bool>("readOnlyHint")) << name;
    EXPECT_FALSE(t->getObject("annotations")->getValue<bool>("destructiveHint")) << name;
    EXPECT_EQ(t->getObject("outputSchema")->getValue<std::string>("type"), "object") << name;
  }
}

TEST(McpProtocol, Negotiation) {
  EXPECT_EQ(negotiateLegacy(std::string("2025-06-18")), "2025-06-18");
  EXPECT_EQ(negotiateLegacy(std::string("2024-11-05")), "2025-11-25");
  EXPECT_EQ(negotiateLegacy(std::nullopt), "2025-11-25");
  // initialize is the legacy handshake: it never answers the modern revision.
  EXPECT_EQ(negotiateLegacy(std::string("2026-07-28")), "2025-11-25");
  EXPECT_TRUE(isSupported("2025-03-26"));
  EXPECT_TRUE(isSupported("2026-07-28"));
  EXPECT_FALSE(isSupported("2024-11-05"));
  EXPECT_TRUE(isModern("2026-07-28"));
  EXPECT_FALSE(isModern("2025-11-25"));
  EXPECT_EQ(supportedList(), "2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26");
}

TEST(McpModernEnvelope, MirroredHeaderValues) {
  EXPECT_EQ(decodeMirroredHeader("get_context"), "get_context");
  // The spec's examples (streamable-http "Value Encoding").
  EXPECT_EQ(decodeMirroredHeader("=?base64?SGVsbG8sIOS4lueVjA==?="), "Hello, 世界");
  EXPECT_EQ(decodeMirroredHeader("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="), "=?base64?literal?=");
  EXPECT_EQ(decodeMirroredHeader("=?BASE64?abc?="), "=?BASE64?abc?=");  // the sentinel is case-sensitive
  EXPECT_FALSE(decodeMirroredHeader("=?base64?not base64!?="));
  EXPECT_FALSE(decodeMirroredHeader("=?base64?/w==?="));  // 0xFF: not UTF-8
  EXPECT_FALSE(decodeMirroredHeader(std::string("a\x01b")));
}

Poco::JSON::Object::Ptr modernParams(const std::string& name, const std::string& version = "2026-07-28") {
  return parse(R"({"name":")" + name + R"(","_meta":{"io.modelcontextprotocol/protocolVersion":")" + version +
               R"(","io.modelcontextprotocol/clientCapabilities":{}}})");
}

TEST(McpModernEnvelope, HeadersMustAgreeWithTheBody) {
  const RequestHeaders ok{"2026-07-28", "tools/call", "get_context"};
  EXPECT_FALSE(checkModernEnvelope(ok, "tools/call", modernParams("get_context"), "2026-07-28"));
  EXPECT_FALSE(checkModernEnvelope({"2026-07-28", "tools/call", "=?base64?Z2V0X2NvbnRleHQ=?="}, "tools/call",
                                   modernParams("get_context"), "2026-07-28"));
  auto code = [](const std::optional<EnvelopeProblem>& p) { return p ? p->code : 0; };
  // Missing or disagreeing headers: 400 HeaderMismatch.
  const RequestHeaders mismatched[] = {{"", "tools/call", "get_context"},             // no version
                                       {"2026-07-28", "", "get_context"},             // no method
                                       {"2026-07-28", "tools/list", "get_context"},   // another method
                                       {"2026-07-28", "tools/call", ""},              // no tool name
                                       {"2026-07-28", "tools/call", "list_alerts"},   // another tool
                                       {"2025-11-25", "tools/call", "get_context"}};  // another version
  for (const auto& headers : mismatched)
    EXPECT_EQ(code(checkModernEnvelope(headers, "tools/call", modernParams("get_context"), "2026-07-28")),
              rpc::kHeaderMismatch)
        << headers.protocolVersion << " / " << headers.method << " / " << headers.name;
  // Mcp-Name is only required where the spec requires it.
  EXPECT_FALSE(checkModernEnvelope({"2026-07-28", "tools/list", ""}, "tools/list", modernParams("x"), "2026-07-28"));
  // The client capabilities are required in _meta: 400 Invalid params.
  auto bare = parse(R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}})");
  auto p = checkModernEnvelope({"2026-07-28", "tools/list", ""}, "tools/list", bare, "2026-07-28");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->status, 400);
  EXPECT_EQ(p->code, rpc::kInvalidParams);
  EXPECT_EQ(metaString(bare, kMetaProtocolVersion), "2026-07-28");
  EXPECT_EQ(metaString(parse("{}"), kMetaProtocolVersion), "");
}

TEST(McpText, CutKeepsUtf8AndSaysHowMuch) {
  EXPECT_EQ(cutText("short", 10), "short");
  EXPECT_EQ(cutText("ééééé", 2), "éé…[+3 chars]");
  EXPECT_EQ(cutText("a✓b", 2), "a✓…[+1 chars]");
}

TEST(McpCursor, RoundTripAndRefusal) {
  Cursor c{"list_traces", 42, 120, 20, 1000, 2000};
  auto back = decodeCursor(encodeCursor(c));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->tool, "list_traces");
  EXPECT_EQ(back->argsHash, 42u);
  EXPECT_EQ(back->offset, 120);
  EXPECT_EQ(back->limit, 20);
  EXPECT_EQ(back->since, 1000);
  EXPECT_EQ(back->until, 2000);
  EXPECT_FALSE(decodeCursor("not-a-cursor"));
  EXPECT_FALSE(decodeCursor(""));
  EXPECT_EQ(stableHash("abc"), stableHash("abc"));
  EXPECT_NE(stableHash("abc"), stableHash("abd"));
}

class McpListing : public ::testing::Test {
 protected:
  http::AppContext app;
  Options options;
  std::vector<Param> listParams = {limitParam(10, 100), cursorParam(), sinceParam(), untilParam()};
  ToolContext context(std::size_t cap) {
    options.maxOutputChars = cap;
    return ToolContext{app, 1, 2, "aes_x", {"read"}, "http://x", 1'700'000'000'000'000, options, "t"};
  }
  static std::vector<JsonObject> rows(int n, std::size_t chars) {
    std::vector<JsonObject> out;
    for (int i = 0; i < n; ++i) {
      JsonObject o = new Poco::JSON::Object;
      o->set("i", i);
      o->set("text", std::string(chars, 'x') + "✓\"\n");
      out.push_back(o);
    }
    return out;
  }
};

TEST_F(McpListing, CapCutsAtARowWithACursorToTheNextOne) {
  Arguments args(listParams, parse(R"({"limit":100})"));
  auto ctx = context(2000);
  auto out = finishListing(ctx, args, new Poco::JSON::Object, "rows", rows(50, 100), {0, 100}, false, std::nullopt);
  const auto text = http::stringify(out.structured);
  EXPECT_LE(utf8Length(text), 2000u);
  auto back = parse(text);  // valid JSON
  EXPECT_TRUE(out.truncated);
  EXPECT_TRUE(back->getValue<bool>("truncated"));
  const auto shown = back->getArray("rows")->size();
  EXPECT_GT(shown, 5u);
  EXPECT_EQ(out.rows, shown);
  EXPECT_EQ(back->getValue<std::size_t>("returned"), shown);
  // One more row would not have fitted.
  auto bigger = finishListing(ctx, args, new Poco::JSON::Object, "rows", rows(static_cast<int>(shown) + 1, 100),
                              {0, 100}, false, std::nullopt);
  EXPECT_TRUE(bigger.truncated);
  auto cursor = decodeCursor(back->getValue<std::string>("nextCursor"));
  ASSERT_TRUE(cursor);
  EXPECT_EQ(cursor->offset, static_cast<std::int64_t>(shown));
  EXPECT_EQ(cursor->limit, 100);
  // The cursor belongs to these arguments only.
  Arguments continued(listParams,
                      parse(R"({"limit":100,"cursor":")" + back->getValue<std::string>("nextCursor") + "\"}"));
  EXPECT_EQ(cursorOf(ctx, continued)->offset, static_cast<std::int64_t>(shown));
  Arguments other(listParams, parse(R"({"since":"1h","cursor":")" + back->getValue<std::string>("nextCursor") + "\"}"));
  EXPECT_THROW(cursorOf(ctx, other), ToolError);
}

TEST_F(McpListing, UncutListsSayWhetherMoreFollows) {
  Arguments args(listParams, parse(R"({})"));
  auto ctx = context(40000);
  auto last = finishListing(ctx, args, new Poco::JSON::Object, "rows", rows(3, 10), {0, 10}, false, std::nullopt);
  EXPECT_FALSE(last.truncated);
  EXPECT_TRUE(last.structured->isNull("nextCursor"));
  auto more = finishListing(ctx, args, new Poco::JSON::Object, "rows", rows(10, 10), {20, 10}, true, std::nullopt);
  EXPECT_EQ(decodeCursor(more.structured->getValue<std::string>("nextCursor"))->offset, 30);
}

TEST_F(McpListing, WindowsRelativeOrRfc3339) {
  auto ctx = context(40000);
  auto w = resolveWindow(ctx, Arguments(listParams, parse(R"({"since":"7d"})")), clock::kDay, std::nullopt);
  EXPECT_EQ(w.until, ctx.now);
  EXPECT_EQ(w.since, ctx.now - 7 * clock::kDay);
  w = resolveWindow(ctx, Arguments(listParams, parse(R"({})")), clock::kDay, std::nullopt);
  EXPECT_EQ(w.since, ctx.now - clock::kDay);
  w = resolveWindow(ctx, Arguments(listParams, parse(R"({"since":"2023-11-14T00:00:00Z","until":"15m"})")), clock::kDay,
                    std::nullopt);
  EXPECT_EQ(w.until, ctx.now - 15 * clock::kMinute);
  EXPECT_EQ(w.since, *clock::parseRfc3339("2023-11-14T00:00:00Z"));
  for (const char* bad :
       {R"({"since":"yesterday"})", R"({"since":"-5m"})", R"({"since":"5 m"})", R"({"since":"1h","until":"2h"})"})
    EXPECT_THROW(resolveWindow(ctx, Arguments(listParams, parse(bad)), clock::kDay, std::nullopt), ToolError) << bad;
}

}  // namespace
}  // namespace aev::mcp

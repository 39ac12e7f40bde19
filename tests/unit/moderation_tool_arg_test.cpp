// moderation/tool_arg.h: the tool_arg grammar (accepted and refused expressions, with
// where the mistake is) and what an expression selects in a tool call.
#include <gtest/gtest.h>

#include "moderation/tool_arg.h"
#include "moderation_support.h"

namespace aev::moderation {
namespace {

using testing::parseObject;

std::string parseError(const std::string& text) {
  auto parsed = ToolArgExpression::parse(text);
  if (auto* message = std::get_if<std::string>(&parsed)) return *message;
  return "";
}

// The paths (and matched substrings) an expression selects in {"tool": tool, "args": args}.
std::vector<std::string> select(const std::string& expression, const std::string& argsJson,
                                const std::string& tool = "shell") {
  auto parsed = ToolArgExpression::parse(expression);
  EXPECT_TRUE(std::holds_alternative<ToolArgExpression>(parsed)) << expression << ": " << parseError(expression);
  if (!std::holds_alternative<ToolArgExpression>(parsed)) return {};
  Poco::JSON::Object::Ptr call = new Poco::JSON::Object;
  call->set("tool", tool);
  call->set("args", Poco::JSON::Parser().parse(argsJson));
  std::vector<std::string> out;
  for (const auto& hit : std::get<ToolArgExpression>(parsed).evaluate({"$", call, nullptr})) {
    std::string text;
    scalarText(hit.slot.value, text);
    std::string entry = hit.slot.path;
    for (const auto& r : hit.ranges) entry += " " + text.substr(r.start, r.end - r.start);
    out.push_back(entry);
  }
  return out;
}

using Paths = std::vector<std::string>;

TEST(ToolArgExpression, AcceptsTheDocumentedForms) {
  for (const char* ok : {"$", "$.args", "$.args.path", "args.path", "args.path ~ /^\\/etc\\//", "$.args.cmd = rm",
                         "args.cmd = \"rm -rf /\"", "args.*.url ~ /internal/i", "$.args.files[0]", "args.files[*]",
                         "$.args[\"gen_ai.x\"]", "*", "$.tool = shell", "  args.n=3  ", "args.a-b_c"})
    EXPECT_EQ(parseError(ok), "") << ok;
}

TEST(ToolArgExpression, RefusesMalformedExpressionsSayingWhere) {
  EXPECT_NE(parseError("").find("at character 1"), std::string::npos);
  EXPECT_NE(parseError("$.").find("must follow '.'"), std::string::npos);
  EXPECT_NE(parseError("args..x").find("at character 6"), std::string::npos);
  EXPECT_NE(parseError("args[x]").find("index"), std::string::npos);
  EXPECT_NE(parseError("args[0").find("']'"), std::string::npos);
  EXPECT_NE(parseError("args.path ~ abc").find("between slashes"), std::string::npos);
  EXPECT_NE(parseError("args.path ~ /abc").find("closing '/'"), std::string::npos);
  EXPECT_NE(parseError("args.path ~ /abc/x").find("only flag is i"), std::string::npos);
  EXPECT_NE(parseError("args.path ~ //").find("empty regex"), std::string::npos);
  EXPECT_NE(parseError("args.path ~ /(/").find("not a valid RE2"), std::string::npos);
  EXPECT_NE(parseError("args.path ~ /\\pL{1000}\\pL{1000}\\pL{1000}\\pL{1000}/").find("too large"), std::string::npos);
  EXPECT_NE(parseError("args.path =").find("a value after '='"), std::string::npos);
  EXPECT_NE(parseError("args.path = \"x\" y").find("after the quoted value"), std::string::npos);
  EXPECT_NE(parseError("args.path > 3").find("'~ /regex/' or '= value'"), std::string::npos);
  EXPECT_NE(parseError("args[\"open").find("quoted key"), std::string::npos);
  std::string deep = "a";
  for (int i = 0; i < 40; ++i) deep += ".b";
  EXPECT_NE(parseError(deep).find("at most 32 steps"), std::string::npos);
}

TEST(ToolArgExpression, PathsWithoutAConditionNeedANonNullValue) {
  EXPECT_EQ(select("$.args.path", R"({"path": "/etc/passwd"})"), Paths{"$.args.path"});
  EXPECT_EQ(select("args.path", R"({"path": "/etc/passwd"})"), Paths{"$.args.path"});  // "$." optional
  EXPECT_TRUE(select("args.path", R"({"path": null})").empty());
  EXPECT_TRUE(select("args.missing", R"({"path": "x"})").empty());
  EXPECT_TRUE(select("args.path.deeper", R"({"path": "x"})").empty());
  EXPECT_EQ(select("$.tool", "{}", "shell"), Paths{"$.tool"});
}

TEST(ToolArgExpression, RegexConditionsReportTheMatchedParts) {
  EXPECT_EQ(select("args.path ~ /^\\/etc\\//", R"({"path": "/etc/passwd"})"), Paths{"$.args.path /etc/"});
  EXPECT_TRUE(select("args.path ~ /^\\/etc\\//", R"({"path": "/home/etc/x"})").empty());
  EXPECT_EQ(select("args.q ~ /SECRET/i", R"({"q": "a secret and a Secret"})"), Paths{"$.args.q secret Secret"});
  // Numbers are matched by their text and selected whole.
  EXPECT_EQ(select("args.port ~ /^22$/", R"({"port": 22})"), Paths{"$.args.port"});
  // Objects and arrays have no text of their own.
  EXPECT_TRUE(select("args ~ /x/", R"({"x": "x"})").empty());
}

TEST(ToolArgExpression, EqualityComparesTheValuesText) {
  EXPECT_EQ(select("args.cmd = \"rm -rf /\"", R"({"cmd": "rm -rf /"})"), Paths{"$.args.cmd"});
  EXPECT_EQ(select("args.cmd = rm -rf /", R"({"cmd": "rm -rf /"})"), Paths{"$.args.cmd"});
  EXPECT_TRUE(select("args.cmd = rm", R"({"cmd": "rm -rf /"})").empty());
  EXPECT_EQ(select("args.retries = 3", R"({"retries": 3})"), Paths{"$.args.retries"});
  EXPECT_EQ(select("args.force = true", R"({"force": true})"), Paths{"$.args.force"});
  EXPECT_EQ(select("$.tool = shell", "{}", "shell"), Paths{"$.tool"});
  EXPECT_TRUE(select("$.tool = shell", "{}", "browser").empty());
}

TEST(ToolArgExpression, WildcardsIndexesAndQuotedKeys) {
  const std::string args = R"({"files": ["/a", "/etc/x", "/b"], "hosts": {"one": {"url": "http://internal/1"},
                               "two": {"url": "http://public/2"}}, "gen_ai.x": "v"})";
  EXPECT_EQ(select("args.files[1]", args), Paths{"$.args.files[1]"});
  EXPECT_TRUE(select("args.files[9]", args).empty());
  EXPECT_EQ(select("args.files[*] ~ /etc/", args), Paths{"$.args.files[1] etc"});
  EXPECT_EQ(select("args.hosts.*.url ~ /internal/", args), Paths{"$.args.hosts.one.url internal"});
  EXPECT_EQ(select("$.args[\"gen_ai.x\"] = v", args), Paths{"$.args.gen_ai.x"});
  EXPECT_EQ(select("* = shell", args), Paths{"$.tool"});
  EXPECT_TRUE(select("args.files.0", args).empty());  // keys do not index arrays
}

}  // namespace
}  // namespace aev::moderation

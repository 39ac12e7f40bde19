// common/json_view.h against parseJson + condensedJson, which the publish paths used
// before it and still use for what the view hands back: the same documents accepted,
// the same refusals (message and offset), the same condensed text for every value, the
// same member found for every key.
#include "common/json_view.h"

#include <Poco/JSON/Object.h>
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>

#include "common/json_condense.h"
#include "common/json_parse.h"
#include "json_generator.h"

namespace aev {
namespace {

std::string viaPoco(std::string_view text) { return condensedJson(parseJson(text)); }

std::string viaView(const JsonView& view, std::uint32_t i) {
  std::string out;
  view.appendCondensed(out, i);
  return out;
}

// Accepted by both or refused by both with the same message; when accepted, every node
// condenses as parseJson's value of its own text does, and every object's members are
// found where Poco's object has them.
void expectSameAsParseJson(const std::string& doc) {
  std::optional<std::string> pocoError, viewError;
  try {
    parseJson(doc);
  } catch (const JsonSyntaxError& e) {
    pocoError = e.what();
  }
  std::optional<JsonView> view;
  try {
    view.emplace(doc);
  } catch (const JsonSyntaxError& e) {
    viewError = e.what();
  }
  ASSERT_EQ(pocoError, viewError) << doc;
  if (!view) return;
  ASSERT_EQ(viaView(*view, JsonView::kRoot), viaPoco(doc)) << doc;
  for (std::uint32_t i = JsonView::kRoot; i < view->endOf(JsonView::kRoot); ++i) {
    ASSERT_EQ(viaView(*view, i), viaPoco(view->text(i))) << doc << " node " << i;
    if (view->kind(i) != JsonView::Kind::Object) continue;
    auto object = parseJson(view->text(i)).extract<Poco::JSON::Object::Ptr>();
    for (auto k = view->firstChild(i); k != view->endOf(i); k = view->nextSibling(k + 1)) {
      const auto key = view->string(k);
      ASSERT_TRUE(object->has(key)) << doc;
      const auto found = view->member(i, key);
      ASSERT_TRUE(found) << doc << " key " << key;
      EXPECT_EQ(viaView(*view, *found), condensedJson(object->get(key))) << doc << " key " << key;
    }
    EXPECT_FALSE(view->member(i, "no such member"));
  }
}

TEST(JsonView, HandwrittenDocumentsMatchParseJson) {
  for (const char* doc :
       {"{}", "[]", "{\"a\":1}", " { \"b\" : [ 1 , 2 ] , \"a\" : { } } ", "{\"z\":1,\"a\":2,\"m\":3}",
        "{\"a\":1,\"a\":2,\"b\":3,\"a\":4}",                        // the last duplicate wins
        "{\"\\u0061\":1,\"a\":2}",                                  // an escaped name is the same key
        "{\"a\\u0000b\":1}",                                        // names keep an escaped NUL
        "{\"s\":\"caf\\u00e9 \\ud83d\\ude00 \\/ \\\" \\\\ \\n\"}",  // escapes re-escaped as Poco does
        "{\"s\":\"é 中 😀\",\"t\":\"a/b\"}", "[0,-0,1,-1,9223372036854775807,-9223372036854775808]",
        "[9223372036854775808,18446744073709551615,18446744073709551616,-9223372036854775809]",
        "[0.5,-12.25,1e3,1E-3,6.02e+23,1e-320,3.141592653589793,1.7976931348623157e308]", "[true,false,null]",
        "\"top\"", "42", "null", "{\"a\":{\"c\":1,\"b\":{\"z\":[{\"y\":2,\"x\":3}]}}}",
        // refused
        "", "{", "{\"a\"}", "{\"a\":}", "[1,]", "{\"a\":1,}", "01", "1.", "1e", "-", "1e999", "\"\\x\"", "\"\\ud800\"",
        "\"\\udc00\"", "\"a\x01\"", "\"\xc3\"", "\"\xed\xa0\x80\"", "nul", "{} x", "[1 2]"})
    expectSameAsParseJson(doc);
}

TEST(JsonView, NestingLimitCutsWhereParseJsonCuts) {
  for (int depth : {63, 64, 65}) {
    const std::string arrays = std::string(depth, '[') + std::string(depth, ']');
    expectSameAsParseJson(arrays);
    std::string objects;
    for (int i = 0; i < depth; ++i) objects += "{\"k\":";
    objects += "1" + std::string(depth, '}');
    expectSameAsParseJson(objects);
  }
}

TEST(JsonView, ReadsFieldsWithoutCopying) {
  const std::string doc = R"({"id":"x\u0041","n":-7,"big":18446744073709551615,"s":"plain","o":{"k":[1,2,3]}})";
  JsonView view(doc);
  ASSERT_EQ(view.kind(JsonView::kRoot), JsonView::Kind::Object);
  EXPECT_EQ(view.node(JsonView::kRoot).count, 5u);
  const auto id = *view.member(JsonView::kRoot, "id");
  EXPECT_FALSE(view.node(id).verbatim);
  EXPECT_EQ(view.string(id), "xA");
  const auto n = *view.member(JsonView::kRoot, "n");
  ASSERT_EQ(view.kind(n), JsonView::Kind::Integer);
  EXPECT_EQ(view.int64(n), -7);
  EXPECT_EQ(view.kind(*view.member(JsonView::kRoot, "big")), JsonView::Kind::Number);  // beyond Int64
  const auto s = *view.member(JsonView::kRoot, "s");
  EXPECT_TRUE(view.node(s).verbatim);
  EXPECT_EQ(view.verbatimString(s), "plain");
  const auto o = *view.member(JsonView::kRoot, "o");
  EXPECT_EQ(view.text(o), R"({"k":[1,2,3]})");
  const auto k = *view.member(o, "k");
  EXPECT_EQ(view.node(k).count, 3u);
  EXPECT_EQ(view.endOf(k), view.endOf(JsonView::kRoot));  // the last value: nothing after it
}

TEST(JsonView, GeneratedDocumentsAndTheirMutationsMatchParseJson) {
  testing_json::Generator gen(20261126);
  std::mt19937 rng(11);
  for (int i = 0; i < 2000; ++i) {
    const std::string doc = gen.document();
    expectSameAsParseJson(doc);
    expectSameAsParseJson(testing_json::mutate(doc, rng));
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace aev

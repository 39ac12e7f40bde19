// http/body.h: typed field reading with collected errors, path ids, query integers.
#include "http/body.h"

#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <limits>

#include "common/json_parse.h"

namespace aev::http {
namespace {

Poco::JSON::Object::Ptr parse(const std::string& json) {
  Poco::JSON::Parser parser;
  return parser.parse(json).extract<Poco::JSON::Object::Ptr>();
}

// Runs fn and returns the ApiError it throws (fails the test if it does not throw one).
template <class F>
ApiError catchApiError(F&& fn) {
  try {
    fn();
  } catch (const ApiError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an ApiError";
  return ApiError(0, "", "", "");
}

TEST(BodyReader, ReadsValidFieldsWithoutErrors) {
  BodyReader r(parse(R"({"name":"acme","count":3,"flag":true,"tags":["a","b"],"role":"admin","appId":"12"})"));
  EXPECT_EQ(r.string("name", true, 1, 120), "acme");
  EXPECT_EQ(r.integer("count", true), 3);
  EXPECT_EQ(r.boolean("flag", true), true);
  EXPECT_EQ(r.stringArray("tags", true), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.oneOf("role", true, {"user", "admin"}), "admin");
  EXPECT_EQ(r.id("appId", true), 12);
  EXPECT_NO_THROW(r.done());
}

TEST(BodyReader, IntegersBeyondInt64AreA422NotA500) {
  // parseJson gives 2^63 and above as UInt64, which does not convert to Int64.
  BodyReader r(parseJson(R"({"count":9223372036854775808,"appId":18446744073709551615})")
                   .extract<Poco::JSON::Object::Ptr>());
  EXPECT_EQ(r.integer("count", true), std::nullopt);
  EXPECT_EQ(r.id("appId", true), std::nullopt);
  auto e = catchApiError([&] { r.done(); });
  ASSERT_EQ(e.fieldErrors().size(), 2u);
  EXPECT_EQ(e.fieldErrors()[0].location, "body.count");
  EXPECT_EQ(e.fieldErrors()[1].location, "body.appId");
}

TEST(BodyReader, MissingOptionalFieldsAreNotErrors) {
  BodyReader r(parse(R"({"description":null})"));
  EXPECT_FALSE(r.has("description"));  // null counts as absent
  EXPECT_FALSE(r.has("name"));
  EXPECT_EQ(r.string("description", false), std::nullopt);
  EXPECT_EQ(r.integer("n", false), std::nullopt);
  EXPECT_EQ(r.id("id", false), std::nullopt);
  EXPECT_EQ(r.boolean("b", false), std::nullopt);
  EXPECT_EQ(r.stringArray("a", false), std::nullopt);
  EXPECT_EQ(r.oneOf("o", false, {"x"}), std::nullopt);
  EXPECT_NO_THROW(r.done());
}

TEST(BodyReader, MissingRequiredFieldIs422WithLocation) {
  BodyReader r(parse("{}"));
  EXPECT_EQ(r.string("name", true), std::nullopt);
  auto e = catchApiError([&] { r.done(); });
  EXPECT_EQ(e.status(), 422);
  EXPECT_EQ(e.slug(), "validation");
  ASSERT_EQ(e.fieldErrors().size(), 1u);
  EXPECT_EQ(e.fieldErrors()[0].location, "body.name");
  EXPECT_FALSE(e.fieldErrors()[0].message.empty());
}

TEST(BodyReader, CollectsEveryProblemInOneError) {
  BodyReader r(parse(R"({"name":"","count":"three","flag":1,"tags":[1],"role":"root","appId":"7a"})"));
  r.string("name", true, 1, 120);
  r.integer("count", true);
  r.boolean("flag", true);
  r.stringArray("tags", true);
  r.oneOf("role", true, {"user", "admin"});
  r.id("appId", true);
  r.string("missing", true);
  auto e = catchApiError([&] { r.done(); });
  EXPECT_EQ(e.status(), 422);
  std::vector<std::string> locations;
  for (const auto& f : e.fieldErrors()) locations.push_back(f.location);
  EXPECT_EQ(locations, (std::vector<std::string>{"body.name", "body.count", "body.flag", "body.tags[0]", "body.role",
                                                 "body.appId", "body.missing"}));
  // The offending value is echoed back as text.
  EXPECT_EQ(e.fieldErrors()[4].value, "root");
  EXPECT_NE(std::string(e.what()).find("body.name"), std::string::npos);
}

TEST(BodyReader, CustomLocationPrefix) {
  BodyReader r(parse("{}"), "query");
  r.integer("limit", true);
  auto e = catchApiError([&] { r.done(); });
  ASSERT_EQ(e.fieldErrors().size(), 1u);
  EXPECT_EQ(e.fieldErrors()[0].location, "query.limit");
}

TEST(BodyReader, StringLengthCountsCodePoints) {
  std::string e120;
  for (int i = 0; i < 120; ++i) e120 += "\xC3\xA9";  // é, two bytes each
  auto obj = Poco::JSON::Object::Ptr(new Poco::JSON::Object);
  obj->set("ok", e120);
  obj->set("long", e120 + "x");
  BodyReader r(obj);
  EXPECT_EQ(r.string("ok", true, 1, 120), e120);
  EXPECT_EQ(r.string("long", true, 1, 120), std::nullopt);
  auto e = catchApiError([&] { r.done(); });
  ASSERT_EQ(e.fieldErrors().size(), 1u);
  EXPECT_EQ(e.fieldErrors()[0].location, "body.long");
}

TEST(BodyReader, StringRejectsNonStrings) {
  BodyReader r(parse(R"({"a":5,"b":{"x":1},"c":[]})"));
  EXPECT_EQ(r.string("a", true), std::nullopt);
  EXPECT_EQ(r.string("b", true), std::nullopt);
  EXPECT_EQ(r.string("c", true), std::nullopt);
  auto e = catchApiError([&] { r.done(); });
  EXPECT_EQ(e.fieldErrors().size(), 3u);
  EXPECT_EQ(e.fieldErrors()[0].value, "5");
}

TEST(BodyReader, IdAcceptsIntegerOrDecimalString) {
  BodyReader r(parse(R"({"a":7,"b":"7","c":"x7","d":"","e":7.5,"f":"7 "})"));
  EXPECT_EQ(r.id("a", true), 7);
  EXPECT_EQ(r.id("b", true), 7);
  EXPECT_EQ(r.id("c", true), std::nullopt);
  EXPECT_EQ(r.id("d", true), std::nullopt);
  EXPECT_EQ(r.id("e", true), std::nullopt);
  EXPECT_EQ(r.id("f", true), std::nullopt);
  auto e = catchApiError([&] { r.done(); });
  EXPECT_EQ(e.fieldErrors().size(), 4u);
}

TEST(BodyReader, IntegerRejectsFloatsAndStrings) {
  BodyReader r(parse(R"({"a":1.5,"b":"1","c":9007199254740993})"));
  EXPECT_EQ(r.integer("a", true), std::nullopt);
  EXPECT_EQ(r.integer("b", true), std::nullopt);
  EXPECT_EQ(r.integer("c", true), 9007199254740993LL);
  auto e = catchApiError([&] { r.done(); });
  EXPECT_EQ(e.fieldErrors().size(), 2u);
}

TEST(BodyReader, StringArrayRejectsNonArrays) {
  BodyReader r(parse(R"({"a":"publish","b":["publish",2]})"));
  EXPECT_EQ(r.stringArray("a", true), std::nullopt);
  EXPECT_EQ(r.stringArray("b", true), std::nullopt);
  auto e = catchApiError([&] { r.done(); });
  ASSERT_EQ(e.fieldErrors().size(), 2u);
  EXPECT_EQ(e.fieldErrors()[0].location, "body.a");
  EXPECT_EQ(e.fieldErrors()[1].location, "body.b[1]");
}

TEST(BodyReader, FailRecordsCustomProblem) {
  BodyReader r(parse(R"({"slug":"Bad Slug"})"));
  auto slug = r.string("slug", true);
  ASSERT_TRUE(slug);
  r.fail("slug", "must match ^[a-z0-9][a-z0-9-]{0,62}$", *slug);
  auto e = catchApiError([&] { r.done(); });
  ASSERT_EQ(e.fieldErrors().size(), 1u);
  EXPECT_EQ(e.fieldErrors()[0].location, "body.slug");
  EXPECT_EQ(e.fieldErrors()[0].value, "Bad Slug");
}

TEST(Utf8Length, CountsCodePoints) {
  EXPECT_EQ(utf8Length(""), 0u);
  EXPECT_EQ(utf8Length("abc"), 3u);
  EXPECT_EQ(utf8Length("h\xC3\xA9llo"), 5u);           // é
  EXPECT_EQ(utf8Length("\xE2\x82\xAC"), 1u);           // €
  EXPECT_EQ(utf8Length("\xF0\x9F\x98\x80!"), 2u);      // 😀!
}

TEST(PathId, AcceptsPositiveDecimals) {
  EXPECT_EQ(pathId("1", "organization"), 1);
  EXPECT_EQ(pathId("42", "organization"), 42);
  EXPECT_EQ(pathId("9223372036854775807", "organization"), std::numeric_limits<std::int64_t>::max());
}

TEST(PathId, AnythingElseIsNotFound) {
  for (const char* bad : {"", "abc", "12abc", "0", "-1", "+1", " 1", "1 ", "1.0", "0x10", "99999999999999999999"}) {
    auto e = catchApiError([&] { pathId(bad, "organization"); });
    EXPECT_EQ(e.status(), 404) << "'" << bad << "'";
    EXPECT_EQ(e.slug(), "not-found") << bad;
  }
}

TEST(QueryInt, DefaultWhenAbsentOrEmpty) {
  EXPECT_EQ(queryInt(std::nullopt, "limit", 20, 1, 100), 20);
  EXPECT_EQ(queryInt(std::string(), "limit", 20, 1, 100), 20);
}

TEST(QueryInt, InRangeValues) {
  EXPECT_EQ(queryInt(std::string("1"), "limit", 20, 1, 100), 1);
  EXPECT_EQ(queryInt(std::string("100"), "limit", 20, 1, 100), 100);
}

TEST(QueryInt, OutOfRangeOrGarbageIs422OnQueryLocation) {
  for (const char* bad : {"0", "101", "-5", "abc", "10x", "1.5", "99999999999999999999"}) {
    auto e = catchApiError([&] { queryInt(std::string(bad), "limit", 20, 1, 100); });
    EXPECT_EQ(e.status(), 422) << bad;
    ASSERT_EQ(e.fieldErrors().size(), 1u) << bad;
    EXPECT_EQ(e.fieldErrors()[0].location, "query.limit");
    EXPECT_EQ(e.fieldErrors()[0].value, bad);
  }
}

}  // namespace
}  // namespace aev::http

namespace aev::http {
namespace {

TEST(BodyReaderValueProblems, AddedOnlyForWellTypedTopLevelFields) {
  BodyReader r(Poco::JSON::Parser().parse(R"({"name":7,"rungs":[{"at":"x"}],"limit":-1})")
                   .extract<Poco::JSON::Object::Ptr>());
  r.string("name", true);
  r.fail("rungs[0].at", "must be an integer", "\"x\"");
  bool asked = false;
  auto valueProblems = [&] {
    asked = true;
    return std::vector<FieldError>{{"body.name", "is too short", ""},         // mistyped: dropped
                                   {"body.rungs", "must ascend", ""},         // mistyped below: dropped
                                   {"body.limit", "must be positive", "-1"}};  // well typed: kept
  };
  try {
    r.done(valueProblems);
    FAIL() << "a mistyped body must be a 422";
  } catch (const ApiError& e) {
    std::vector<std::string> locations;
    for (const auto& f : e.fieldErrors()) locations.push_back(f.location);
    EXPECT_EQ(locations, (std::vector<std::string>{"body.name", "body.rungs[0].at", "body.limit"}));
    EXPECT_EQ(e.fieldErrors().front().message, "must be a string");
  }
  EXPECT_TRUE(asked);

  BodyReader clean(Poco::JSON::Parser().parse(R"({"name":"x"})").extract<Poco::JSON::Object::Ptr>());
  clean.string("name", true);
  asked = false;
  EXPECT_NO_THROW(clean.done(valueProblems));
  EXPECT_FALSE(asked) << "value problems are the caller's to raise when the types are right";
}

}  // namespace
}  // namespace aev::http

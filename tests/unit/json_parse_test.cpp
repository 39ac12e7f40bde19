// common/json_parse.h against Poco::JSON::Parser, which it replaces on the request path:
// the same values of the same types for valid documents, a refusal for invalid ones
// (handcrafted cases, then generated documents and byte-level mutations of them).
#include "common/json_parse.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>

#include "json_generator.h"

namespace aev {
namespace {

using Poco::Dynamic::Var;

std::optional<Var> pocoParse(const std::string& text) {
  try {
    Poco::JSON::Parser parser;
    parser.setDepth(64);
    return parser.parse(text);
  } catch (...) {
    return std::nullopt;
  }
}

std::optional<Var> ourParse(const std::string& text) {
  try {
    return parseJson(text);
  } catch (const JsonSyntaxError&) {
    return std::nullopt;
  }
}

// Same shape, same types, same values (doubles bit for bit).
::testing::AssertionResult sameValue(const Var& a, const Var& b, const std::string& path = "$") {
  if (a.type() != b.type())
    return ::testing::AssertionFailure() << path << ": " << a.type().name() << " vs " << b.type().name();
  if (a.isEmpty()) return ::testing::AssertionSuccess();
  if (a.type() == typeid(Poco::JSON::Object::Ptr)) {
    auto x = a.extract<Poco::JSON::Object::Ptr>(), y = b.extract<Poco::JSON::Object::Ptr>();
    if (x->size() != y->size()) return ::testing::AssertionFailure() << path << ": member counts differ";
    for (auto i = x->begin(), j = y->begin(); i != x->end(); ++i, ++j) {
      if (i->first != j->first)
        return ::testing::AssertionFailure() << path << ": key " << i->first << " vs " << j->first;
      auto r = sameValue(i->second, j->second, path + "." + i->first);
      if (!r) return r;
    }
    return ::testing::AssertionSuccess();
  }
  if (a.type() == typeid(Poco::JSON::Array::Ptr)) {
    auto x = a.extract<Poco::JSON::Array::Ptr>(), y = b.extract<Poco::JSON::Array::Ptr>();
    if (x->size() != y->size()) return ::testing::AssertionFailure() << path << ": lengths differ";
    for (unsigned i = 0; i < x->size(); ++i) {
      auto r = sameValue(x->get(i), y->get(i), path + "[" + std::to_string(i) + "]");
      if (!r) return r;
    }
    return ::testing::AssertionSuccess();
  }
  if (a.type() == typeid(double)) {
    if (a.extract<double>() != b.extract<double>() ||
        std::signbit(a.extract<double>()) != std::signbit(b.extract<double>()))
      return ::testing::AssertionFailure() << path << ": " << a.extract<double>() << " vs " << b.extract<double>();
    return ::testing::AssertionSuccess();
  }
  if (a.toString() != b.toString())
    return ::testing::AssertionFailure() << path << ": " << a.toString() << " vs " << b.toString();
  return ::testing::AssertionSuccess();
}

// Poco refuses a scalar at the top level, so documents are compared inside an array.
void expectSameAsPoco(const std::string& doc) {
  auto poco = pocoParse(doc);
  auto ours = ourParse(doc);
  ASSERT_EQ(poco.has_value(), ours.has_value()) << doc << (poco ? " (Poco took it)" : " (Poco refused it)");
  if (poco) {
    EXPECT_TRUE(sameValue(*poco, *ours)) << doc;
  }
}

TEST(JsonParse, ValidDocumentsGiveWhatPocoGives) {
  for (const char* doc : {
           R"({})",
           R"([])",
           R"({"a":1,"b":-5,"c":0,"d":-0,"e":2147483648,"f":9223372036854775807,"g":9223372036854775808,
               "h":18446744073709551615,"i":-9223372036854775808,"j":1.5,"k":1e2,"l":-1.25E-3,"m":1e-400,"n":-0.0,
               "o":123456789.123456789,"p":5e300})",
           R"({"t":true,"f":false,"n":null,"s":"","e":{},"a":[],"nested":{"x":[1,[2,[3,{"y":null}]]]}})",
           R"({"esc":"q\" b\\ s\/ \b\f\n\r\t","u":"\u00e9\u4e2d\ud83d\ude00end","raw":"é中😀","mixed":"a\u0041é"})",
           R"({"dup":1,"x":0,"dup":2,"dup":"last"})",
           R"({"z":1,"a":2,"m":3,"":4,"A":5,"aa":6})",
           " \n\t\r{ \"a\" : [ 1 , 2 ] , \"b\" : { } } \n ",
           R"([1,"two",3.0,[true],{"k":"v"}])",
       })
    expectSameAsPoco(doc);
}

TEST(JsonParse, LargeObjectsWithDuplicatesGiveWhatPocoGives) {
  // Past 32 members the members are sorted another way: both ways keep the last duplicate.
  for (int n : {5, 31, 33, 200}) {
    std::string doc = "{";
    for (int i = n; i > 0; --i) doc += "\"k" + std::to_string(i % (n / 2 + 1)) + "\":" + std::to_string(i) + ",";
    doc += "\"nested\":{\"b\":1,\"a\":{\"d\":2,\"c\":3,\"d\":4}}}";
    expectSameAsPoco(doc);
  }
}

TEST(JsonParse, InvalidDocumentsAreRefusedLikePocoRefusesThem) {
  for (const char* doc : {"",
                          " ",
                          "{",
                          "}",
                          "[",
                          "{\"a\":1,}",
                          "[1,]",
                          "[1 2]",
                          "{} x",
                          "{}{}",
                          "{\"a\" 1}",
                          "{1:2}",
                          "{'a':1}",
                          "[01]",
                          "[1.]",
                          "[.5]",
                          "[-]",
                          "[+1]",
                          "[1e]",
                          "[1e+]",
                          "[0x10]",
                          "[Infinity]",
                          "[NaN]",
                          "[1e400]",
                          "[-1e400]",
                          "[nul]",
                          "[tru]",
                          "[True]",
                          "[\"\\x\"]",
                          "[\"\\ud83d\"]",
                          "[\"\\ude00\"]",
                          "[\"\\ud83dx\"]",
                          "[\"\\ud83d\\u0041\"]",
                          "[\"\\u12\"]",
                          "[\"tab\there\"]",
                          "[\"unterminated]",
                          "\f{}",
                          "{}\v",
                          "[\"\xc3\"]",
                          "[\"\xff\"]",
                          "[\"\xed\xa0\x80\"]",
                          "[\"\xc0\xaf\"]",
                          "[\"\xe0\x80\xaf\"]",
                          "[\"\xf0\x80\x80\xaf\"]",
                          "[\"\xf4\x90\x80\x80\"]",
                          "[\"\x80\"]",
                          "/*c*/{}",
                          "{\"a\":1}//"})
    expectSameAsPoco(doc);
  expectSameAsPoco(std::string("[\"a\0b\"]", 7));  // a raw NUL is an unescaped control character
  expectSameAsPoco(std::string("[1]\0", 4));
}

TEST(JsonParse, AnEscapedNulIsRefusedInValuesAndNames) {
  // Poco accepts \u0000, but no PostgreSQL text or jsonb value can hold a NUL: refusing it
  // here makes such a body the same 400 on every store.
  for (const char* doc : {R"(["\u0000"])", R"({"a":"x\u0000y"})", R"({"a\u0000b":1})", R"([{"n":["\u0000"]}])"}) {
    try {
      parseJson(doc);
      ADD_FAILURE() << doc << " was accepted";
    } catch (const JsonSyntaxError& e) {
      EXPECT_NE(std::string(e.what()).find("NUL"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(parseJson(R"(["\u0001"])").extract<Poco::JSON::Array::Ptr>()->getElement<std::string>(0), "\x01");
}

TEST(JsonParse, NestingBeyondTheLimitIsRefused) {
  for (int depth : {63, 64, 65}) {
    std::string arrays = std::string(depth, '[') + std::string(depth, ']');
    std::string objects;
    for (int i = 0; i < depth; ++i) objects += "{\"a\":";
    objects += "1" + std::string(depth, '}');
    expectSameAsPoco(arrays);
    expectSameAsPoco(objects);
  }
  EXPECT_THROW(parseJson("[[[1]]]", 2), JsonSyntaxError);
  EXPECT_NO_THROW(parseJson("[[1]]", 2));
  EXPECT_THROW(parseJson(std::string(100000, '[')), JsonSyntaxError);  // refused, not recursed into
}

TEST(JsonParse, WhatItTakesBeyondPoco) {
  // A scalar document, which Poco cannot hold at the top level.
  EXPECT_EQ(parseJson("42").extract<Poco::Int64>(), 42);
  EXPECT_EQ(parseJson(" \"s\" ").extract<std::string>(), "s");
  EXPECT_TRUE(parseJson("null").isEmpty());
  // Integers beyond 64 bits are doubles (Poco wraps them around); 64-bit ones are exact
  // (Poco rounds negative ones beyond 2^53 through a double).
  EXPECT_DOUBLE_EQ(parseJson("18446744073709551616").extract<double>(), 18446744073709551616.0);
  EXPECT_DOUBLE_EQ(parseJson("-9223372036854775809").extract<double>(), -9223372036854775809.0);
  EXPECT_EQ(parseJson("-1234567890123456789").extract<Poco::Int64>(), -1234567890123456789LL);
}

TEST(JsonParse, ErrorsSayWhere) {
  try {
    parseJson("{\"a\": tru}");
    FAIL() << "no error";
  } catch (const JsonSyntaxError& e) {
    EXPECT_EQ(e.offset(), 6u);
    EXPECT_NE(std::string(e.what()).find("byte 6"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------- generated documents

// Where Poco 1.11 is wrong and ours is not: integers beyond 64 bits (Poco wraps them
// around) and negative ones beyond 2^53 (Poco goes through a double and rounds them).
bool beyondPocosIntegers(const std::string& text) {
  int run = 0;
  bool negative = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      if (run++ == 0) negative = i > 0 && text[i - 1] == '-';
      if (run >= 20 || (negative && run >= 16)) return true;
    } else {
      run = 0;
    }
  }
  return false;
}

TEST(JsonParse, GeneratedDocumentsAndTheirMutationsMatchPoco) {
  testing_json::Generator gen(20261124);
  std::mt19937 rng(7);
  int refused = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string doc = gen.document();
    expectSameAsPoco(doc);
    const std::string mutated = testing_json::mutate(doc, rng);
    if (beyondPocosIntegers(mutated)) continue;
    expectSameAsPoco(mutated);
    if (!pocoParse(mutated)) ++refused;
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(refused, 1000);  // the mutations did reach the error paths
}

}  // namespace
}  // namespace aev

// common/json_condense.h: byte for byte Poco::JSON::Stringifier::condense for what
// Poco's parser produces (the publish paths store payloads with it).
#include "common/json_condense.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

namespace aev {
namespace {

std::string byPoco(const Poco::Dynamic::Var& v) {
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(v, out);
  return out.str();
}

void expectSameAsPoco(const std::string& text) {
  Poco::Dynamic::Var parsed;
  try {
    parsed = Poco::JSON::Parser().parse(text);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "Poco does not parse " << text << ": " << e.what();
    return;
  }
  EXPECT_EQ(condensedJson(parsed), byPoco(parsed)) << "input: " << text;
  EXPECT_EQ(condensedJsonAnyOrder(parsed), byPoco(parsed)) << "input: " << text;
}

TEST(JsonCondense, MatchesPocoOnEveryKindOfValue) {
  for (const char* text : {
           R"({})",
           R"([])",
           R"({"b":1,"a":2,"c":{"z":[],"y":{}}})",
           R"({"role":"assistant","content":"The quick brown fox.","tokens":42,"bench_ts":0})",
           R"({"n":[0,-1,2147483647,-2147483648,2147483648,9223372036854775807,-9223372036854775808]})",
           R"({"u":18446744073709551615,"u2":9223372036854775808})",
           R"({"d":[1.5,-0.0,0.1,1e300,1E-7,2.5e-308,3.0,100.25,6.02214076e23]})",
           R"({"t":true,"f":false,"nil":null,"list":[true,null,false,"x",1,1.5]})",
           R"({"esc":"line\nbreak\ttab \"quoted\" back\\slash","ctl":"\u0001\u001f\u007f"})",
           R"({"url":"https://example.com/a/b?c=d&e=f","slash":"\/"})",
           R"({"utf8":"caf\u00e9 日本語 😀","raw":"é"})",
           R"({"key with \"quotes\"":1,"k/ey":2,"ключ":3,"":4})",
           R"({"nested":{"a":{"b":{"c":{"d":[[[[{"e":"deep"}]]]]}}}}})",
           R"({"dup":1,"dup":2})",
           R"({"s":"","sp":"  spaced  ","html":"<b>&amp;</b>"})",
       })
    expectSameAsPoco(text);
}

TEST(JsonCondense, MatchesPocoOnGeneratedDocuments) {
  std::mt19937 rng(7);
  const std::vector<std::string> strings = {"plain", "with space", "tab\t", "quote\"", "a/b", "é", "", "\\", "x\u0002"};
  std::function<std::string(int)> value = [&](int depth) -> std::string {
    switch (rng() % (depth > 3 ? 5 : 7)) {
      case 0:
        return std::to_string(static_cast<std::int64_t>(rng()) - 2147483648LL);
      case 1:
        return std::to_string(rng() % 1000) + "." + std::to_string(rng() % 1000);
      case 2: {
        std::string s;
        for (const char ch : strings[rng() % strings.size()]) {
          if (ch == '"' || ch == '\\') s += '\\';
          if (static_cast<unsigned char>(ch) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", ch);
            s += buf;
            continue;
          }
          s += ch;
        }
        return "\"" + s + "\"";
      }
      case 3:
        return rng() % 2 ? "true" : "false";
      case 4:
        return "null";
      case 5: {
        std::string out = "[";
        for (unsigned i = 0, n = rng() % 4; i < n; ++i) out += (i ? "," : "") + value(depth + 1);
        return out + "]";
      }
      default: {
        std::string out = "{";
        for (unsigned i = 0, n = rng() % 5; i < n; ++i)
          out += (i ? ",\"" : "\"") + std::string(1, static_cast<char>('a' + rng() % 26)) + std::to_string(i) +
                 "\":" + value(depth + 1);
        return out + "}";
      }
    }
  };
  for (int i = 0; i < 500; ++i) expectSameAsPoco("{\"doc\":" + value(0) + "}");
}

// The OTLP mapping builds its payloads with JSON_PRESERVE_KEY_ORDER: written in insertion
// order, nested sorted objects in key order, as Poco writes them.
TEST(JsonCondense, AnyOrderKeepsTheInsertionOrderOfObjectsThatKeepIt) {
  using Poco::JSON::Object;
  Object::Ptr ordered = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
  ordered->set("name", std::string("chat"));
  ordered->set("kind", std::string("client"));
  ordered->set("a/b", std::string("x\"y\ttab é"));
  Object::Ptr sorted = new Object;
  sorted->set("z", 1);
  sorted->set("b", true);
  sorted->set("m", Poco::Dynamic::Var());
  ordered->set("attributes", sorted);
  Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
  Object::Ptr inner = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
  inner->set("role", std::string("user"));
  inner->set("content", std::string("hi"));
  list->add(inner);
  list->add(static_cast<Poco::Int64>(-3));
  ordered->set("messages", list);
  ordered->set("links", static_cast<Poco::UInt64>(0));
  ordered->set("duration_ms", 250.5);
  ordered->set("dropped", static_cast<Poco::UInt32>(7));
  ordered->set("doubles", Poco::JSON::Array::Ptr(new Poco::JSON::Array));
  for (double d : {0.0, -0.0, 1e-7, 123456789.125, 6.02214076e23, 1.0 / 3, 2.5e-308, 1e300})
    ordered->getArray("doubles")->add(d);
  ordered->set("name", std::string("renamed"));  // a second set keeps the first position
  const Poco::Dynamic::Var value(ordered);
  EXPECT_EQ(condensedJsonAnyOrder(value), byPoco(value));
  EXPECT_EQ(condensedJsonAnyOrder(value).rfind(R"({"name":"renamed","kind":"client",)", 0), 0u)
      << condensedJsonAnyOrder(value);
}

// appendJsonDouble takes a shortcut for the doubles of every day (durations, scores, prices):
// Var's text of each, on seeded random values of every magnitude and on the edges.
TEST(JsonCondense, DoublesAreWrittenAsVarWritesThem) {
  std::vector<double> values = {0.0,
                                -0.0,
                                1e-5,
                                -1e-5,
                                9.999999999999999e-6,
                                1e15,
                                999999999999999.9,
                                1e15 - 1,
                                0.1,
                                0.2,
                                0.3,
                                1.0 / 3,
                                2.0 / 3,
                                250.0,
                                122.276829,
                                0.5,
                                1e14,
                                123456789012345.6,
                                4.35,
                                1.005,
                                5e-324,
                                1.7976931348623157e308,
                                -122.5,
                                1e-6,
                                1e16,
                                12345.678901234567};
  std::mt19937_64 rng(20261128);
  std::uniform_real_distribution<double> exponent(-8, 17), mantissa(1, 10);
  std::uniform_int_distribution<std::uint64_t> bits;
  for (int i = 0; i < 300000; ++i) {
    values.push_back(mantissa(rng) * std::pow(10.0, std::floor(exponent(rng))));
    values.push_back(std::round(mantissa(rng) * 1e6) / 1e3);  // milliseconds with microseconds
    double raw;
    const std::uint64_t b = bits(rng);
    std::memcpy(&raw, &b, sizeof raw);
    if (std::isfinite(raw)) values.push_back(raw);
  }
  for (const double d : values) {
    std::string out;
    appendJsonDouble(out, d);
    ASSERT_EQ(out, Poco::Dynamic::Var(d).convert<std::string>()) << d;
  }
}

}  // namespace
}  // namespace aev

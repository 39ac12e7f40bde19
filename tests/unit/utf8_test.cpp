// common/utf8.h and the JSON writers built on it (common/json_text.h, json_condense.h,
// http::stringify, the problem renderer): whatever bytes a client sent, every JSON text
// the daemon writes is well-formed UTF-8, each ill-formed subpart replaced by U+FFFD.
#include <Poco/JSON/Object.h>
#include <gtest/gtest.h>

#include <string>

#include "common/errors.h"
#include "common/json_condense.h"
#include "common/json_parse.h"
#include "common/json_text.h"
#include "common/utf8.h"
#include "http/problem.h"
#include "http/request.h"

namespace aev {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

std::string repaired(std::string_view s) {
  std::string out;
  appendValidUtf8(out, s);
  return out;
}

struct Utf8Case {
  std::string input;
  bool valid;
  std::string repaired;  // what appendValidUtf8 makes of it
};

// Ill-formed inputs and their repair by "substitution of maximal subparts" (Unicode
// 15 §3.9, table 3-8: the practice WHATWG's decoder follows).
const std::vector<Utf8Case>& cases() {
  static const std::vector<Utf8Case> table = {
      {"", true, ""},
      {"plain ascii", true, "plain ascii"},
      {"caf\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80", true, "caf\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80"},
      {"\xEF\xBF\xBD", true, "\xEF\xBF\xBD"},
      {"\xF4\x8F\xBF\xBF", true, "\xF4\x8F\xBF\xBF"},          // U+10FFFF
      {std::string("a\0b", 3), true, std::string("a\0b", 3)},  // NUL is UTF-8 (the store rule is elsewhere)
      {"\xFF", false, kFffd},
      {"limit=\xFF", false, "limit=" + kFffd},
      {"\x80", false, kFffd},              // lone continuation byte
      {"\x80\x80", false, kFffd + kFffd},  // each its own subpart
      {"\xC3", false, kFffd},              // truncated at the end
      {"\xC3x", false, kFffd + "x"},       // truncated before ASCII
      {"\xE2\x82", false, kFffd},          // one maximal subpart of two bytes
      {"\xE2\x82\xE2\x82\xAC", false, kFffd + "\xE2\x82\xAC"},
      {"\xF0\x9F\x98", false, kFffd},                              // three of four bytes
      {"\xC0\xAF", false, kFffd + kFffd},                          // overlong '/': C0 never starts a sequence
      {"\xE0\x80\xAF", false, kFffd + kFffd + kFffd},              // overlong: E0 needs A0..BF next
      {"\xED\xA0\x80", false, kFffd + kFffd + kFffd},              // a surrogate (U+D800)
      {"\xF4\x90\x80\x80", false, kFffd + kFffd + kFffd + kFffd},  // above U+10FFFF
      {"\xF5\x80", false, kFffd + kFffd},
      {"ok\xC3\xA9\xFFok", false, "ok\xC3\xA9" + kFffd + "ok"},
  };
  return table;
}

TEST(Utf8, ValidityAndRepairByMaximalSubparts) {
  for (const auto& c : cases()) {
    EXPECT_EQ(isValidUtf8(c.input), c.valid) << testing::PrintToString(c.input);
    EXPECT_EQ(repaired(c.input), c.repaired) << testing::PrintToString(c.input);
    EXPECT_TRUE(isValidUtf8(repaired(c.input))) << testing::PrintToString(c.input);
    EXPECT_EQ(validUtf8(c.input), c.repaired);
  }
}

TEST(Utf8, EveryByteAfterEveryPrefixRepairsToValidText) {
  // Exhaustive over two-byte inputs, plus a valid prefix and suffix around them.
  for (int a = 0; a < 256; ++a)
    for (int b = 0; b < 256; ++b) {
      const std::string s = std::string("x") + static_cast<char>(a) + static_cast<char>(b) + "\xC3\xA9";
      const auto out = repaired(s);
      ASSERT_TRUE(isValidUtf8(out)) << a << " " << b;
      ASSERT_EQ(out.substr(out.size() - 2), "\xC3\xA9") << "a stray byte must not swallow what follows";
    }
}

std::string asJsonString(std::string_view s) {
  std::string out;
  appendJsonString(out, s);
  return out;
}

TEST(Utf8JsonWriters, AppendJsonStringReplacesIllFormedBytes) {
  for (const auto& c : cases()) {
    const auto json = asJsonString(c.input);
    ASSERT_TRUE(isValidUtf8(json)) << testing::PrintToString(c.input);
    // A strict reader takes it back (NUL aside: our readers refuse \u0000 on purpose),
    // and what it reads is the repaired text.
    if (c.input.find('\0') != std::string::npos) continue;
    EXPECT_EQ(parseJson(json).extract<std::string>(), c.repaired) << testing::PrintToString(c.input);
  }
  EXPECT_EQ(asJsonString("\"\xFF\n"), "\"\\\"" + kFffd + "\\n\"");
}

TEST(Utf8JsonWriters, PocoStringifyAndCondensedJsonReplaceIllFormedBytes) {
  for (const auto& c : cases()) {
    if (c.input.find('\0') != std::string::npos) continue;
    Poco::JSON::Object::Ptr obj = new Poco::JSON::Object;
    obj->set("v", c.input);
    obj->set(c.input, 1);  // as a member name too
    for (const auto& json : {http::stringify(obj), condensedJson(obj)}) {
      ASSERT_TRUE(isValidUtf8(json)) << testing::PrintToString(json);
      const auto back = parseJson(json).extract<Poco::JSON::Object::Ptr>();
      EXPECT_EQ(back->getValue<std::string>("v"), c.repaired) << testing::PrintToString(c.input);
      EXPECT_TRUE(back->has(c.repaired)) << testing::PrintToString(c.input);
    }
  }
}

TEST(Utf8JsonWriters, AProblemQuotingAClientsBytesIsValidJson) {
  // The 422 of `GET /event/:channelId/list?limit=%FF` before the query check existed:
  // the renderer must not copy the raw byte whoever builds the problem.
  const auto error = errors::validation({{"query.limit", "must be an integer", "\xFF"}});
  const auto r = http::problemResponse(error, "/event/1/list");
  ASSERT_TRUE(isValidUtf8(r.body)) << testing::PrintToString(r.body);
  const auto body = parseJson(r.body).extract<Poco::JSON::Object::Ptr>();
  EXPECT_EQ(body->getArray("errors")->getObject(0)->getValue<std::string>("value"), kFffd);
}

}  // namespace
}  // namespace aev

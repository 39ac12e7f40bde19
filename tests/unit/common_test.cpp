// common/json_text.h, common/metrics.h, common/exceptions.h, common/text.h.
#include <Poco/Exception.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "common/exceptions.h"
#include "common/json_text.h"
#include "common/metrics.h"
#include "common/text.h"

namespace aev {
namespace {

std::string quoted(std::string_view s) {
  std::string out;
  appendJsonString(out, s);
  return out;
}

TEST(JsonText, EscapesPerRfc8259) {
  EXPECT_EQ(quoted(""), "\"\"");
  EXPECT_EQ(quoted("plain"), "\"plain\"");
  EXPECT_EQ(quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(quoted("\n\r\t\b\f"), "\"\\n\\r\\t\\b\\f\"");
  EXPECT_EQ(quoted(std::string_view("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(quoted(std::string_view("\0", 1)), "\"\\u0000\"");
  EXPECT_EQ(quoted("h\xC3\xA9llo \xF0\x9F\x98\x80"), "\"h\xC3\xA9llo \xF0\x9F\x98\x80\"");  // UTF-8 passes through
  EXPECT_EQ(quoted("</script>"), "\"</script>\"");
}

TEST(JsonText, RoundTripsThroughAJsonParser) {
  std::string nasty;
  for (int c = 1; c < 128; ++c) nasty += static_cast<char>(c);
  nasty += "\xC3\xA9";
  std::string doc = "{\"v\":";
  appendJsonString(doc, nasty);
  doc += "}";
  Poco::JSON::Parser parser;
  auto o = parser.parse(doc).extract<Poco::JSON::Object::Ptr>();
  EXPECT_EQ(o->getValue<std::string>("v"), nasty);
}

TEST(JsonText, Appends) {
  std::string out = "[";
  appendJsonString(out, "a");
  out += ",";
  appendJsonString(out, "b");
  out += "]";
  EXPECT_EQ(out, "[\"a\",\"b\"]");
}

TEST(Metrics, CountersRenderAsPrometheusText) {
  auto& m = Metrics::instance();
  m.counter("aev_unit_test_total", "A counter for the unit test.");
  m.add("aev_unit_test_total");
  m.add("aev_unit_test_total", 4);
  m.add("aev_unit_test_labeled_total{kind=\"x\"}", 2);
  const auto text = m.renderPrometheus();
  EXPECT_NE(text.find("aev_unit_test_total 5"), std::string::npos) << text;
  EXPECT_NE(text.find("# HELP aev_unit_test_total A counter for the unit test."), std::string::npos) << text;
  EXPECT_NE(text.find("aev_unit_test_labeled_total{kind=\"x\"} 2"), std::string::npos) << text;
}

TEST(Metrics, EveryFamilyHasHelpAndTypeAndItsSamplesTogether) {
  auto& m = Metrics::instance();
  m.add("aev_unit_nohelp_total");
  m.add("aev_unit_family_total{k=\"b\"}");
  m.add("aev_unit_family_total");
  m.add("aev_unit_family_total_other_total");
  const auto text = m.renderPrometheus();
  std::istringstream lines(text);
  std::string line, family;
  std::set<std::string> seen;
  bool help = false, type = false;
  while (std::getline(lines, line)) {
    if (line.rfind("# HELP ", 0) == 0) {
      family = line.substr(7, line.find(' ', 7) - 7);
      EXPECT_TRUE(seen.insert(family).second) << "family twice: " << family;
      help = true;
      type = false;
      continue;
    }
    if (line.rfind("# TYPE ", 0) == 0) {
      EXPECT_EQ(line.substr(7, family.size() + 1), family + " ") << line;
      type = true;
      continue;
    }
    // A sample belongs to the family described just above it.
    EXPECT_TRUE(help && type) << line;
    EXPECT_EQ(line.substr(0, family.size()), family) << line;
    const char next = line[family.size()];
    EXPECT_TRUE(next == ' ' || next == '{') << line;
  }
  EXPECT_TRUE(seen.count("aev_unit_nohelp_total"));
}

TEST(Metrics, DocumentedFamiliesStartAtZeroAndDurationsAreSeconds) {
  auto& m = Metrics::instance();
  const auto text = m.renderPrometheus();
  for (const auto& doc : documentedMetrics())
    for (const auto& labels : doc.labelSets)
      EXPECT_NE(text.find("\n" + doc.family + labels + " "), std::string::npos) << doc.family << labels;
  EXPECT_NE(text.find("agent_events_http_requests_total{status=\"5xx\"} "), std::string::npos);
  EXPECT_NE(text.find("# TYPE agent_events_commit_failures_total counter"), std::string::npos);
  EXPECT_EQ(text.find("microseconds"), std::string::npos);
  // Counted in microseconds, shown in seconds.
  m.add("agent_events_commit_seconds_total", 1500000);
  EXPECT_NE(m.renderPrometheus().find("\nagent_events_commit_seconds_total 1.5\n"), std::string::npos);
  m.add("agent_events_commit_seconds_total", -1500000);
}

TEST(Metrics, ConcurrentIncrementsAreNotLost) {
  auto& m = Metrics::instance();
  auto& c = m.counter("aev_unit_concurrent_total");
  const auto before = c.load();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) m.add("aev_unit_concurrent_total");
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(c.load() - before, 40000);
}

TEST(Exceptions, DescribeUsesPocoDisplayText) {
  EXPECT_EQ(describeException(std::runtime_error("plain")), "plain");
  Poco::IOException poco("disk on fire");
  EXPECT_NE(describeException(poco).find("disk on fire"), std::string::npos) << describeException(poco);
}

TEST(Text, Utf8Length) {
  EXPECT_EQ(utf8Length(""), 0u);
  EXPECT_EQ(utf8Length("abc"), 3u);
  EXPECT_EQ(utf8Length("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"), 3u);
}

TEST(Text, ParseInt64TakesTheWholeTextOrNothing) {
  EXPECT_EQ(parseInt64("42"), 42);
  EXPECT_EQ(parseInt64("-7"), -7);
  EXPECT_EQ(parseInt64("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(parseInt64("-9223372036854775808"), INT64_MIN);
  for (const char* bad : {"", "+1", " 1", "1 ", "1x", "0x10", "1.0", "9223372036854775808", "-"})
    EXPECT_EQ(parseInt64(bad), std::nullopt) << '"' << bad << '"';
}

}  // namespace
}  // namespace aev

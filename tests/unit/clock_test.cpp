// common/clock.h: RFC 3339 with microseconds, UTC.
#include "common/clock.h"

#include <gtest/gtest.h>

#include <regex>

namespace aev::clock {
namespace {

TEST(Clock, FormatsEpochWithMicroseconds) {
  EXPECT_EQ(toRfc3339(0), "1970-01-01T00:00:00.000000Z");
  EXPECT_EQ(toRfc3339(1), "1970-01-01T00:00:00.000001Z");
  EXPECT_EQ(toRfc3339(kDay + kHour + kMinute + kSecond + 123456), "1970-01-02T01:01:01.123456Z");
}

TEST(Clock, FormatsBeforeEpoch) { EXPECT_EQ(toRfc3339(-1), "1969-12-31T23:59:59.999999Z"); }

TEST(Clock, FormatsYearsOutsideFourDigits) {
  EXPECT_EQ(toRfc3339(253402300799LL * kSecond + 999999), "9999-12-31T23:59:59.999999Z");
  EXPECT_EQ(toRfc3339(253402300800LL * kSecond), "10000-01-01T00:00:00.000000Z");
}

TEST(Clock, KnownInstant) {
  // 2024-05-06T07:08:09.123456Z
  const Micros t = 1714979289LL * kSecond + 123456;
  EXPECT_EQ(toRfc3339(t), "2024-05-06T07:08:09.123456Z");
  EXPECT_EQ(parseRfc3339("2024-05-06T07:08:09.123456Z"), t);
}

TEST(Clock, RoundTripKeepsMicroseconds) {
  for (Micros t : {Micros{0}, Micros{1}, Micros{999999}, Micros{1714979289123456}, Micros{4102444799999999},
                   nowMicros()}) {
    auto text = toRfc3339(t);
    auto back = parseRfc3339(text);
    ASSERT_TRUE(back.has_value()) << text;
    EXPECT_EQ(*back, t) << text;
  }
}

TEST(Clock, ParsesOffsetsIntoUtc) {
  const auto utc = parseRfc3339("2024-05-06T07:08:09.123456Z");
  ASSERT_TRUE(utc);
  EXPECT_EQ(parseRfc3339("2024-05-06T09:08:09.123456+02:00"), utc);
  EXPECT_EQ(parseRfc3339("2024-05-06T02:38:09.123456-04:30"), utc);
  EXPECT_EQ(parseRfc3339("2024-05-06T07:08:09.123456+00:00"), utc);
}

TEST(Clock, ParsesWithoutFractionAndWithMilliseconds) {
  const Micros whole = 1714979289LL * kSecond;
  EXPECT_EQ(parseRfc3339("2024-05-06T07:08:09Z"), whole);
  EXPECT_EQ(parseRfc3339("2024-05-06T07:08:09.5Z"), whole + 500000);
  EXPECT_EQ(parseRfc3339("2024-05-06T07:08:09.123Z"), whole + 123000);
}

TEST(Clock, RejectsGarbage) {
  for (const char* bad : {"", "now", "2024", "yesterday at noon", "not-a-date-at-all",
                          "2024-05-06T07:08:09.123456Z-and-a-lot-more-trailing-garbage"}) {
    EXPECT_EQ(parseRfc3339(bad), std::nullopt) << bad;
  }
}

TEST(Clock, NowIsRecentAndFormatsAsUtc) {
  const Micros t = nowMicros();
  EXPECT_GT(t, 1700000000LL * kSecond);  // after 2023-11
  std::regex shape(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)");
  EXPECT_TRUE(std::regex_match(toRfc3339(t), shape)) << toRfc3339(t);
}

TEST(Clock, UnitConstants) {
  EXPECT_EQ(kSecond, 1000000);
  EXPECT_EQ(kMinute, 60 * kSecond);
  EXPECT_EQ(kHour, 3600 * kSecond);
  EXPECT_EQ(kDay, 86400 * kSecond);
}

}  // namespace
}  // namespace aev::clock

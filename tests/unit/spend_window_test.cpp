// spend/window.h: calendar windows in UTC (hour, day, week from Monday, month) and the
// rolling last 24 hours (whole minutes), their buckets and crossing keys.
#include <gtest/gtest.h>

#include "common/clock.h"
#include "spend/window.h"

namespace aev::spend {
namespace {

Micros at(const std::string& text) {
  auto t = clock::parseRfc3339(text);
  if (!t) throw std::runtime_error("bad time " + text);
  return *t;
}

TEST(SpendWindow, NamesRoundTrip) {
  for (const auto& name : windowTypeNames()) EXPECT_TRUE(windowTypeOf(name)) << name;
  EXPECT_FALSE(windowTypeOf("year"));
  EXPECT_FALSE(windowTypeOf("Hour"));
  EXPECT_FALSE(windowTypeOf(""));
}

TEST(SpendWindow, HourAndDayAreCalendarUtc) {
  auto h = windowAt(WindowType::Hour, at("2026-03-04T05:59:59.999999Z"));
  EXPECT_EQ(h.start, at("2026-03-04T05:00:00Z"));
  EXPECT_EQ(*h.end, at("2026-03-04T06:00:00Z"));
  EXPECT_EQ(windowAt(WindowType::Hour, at("2026-03-04T06:00:00Z")).start, at("2026-03-04T06:00:00Z"));
  auto d = windowAt(WindowType::Day, at("2026-12-31T23:59:59Z"));
  EXPECT_EQ(d.start, at("2026-12-31T00:00:00Z"));
  EXPECT_EQ(*d.end, at("2027-01-01T00:00:00Z"));
}

TEST(SpendWindow, WeekStartsOnMonday) {
  // 2026-11-23 is a Monday, 2026-11-29 a Sunday.
  for (const char* t : {"2026-11-23T00:00:00Z", "2026-11-25T12:00:00Z", "2026-11-29T23:59:59Z"}) {
    auto w = windowAt(WindowType::Week, at(t));
    EXPECT_EQ(w.start, at("2026-11-23T00:00:00Z")) << t;
    EXPECT_EQ(*w.end, at("2026-11-30T00:00:00Z")) << t;
  }
  EXPECT_EQ(windowAt(WindowType::Week, at("2026-11-30T00:00:00Z")).start, at("2026-11-30T00:00:00Z"));
  // Across a year end: Monday 2026-12-28 to Monday 2027-01-04.
  EXPECT_EQ(windowAt(WindowType::Week, at("2027-01-02T10:00:00Z")).start, at("2026-12-28T00:00:00Z"));
}

TEST(SpendWindow, MonthHasItsOwnLength) {
  auto feb = windowAt(WindowType::Month, at("2028-02-29T23:00:00Z"));  // a leap year
  EXPECT_EQ(feb.start, at("2028-02-01T00:00:00Z"));
  EXPECT_EQ(*feb.end, at("2028-03-01T00:00:00Z"));
  auto dec = windowAt(WindowType::Month, at("2026-12-15T00:00:00Z"));
  EXPECT_EQ(dec.start, at("2026-12-01T00:00:00Z"));
  EXPECT_EQ(*dec.end, at("2027-01-01T00:00:00Z"));
  EXPECT_EQ(windowAt(WindowType::Month, at("2027-01-01T00:00:00Z")).start, at("2027-01-01T00:00:00Z"));
}

TEST(SpendWindow, RollingCountsTheLast1440Minutes) {
  const auto now = at("2026-05-05T10:30:20Z");
  auto w = windowAt(WindowType::Rolling24h, now);
  EXPECT_EQ(w.start, at("2026-05-04T10:31:00Z"));
  EXPECT_FALSE(w.end);
  EXPECT_EQ(bucketOf(WindowType::Rolling24h, now), at("2026-05-05T10:30:00Z"));
  // A bucket stops counting 24 hours after its minute began.
  EXPECT_EQ(bucketExpiry(WindowType::Rolling24h, at("2026-05-05T10:30:00Z")), at("2026-05-06T10:30:00Z"));
  EXPECT_LT(windowAt(WindowType::Rolling24h, at("2026-05-06T10:29:59Z")).start, at("2026-05-05T10:30:00Z") + 1);
  EXPECT_GT(windowAt(WindowType::Rolling24h, at("2026-05-06T10:30:00Z")).start, at("2026-05-05T10:30:00Z"));
}

TEST(SpendWindow, BucketsAndCrossingKeys) {
  const auto t = at("2026-05-05T10:30:20Z");
  EXPECT_EQ(bucketOf(WindowType::Day, t), at("2026-05-05T00:00:00Z"));
  EXPECT_EQ(crossingWindowOf(WindowType::Hour, t), at("2026-05-05T10:00:00Z"));
  EXPECT_EQ(crossingWindowOf(WindowType::Rolling24h, t), at("2026-05-05T00:00:00Z"));  // the UTC day
  EXPECT_EQ(bucketExpiry(WindowType::Month, at("2026-05-01T00:00:00Z")), at("2026-06-01T00:00:00Z"));
}

}  // namespace
}  // namespace aev::spend

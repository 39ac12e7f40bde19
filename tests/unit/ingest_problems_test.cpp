// ingest/refusal.h and ingest/log_throttle.h: the reasons a refused export is counted
// under, and the once-a-minute warning per key and reason.
#include <gtest/gtest.h>

#include <set>

#include "ingest/log_throttle.h"
#include "ingest/refusal.h"

namespace aev::ingest {
namespace {

constexpr std::int64_t kMinute = 60'000'000;

TEST(IngestRefusal, EveryReasonHasItsOwnCodeAndAPhrase) {
  std::set<std::string> codes;
  for (auto r : allRefusals()) {
    EXPECT_TRUE(codes.insert(std::string(codeOf(r))).second) << codeOf(r);
    EXPECT_FALSE(phraseOf(r).empty());
    EXPECT_NE(codeOf(r), "unknown");
  }
  EXPECT_EQ(codes.size(), 10u);
  EXPECT_EQ(codeOf(Refusal::NoChannel), "no_channel");
  EXPECT_EQ(phraseOf(Refusal::NoChannel), "no channel");
}

TEST(LogThrottle, OncePerKeyPerInterval) {
  LogThrottle throttle(kMinute, 100);
  EXPECT_TRUE(throttle.admit("key 1|no_channel", 0));
  EXPECT_FALSE(throttle.admit("key 1|no_channel", kMinute - 1));
  EXPECT_TRUE(throttle.admit("key 1|malformed", 10));   // another reason
  EXPECT_TRUE(throttle.admit("key 2|no_channel", 10));  // another key
  EXPECT_TRUE(throttle.admit("key 1|no_channel", kMinute));
  EXPECT_FALSE(throttle.admit("key 1|no_channel", kMinute + 5));
}

TEST(LogThrottle, StaysBounded) {
  LogThrottle throttle(kMinute, 3);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(throttle.admit("address " + std::to_string(i), 0));
  // Full of live keys: a new one is still admitted (the old ones are forgotten)...
  EXPECT_TRUE(throttle.admit("address 3", 1));
  // ...and then throttled like any other.
  EXPECT_FALSE(throttle.admit("address 3", 2));
  // Expired keys are swept first, live ones kept.
  LogThrottle sweeping(kMinute, 2);
  EXPECT_TRUE(sweeping.admit("old", 0));
  EXPECT_TRUE(sweeping.admit("live", kMinute));
  EXPECT_TRUE(sweeping.admit("new", kMinute + 1));    // sweeps "old"
  EXPECT_FALSE(sweeping.admit("live", kMinute + 2));  // "live" was kept
}

}  // namespace
}  // namespace aev::ingest

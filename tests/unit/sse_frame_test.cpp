// What a subscriber sends back (Last-Event-ID) and the frame an event is written as.
// tests/fuzz/sse_fuzzer.cpp checks the same properties on arbitrary input.
#include <gtest/gtest.h>

#include "stream/hub.h"
#include "stream/sse_frame.h"

namespace aev::stream {
namespace {

TEST(LastEventId, EmptyIsAFreshSubscription) { EXPECT_FALSE(parseLastEventId("").has_value()); }

TEST(LastEventId, DecimalIdsAreRead) {
  EXPECT_EQ(parseLastEventId("0"), 0);
  EXPECT_EQ(parseLastEventId("42"), 42);
  EXPECT_EQ(parseLastEventId("0042"), 42);
  EXPECT_EQ(parseLastEventId("999999999999999999"), 999999999999999999LL);  // 18 digits
}

TEST(LastEventId, AnythingElseAsksForAReset) {
  // std::stoll used to take a sign and leading blanks ("+7", " 7" resumed after 7).
  for (const char* text :
       {"+7", "-7", " 7", "7 ", "7a", "0x10", "1e3", "\t1", "１", "1000000000000000000", "99999999999999999999999"})
    EXPECT_EQ(parseLastEventId(text), -1) << text;
}

TEST(SseFrame, OneDataLineWhateverThePublisherSent) {
  store::StoredEvent e;
  e.id = 7;
  e.identifier = "line\r\nid: 999\n\ndata: forged";
  e.payloadJson = R"({"text":"a\nb"})";
  const auto frame = Hub::frameOf(e);
  ASSERT_EQ(frame.rfind("id: 7\ndata: {", 0), 0u) << frame;
  ASSERT_EQ(frame.substr(frame.size() - 2), "\n\n");
  const auto data = frame.substr(12, frame.size() - 14);
  EXPECT_EQ(data.find_first_of("\r\n"), std::string::npos) << frame;
  EXPECT_NE(data.find(R"("identifier":"line\r\nid: 999\n\ndata: forged")"), std::string::npos) << frame;
}

}  // namespace
}  // namespace aev::stream

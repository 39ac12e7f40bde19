// The pieces of the cross-node fan-out that need no PostgreSQL: the contiguity gate in
// front of the hub and the doorbell's payload.
#include <gtest/gtest.h>

#include "cluster/contiguity_gate.h"
#include "cluster/doorbell.h"

namespace aev::cluster {
namespace {

store::StoredEvent event(std::int64_t channel, std::int64_t seq) {
  store::StoredEvent e;
  e.channelId = channel;
  e.seq = seq;
  e.id = channel * 1000 + seq;
  return e;
}

struct Released {
  std::vector<std::pair<std::int64_t, std::int64_t>> events;  // (channel, seq) in release order
  ContiguityGate::Sink sink() {
    return [this](const std::vector<store::StoredEvent>& batch) {
      for (const auto& e : batch) events.emplace_back(e.channelId, e.seq);
    };
  }
};

TEST(ContiguityGate, ReleasesOnlyWhatContinuesEachHeldChannel) {
  Released hub;
  ContiguityGate gate(hub.sink(), [](std::int64_t) { return std::int64_t{4}; });
  gate.holding(7);
  // A local seq 6 before the remote seq 5: held back, and the channel is behind.
  EXPECT_TRUE(gate.offer({event(7, 6)}));
  EXPECT_TRUE(hub.events.empty());
  ASSERT_EQ(gate.behind().size(), 1u);
  EXPECT_EQ(gate.behind().front().afterSeq, 4);
  EXPECT_EQ(gate.behind().front().uptoSeq, 6);
  // The store read brings 5 and 6 (6 again): both released, in order, once.
  EXPECT_FALSE(gate.offer({event(7, 5), event(7, 6)}));
  EXPECT_EQ(hub.events, (std::vector<std::pair<std::int64_t, std::int64_t>>{{7, 5}, {7, 6}}));
  EXPECT_TRUE(gate.behind().empty());
  // Seen again later (a doorbell's read racing the local commit): dropped.
  EXPECT_FALSE(gate.offer({event(7, 6)}));
  EXPECT_EQ(hub.events.size(), 2u);
}

TEST(ContiguityGate, UnheldChannelsPassThroughToTheHubUntouched) {
  Released hub;
  ContiguityGate gate(hub.sink(), [](std::int64_t) { return std::int64_t{0}; });
  gate.holding(1);
  // Channel 2 is not held here: the gate neither tracks nor blocks it.
  EXPECT_FALSE(gate.offer({event(2, 40), event(1, 1), event(2, 41)}));
  EXPECT_EQ(hub.events.size(), 3u);
  EXPECT_EQ(gate.delivered(2), -1);
  EXPECT_EQ(gate.delivered(1), 1);
}

TEST(ContiguityGate, AGapInOneChannelDoesNotHoldUpAnother) {
  Released hub;
  ContiguityGate gate(hub.sink(), [](std::int64_t) { return std::int64_t{0}; });
  gate.holding(1);
  gate.holding(2);
  EXPECT_TRUE(gate.offer({event(1, 1), event(2, 2), event(1, 2), event(2, 3)}));
  EXPECT_EQ(hub.events, (std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 1}, {1, 2}}));
  EXPECT_EQ(gate.delivered(2), 0);
}

TEST(ContiguityGate, TheCursorStartsAtTheStorePositionAndEndsWithTheLastHolder) {
  Released hub;
  std::int64_t position = 10;
  int reads = 0;
  ContiguityGate gate(hub.sink(), [&](std::int64_t) {
    ++reads;
    return position;
  });
  gate.holding(3);
  gate.holding(3);  // a second subscription: no second read
  EXPECT_EQ(reads, 1);
  EXPECT_EQ(gate.delivered(3), 10);
  EXPECT_FALSE(gate.announce(3, 10));
  EXPECT_TRUE(gate.announce(3, 12));  // a doorbell: the store is ahead
  gate.released(3);
  EXPECT_EQ(gate.delivered(3), 10);
  gate.released(3);
  EXPECT_EQ(gate.delivered(3), -1);
  position = 20;
  gate.holding(3);
  EXPECT_EQ(gate.delivered(3), 20);
  // Events gone from the store (retention): the cursor moves past them.
  gate.announce(3, 25);
  gate.skipTo(3, 25);
  EXPECT_TRUE(gate.behind().empty());
}

TEST(Doorbell, PayloadRoundTripsAndFallsBackToEverythingWhenLong) {
  std::map<std::int64_t, std::int64_t> channels{{7, 12}, {9, 1}};
  const auto payload = encodeDoorbell("abc123", channels);
  EXPECT_EQ(payload, "abc123 7:12 9:1");
  auto bell = decodeDoorbell(payload);
  ASSERT_TRUE(bell);
  EXPECT_EQ(bell->node, "abc123");
  EXPECT_FALSE(bell->everything);
  EXPECT_EQ(bell->channels, channels);

  std::map<std::int64_t, std::int64_t> many;
  for (std::int64_t c = 1; c <= 2000; ++c) many[1000000 + c] = 123456;
  const auto big = encodeDoorbell("abc123", many);
  EXPECT_EQ(big, "abc123 *");
  EXPECT_LT(big.size(), 8000u);
  auto everything = decodeDoorbell(big);
  ASSERT_TRUE(everything);
  EXPECT_TRUE(everything->everything);

  EXPECT_FALSE(decodeDoorbell(""));
  EXPECT_FALSE(decodeDoorbell("node 7:x"));
  EXPECT_FALSE(decodeDoorbell("node 7"));
  EXPECT_FALSE(decodeDoorbell("node -1:3"));
}

}  // namespace
}  // namespace aev::cluster

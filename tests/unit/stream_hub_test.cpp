// stream/hub.h in-process, over real loopback TCP sockets: the fan-out round picks up
// events committed while it runs, and every subscriber still gets every event once and
// in order; closing streams while their frames are queued is safe.
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "common/errors.h"
#include "stream/hub.h"

namespace aev::stream {
namespace {

constexpr std::int64_t kChannel = 7;

store::StoredEvent eventOf(std::int64_t seq, std::int64_t channelId = kChannel) {
  store::StoredEvent e;
  e.orgId = 1;
  e.appId = 1;
  e.channelId = channelId;
  e.identifier = "ev-" + std::to_string(seq);
  e.payloadJson =
      R"({"n":)" + std::to_string(seq) + R"(,"text":"some payload to make frames a few hundred bytes long"})";
  e.agentId = seq % 2 ? "odd" : "even";
  e.eventType = "agent.message";
  e.receivedAt = 1700000000000000 + seq;
  e.id = 1000 + seq;
  e.seq = seq;
  return e;
}

// One subscriber's client end, and what it has read.
struct Client {
  Poco::Net::StreamSocket socket;
  std::string buffer;
  std::vector<std::int64_t> ids;  // from the "id:" lines, in arrival order
  bool closed = false;
};

class HubOverTcp : public ::testing::Test {
 protected:
  void SetUp() override {
    listener_.bind(Poco::Net::SocketAddress("127.0.0.1", 0), true);
    listener_.listen(4096);
  }

  // Reserves, connects and activates n subscribers of channelId.
  std::vector<Client> subscribe(Hub& hub, int n, store::EventFilter filter = {}, std::int64_t channelId = kChannel) {
    std::vector<Client> clients(static_cast<std::size_t>(n));
    for (auto& c : clients) {
      auto id = hub.reserve(channelId, filter, Hub::Owner{1, 1, 0});
      c.socket.connect(listener_.address());
      hub.activate(id, listener_.acceptConnection(), 0);
    }
    return clients;
  }

  // Reads every client until each has `want` ids or its stream ended, or the deadline.
  static void readUntil(std::vector<Client>& clients, std::size_t want, std::chrono::seconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    std::vector<pollfd> fds;
    while (std::chrono::steady_clock::now() < deadline) {
      fds.clear();
      std::vector<Client*> waiting;
      for (auto& c : clients)
        if (!c.closed && c.ids.size() < want) {
          fds.push_back({c.socket.impl()->sockfd(), POLLIN, 0});
          waiting.push_back(&c);
        }
      if (waiting.empty()) return;
      if (::poll(fds.data(), fds.size(), 100) <= 0) continue;
      for (std::size_t i = 0; i < fds.size(); ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        auto& c = *waiting[i];
        char buf[65536];
        const ssize_t r = ::recv(fds[i].fd, buf, sizeof buf, MSG_DONTWAIT);
        if (r <= 0) {
          c.closed = r == 0 || (errno != EAGAIN && errno != EINTR);
          continue;
        }
        c.buffer.append(buf, static_cast<std::size_t>(r));
        std::size_t pos = 0, end;
        while ((end = c.buffer.find("\n\n", pos)) != std::string::npos) {
          if (c.buffer.compare(pos, 4, "id: ") == 0) c.ids.push_back(std::atoll(c.buffer.c_str() + pos + 4));
          pos = end + 2;
        }
        c.buffer.erase(0, pos);
      }
    }
  }

  static std::vector<std::int64_t> idsOf(std::int64_t fromSeq, std::int64_t toSeq, int step = 1) {
    std::vector<std::int64_t> ids;
    for (auto seq = fromSeq; seq <= toSeq; seq += step) ids.push_back(1000 + seq);
    return ids;
  }

  Poco::Net::ServerSocket listener_;
};

TEST_F(HubOverTcp, EventsCommittedDuringARoundReachEverySubscriberOnceAndInOrder) {
  HubOptions options;
  options.maxBacklogBytes = 16 * 1024 * 1024;  // the reader below is slower than the hub
  Hub hub(options);
  hub.start();
  auto clients = subscribe(hub, 400);
  // One event per publish, as the writer does for single publishes, from another thread
  // and without pauses: most arrive while a round over the 400 subscribers is running.
  constexpr std::int64_t kEvents = 600;
  std::thread writer([&hub] {
    for (std::int64_t seq = 1; seq <= kEvents; ++seq) {
      hub.publish({eventOf(seq)});
      // A round over 400 sockets takes a few ms: spread the publishes over many rounds.
      if (seq % 5 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  readUntil(clients, kEvents, std::chrono::seconds(60));
  writer.join();
  const auto expected = idsOf(1, kEvents);
  for (std::size_t i = 0; i < clients.size(); ++i) {
    ASSERT_FALSE(clients[i].closed) << "subscriber " << i;
    ASSERT_EQ(clients[i].ids, expected) << "subscriber " << i;
  }
  hub.stop();
}

// The hub keeps only events of channels somebody has reserved: what was published before
// a reservation is the replay's to send (the store has it), what is published after it,
// even before the stream is activated, is queued for it. The hub thread starts only after
// the reservation, so everything published before sits in its inbox until then: a hub that
// took every event would fan the early ones out to the reserved stream too.
TEST_F(HubOverTcp, OnlyEventsOfReservedChannelsAreQueued) {
  Hub hub(HubOptions{});
  constexpr std::int64_t kQuiet = 9;
  hub.publish({eventOf(1, kQuiet), eventOf(2, kQuiet)});  // nobody reserved channel 9 yet
  const auto id = hub.reserve(kQuiet, {}, Hub::Owner{1, 1, 0});
  hub.publish({eventOf(3, kQuiet), eventOf(1, kChannel)});  // 9 reserved, not yet activated; 7 not
  hub.start();
  std::vector<Client> clients(1);
  clients[0].socket.connect(listener_.address());
  hub.activate(id, listener_.acceptConnection(), 0);
  hub.publish({eventOf(4, kQuiet)});
  readUntil(clients, 3, std::chrono::seconds(2));  // waits out the time a third would take
  EXPECT_EQ(clients[0].ids, idsOf(3, 4));
}

TEST_F(HubOverTcp, FiltersStillApplyWhenEventsArriveMidRound) {
  Hub hub(HubOptions{16 * 1024 * 1024});
  hub.start();
  store::EventFilter odd;
  odd.agentId = "odd";
  auto all = subscribe(hub, 100);
  auto filtered = subscribe(hub, 100, odd);
  std::thread writer([&hub] {
    for (std::int64_t seq = 1; seq <= 200; ++seq) hub.publish({eventOf(seq)});
  });
  readUntil(all, 200, std::chrono::seconds(30));
  readUntil(filtered, 100, std::chrono::seconds(30));
  writer.join();
  for (const auto& c : all) ASSERT_EQ(c.ids, idsOf(1, 200));
  for (const auto& c : filtered) ASSERT_EQ(c.ids, idsOf(1, 199, 2));
  hub.stop();
}

TEST_F(HubOverTcp, ASubscriberPastItsBacklogCapIsClosedAndTheOthersGetEverything) {
  HubOptions options;
  options.socketSendBuffer = 4 * 1024;
  Hub hub(options);  // the default 256 KiB backlog cap
  hub.start();
  auto readers = subscribe(hub, 50);
  auto stalled = subscribe(hub, 1);  // not read until the end
  // ~1 MB per subscriber: more than the stalled one's kernel buffers and backlog cap hold.
  constexpr std::int64_t kEvents = 3000;
  std::thread writer([&hub] {
    for (std::int64_t seq = 1; seq <= kEvents; ++seq) {
      hub.publish({eventOf(seq)});
      // ~2,000 events/s: the readers stay far below the cap even if descheduled for a while.
      if (seq % 10 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  readUntil(readers, kEvents, std::chrono::seconds(60));
  writer.join();
  for (const auto& c : readers) {
    ASSERT_FALSE(c.closed);
    ASSERT_EQ(c.ids, idsOf(1, kEvents));
  }
  readUntil(stalled, kEvents, std::chrono::seconds(20));  // drains what was sent, then sees the close
  EXPECT_TRUE(stalled[0].closed);
  EXPECT_LT(stalled[0].ids.size(), static_cast<std::size_t>(kEvents));
  // What it did get is a gap-free prefix: it resumes from its last id.
  EXPECT_EQ(stalled[0].ids, idsOf(1, static_cast<std::int64_t>(stalled[0].ids.size())));
  EXPECT_EQ(hub.subscriberCount(), readers.size());
  hub.stop();
}

TEST_F(HubOverTcp, ClosingAChannelWhileItsFramesAreQueuedEndsItsStreamsOnly) {
  Hub hub(HubOptions{16 * 1024 * 1024});
  hub.start();
  auto doomed = subscribe(hub, 300);
  auto other = subscribe(hub, 20, {}, kChannel + 1);
  std::thread writer([&hub] {
    for (std::int64_t seq = 1; seq <= 300; ++seq) {
      hub.publish({eventOf(seq)});
      if (seq == 150) hub.closeChannels({kChannel});  // mid-stream, frames in flight
    }
  });
  writer.join();
  readUntil(doomed, 300, std::chrono::seconds(30));
  for (const auto& c : doomed) {
    EXPECT_TRUE(c.closed);
    EXPECT_LE(c.ids.size(), 150u);                                        // nothing published after the close
    EXPECT_EQ(c.ids, idsOf(1, static_cast<std::int64_t>(c.ids.size())));  // a prefix, no gap
  }
  // The hub keeps serving the other channel.
  for (std::int64_t seq = 1; seq <= 10; ++seq) hub.publish({eventOf(seq, kChannel + 1)});
  readUntil(other, 10, std::chrono::seconds(30));
  for (const auto& c : other) ASSERT_EQ(c.ids, idsOf(1, 10));
  EXPECT_EQ(hub.subscriberCount(), other.size());
  hub.stop();
}

// One organization cannot take the whole hub: past maxSubscribersPerOrg its new streams
// are refused with 429 (Retry-After), other organizations are not, and a closed stream
// gives its organization the slot back. The hub-wide limit is still a 503.
TEST(HubLimits, StreamsPerOrganizationAndInTotal) {
  HubOptions options;
  options.maxSubscribersPerOrg = 2;
  options.maxSubscribers = 4;
  Hub hub(options);
  const Hub::Owner orgA{1, 10, 0}, orgB{2, 20, 0}, orgC{3, 30, 0};
  const auto a1 = hub.reserve(kChannel, {}, orgA);
  hub.reserve(kChannel, {}, orgA);
  try {
    hub.reserve(kChannel, {}, orgA);
    ADD_FAILURE() << "a third stream of organization 1 was admitted";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status(), 429);
    EXPECT_EQ(e.headers().at("Retry-After"), "5");
  }
  hub.reserve(kChannel, {}, orgB);  // another organization is not affected
  hub.cancel(a1);
  hub.reserve(kChannel, {}, orgA);  // the slot came back
  hub.reserve(kChannel, {}, orgB);  // 4 in all now
  try {
    hub.reserve(kChannel, {}, orgC);
    ADD_FAILURE() << "a fifth stream was admitted";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status(), 503);
  }
  hub.stop();
}

}  // namespace
}  // namespace aev::stream

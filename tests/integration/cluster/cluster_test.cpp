// Several nodes on one PostgreSQL are one service (ARCHITECTURE.md, "Scaling out"):
// tokens from any node work on every node; an event published through any node reaches
// the subscribers of every node live, exactly once and in order, also across a node
// killed with -9, PostgreSQL restarted under load, the LISTEN connection cut, and with
// doorbells off (poll only); within a channel ids follow seq, so Last-Event-ID resumes
// exactly on any node.
#include <gtest/gtest.h>

#include <Poco/Base64Decoder.h>
#include <Poco/Base64Encoder.h>
#include <Poco/HMACEngine.h>
#include <Poco/SHA2Engine.h>

#include <sstream>

#include "cluster_support.h"
#include "support/api_fixture.h"
#include "support/http_receiver.h"

namespace aev::testing::cluster {
namespace {

#define SKIP_WITHOUT_POSTGRES()                    \
  if (!PostgresServer::available()) {              \
    GTEST_SKIP() << "PostgreSQL is not installed"; \
  }                                                \
  static_assert(true)

// Standard Webhooks: "v1," + base64(HMAC-SHA256(key, "<id>.<timestamp>.<body>")), the
// key being the base64 after "whsec_".
std::string webhookSignature(const std::string& secret, const std::string& id, const std::string& timestamp,
                             const std::string& body) {
  struct Sha256 : Poco::SHA2Engine {
    enum { BLOCK_SIZE = 64, DIGEST_SIZE = 32 };
    Sha256() : Poco::SHA2Engine(SHA_256) {}
  };
  std::istringstream in(secret.substr(6));
  Poco::Base64Decoder decoder(in);
  const std::string key((std::istreambuf_iterator<char>(decoder)), std::istreambuf_iterator<char>());
  Poco::HMACEngine<Sha256> engine(key);
  engine.update(id + "." + timestamp + "." + body);
  const auto& digest = engine.digest();
  std::ostringstream out;
  Poco::Base64Encoder encoder(out);
  encoder.rdbuf()->setLineLength(0);
  encoder.write(reinterpret_cast<const char*>(digest.data()), static_cast<std::streamsize>(digest.size()));
  encoder.close();
  return "v1," + out.str();
}

std::vector<std::int64_t> allChannels(Cluster& c) {
  std::vector<std::int64_t> out;
  for (const auto& a : c.accounts()) out.insert(out.end(), a.channels.begin(), a.channels.end());
  return out;
}

// The workload of every scenario: subscribers on every node for every channel, then
// publishers on every node; `fault` runs once a third of the events are published. Then
// the store is read and every subscriber must hold exactly its channel's events.
void runWorkload(Cluster& cluster, const std::function<void()>& fault = {}, std::size_t eventsEach = 60,
                 std::vector<std::int64_t> channels = {}) {
  if (channels.empty()) channels = allChannels(cluster);
  Subscribers subs(cluster);
  for (std::size_t node = 0; node < cluster.size(); ++node)
    for (auto ch : channels) subs.add(node, ch);
  subs.start();
  Publishers pubs(cluster, channels, 2, eventsEach);
  pubs.start();
  const std::size_t total = cluster.size() * 2 * eventsEach;
  if (fault) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (pubs.published() < total / 3 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(5ms);  // polling a counter
    fault();
  }
  pubs.join();
  ASSERT_EQ(pubs.published(), total) << "publishers did not finish";
  const auto stored = cluster.storedIds();
  std::size_t storedTotal = 0;
  for (const auto& [ch, ids] : stored) storedTotal += ids.size();
  // A publish that failed may have committed (its answer was lost): at most once.
  EXPECT_GE(storedTotal, total);
  EXPECT_LE(storedTotal, total + pubs.failures());
  EXPECT_TRUE(subs.waitCaughtUp(stored, 30s)) << subs.exact(stored).message();
  subs.stop();
  EXPECT_TRUE(subs.exact(stored));
  std::cout << "[ workload ] " << storedTotal << " events in " << stored.size() << " channels, " << subs.size()
            << " subscribers, " << subs.reconnects() << " reconnects, " << pubs.failures() << " failed publishes"
            << std::endl;
}

TEST(Cluster, ATokenIssuedByOneNodeIsAcceptedByEveryNode) {
  SKIP_WITHOUT_POSTGRES();
  Cluster cluster(Settings{{"outbound.allow_private_addresses", "true"}});
  cluster.setUp(1);  // also: the token from node 0 created apps and channels on node 1
  const auto& acc = cluster.accounts().front();
  const auto tenant = std::to_string(acc.orgId);
  for (std::size_t i = 0; i < cluster.size(); ++i)
    EXPECT_STATUS(cluster.client(i, acc.accessToken).get("/users/me"), 200);
  // A refresh token from node 0, refreshed on node 1; the new access token on node 2.
  auto refreshed = cluster.node(1).client().post("/auth/refresh", obj({{"refresh_token", acc.refreshToken}}));
  ASSERT_STATUS(refreshed, 200);
  EXPECT_STATUS(cluster.client(2, strField(refreshed.object(), "access_token")).get("/users/me"), 200);
  // A stream token issued by node 1 opens a stream on node 2 and node 0.
  auto issued = cluster.client(1, acc.accessToken)
                    .withHeader("x-tenant-id", tenant)
                    .post("/stream-tokens", obj({{"channelId", acc.channels.front()}}));
  ASSERT_STATUS(issued, 201);
  const auto token = strField(issued.object(), "token");
  for (std::size_t i : {std::size_t{2}, std::size_t{0}}) {
    SseStream s("127.0.0.1", cluster.node(i).port());
    s.start("/channel/" + std::to_string(acc.channels.front()) + "/subscribe?stream_token=" + token);
    ASSERT_TRUE(s.waitHead(10s)) << s.describe();
    EXPECT_EQ(s.status(), 200) << s.describe();
  }
  // A webhook secret sealed by node 0 opens on node 2: with nodes 0 and 1 gone, node 2
  // delivers an event published through it, signed with the secret node 0 handed out.
  HttpReceiver receiver;
  auto endpoint = cluster.client(0, acc.accessToken)
                      .withHeader("x-tenant-id", tenant)
                      .post("/webhooks/endpoints", obj({{"url", receiver.url()}, {"channelId", acc.channels.front()}}));
  ASSERT_STATUS(endpoint, 201);
  const auto secret = strField(endpoint.object(), "secret");
  // An audit checkpoint signed by one node verifies on the others.
  for (std::size_t i = 0; i < cluster.size(); ++i) {
    auto verify = cluster.client(i, acc.accessToken).withHeader("x-tenant-id", tenant).get("/audit-logs/verify");
    ASSERT_STATUS(verify, 200);
    EXPECT_TRUE(verify.object()->getValue<bool>("ok")) << verify.body;
    EXPECT_EQ(intField(verify.object(), "checkpointsUnverifiable"), 0) << "node " << i << ": " << verify.body;
    if (i > 0) {
      EXPECT_GE(intField(verify.object(), "checkpointsVerified"), 1) << "node " << i << ": " << verify.body;
    }
  }
  cluster.kill(0);
  cluster.kill(1);
  ASSERT_STATUS(
      cluster.client(2, acc.accessToken)
          .withHeader("x-tenant-id", tenant)
          .post("/event",
                obj({{"identifier", "hook"}, {"channel_id", acc.channels.front()}, {"payload", obj({{"n", 1}})}})),
      201);
  ASSERT_TRUE(receiver.waitFor(1, 20s)) << cluster.node(2).logTail();
  const auto delivery = receiver.requests().front();
  EXPECT_EQ(
      delivery.header("webhook-signature"),
      webhookSignature(secret, delivery.header("webhook-id"), delivery.header("webhook-timestamp"), delivery.body));
}

TEST(Cluster, WithoutTheSharedKeysAPostgresNodeRefusesToStart) {
  SKIP_WITHOUT_POSTGRES();
  PostgresServer pg;
  DaemonOptions o;
  o.databaseUrl = pg.createDatabase();
  o.config = {{"auth.jwt_secret", ""}, {"webhooks.secret_key", ""}, {"audit.signing_key_file", ""}};
  DaemonProcess d(o);
  std::string failure;
  try {
    d.start();
  } catch (const std::runtime_error& e) {
    failure = e.what();
  }
  EXPECT_NE(failure.find("exit code 78"), std::string::npos) << failure;
  for (const char* key : {"auth.jwt_secret", "webhooks.secret_key", "audit.signing_key_file"})
    EXPECT_NE(d.log().find(key), std::string::npos) << key << " is not named:\n" << d.log();
}

// A counter of the node's /metrics (0 when it was never registered).
std::int64_t metric(DaemonProcess& node, const std::string& name) {
  const auto text = node.client().get("/metrics").body;
  const auto at = text.find("\n" + name + " ");
  if (at == std::string::npos) return 0;
  return std::stoll(text.substr(at + name.size() + 2));
}

TEST(Cluster, EverySubscriberOnEveryNodeGetsEveryEventOnceInOrder) {
  SKIP_WITHOUT_POSTGRES();
  // No poll to fall back on within the test: doorbells alone carry it.
  Cluster cluster(Settings{{"cluster.poll_interval_ms", "3600000"}});
  cluster.setUp();
  runWorkload(cluster);
  for (std::size_t i = 0; i < cluster.size(); ++i) {
    EXPECT_GT(metric(cluster.node(i), "agent_events_cluster_doorbells_sent_total"), 0) << "node " << i;
    EXPECT_GT(metric(cluster.node(i), "agent_events_cluster_doorbells_received_total"), 0) << "node " << i;
  }
}

TEST(Cluster, SubscribersOfANodeKilledWithSignal9ResumeOnAnotherExactly) {
  SKIP_WITHOUT_POSTGRES();
  Cluster cluster;
  cluster.setUp();
  runWorkload(cluster, [&] { cluster.kill(1); });
}

TEST(Cluster, PostgresRestartedFastUnderLoadLosesNothing) {
  SKIP_WITHOUT_POSTGRES();
  Cluster cluster;
  cluster.setUp();
  runWorkload(cluster, [&] {
    cluster.pg().stopFast();
    cluster.pg().startAgain();
  });
}

TEST(Cluster, PostgresRestartedImmediatelyUnderLoadLosesNothing) {
  SKIP_WITHOUT_POSTGRES();
  Cluster cluster;
  cluster.setUp();
  runWorkload(cluster, [&] {
    cluster.pg().crash();
    cluster.pg().startAgain();
  });
}

TEST(Cluster, TheListenConnectionTerminatedIsCaughtUpByPolling) {
  SKIP_WITHOUT_POSTGRES();
  Cluster cluster;
  cluster.setUp();
  runWorkload(cluster, [&] {
    const auto killed = cluster.sql(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name LIKE 'aev-listen-%'");
    EXPECT_EQ(std::stoi(killed), 3) << "one LISTEN connection per node";
  });
}

TEST(Cluster, PollOnlyModeDeliversTheSame) {
  SKIP_WITHOUT_POSTGRES();
  Cluster cluster(Settings{{"cluster.wakeup", "poll"}, {"cluster.poll_interval_ms", "100"}});
  cluster.setUp();
  runWorkload(cluster);
  for (std::size_t i = 0; i < cluster.size(); ++i) {  // no doorbell rang: the poll did it all
    EXPECT_EQ(metric(cluster.node(i), "agent_events_cluster_doorbells_sent_total"), 0) << "node " << i;
    EXPECT_EQ(metric(cluster.node(i), "agent_events_cluster_doorbells_received_total"), 0) << "node " << i;
  }
}

TEST(Cluster, OneChannelWrittenByAllNodesAtOnce) {
  SKIP_WITHOUT_POSTGRES();
  Cluster cluster;
  cluster.setUp(1);
  const auto channel = cluster.accounts().front().channels.front();
  runWorkload(cluster, {}, 100, {channel});
  // Within a channel ids follow seq, whichever node committed them: a Last-Event-ID is
  // one position in the channel on every node.
  const auto stored = cluster.storedIds().at(channel);
  for (std::size_t k = 1; k < stored.size(); ++k)
    ASSERT_LT(stored[k - 1], stored[k]) << "ids out of seq order at seq " << k + 1;
  // Resume from the middle on each node: exactly the rest, in order.
  const auto& acc = cluster.accounts().front();
  const auto middle = stored.size() / 2;
  for (std::size_t i = 0; i < cluster.size(); ++i) {
    SseStream s("127.0.0.1", cluster.node(i).port());
    s.start("/channel/" + std::to_string(channel) + "/subscribe",
            {{"Authorization", "Bearer " + acc.accessToken}, {"Last-Event-ID", std::to_string(stored[middle])}});
    auto got = s.take(stored.size() - middle - 1, 10s);
    std::vector<std::int64_t> ids;
    for (const auto& m : got) ids.push_back(m.numericId());
    EXPECT_EQ(ids, std::vector<std::int64_t>(stored.begin() + static_cast<long>(middle) + 1, stored.end()))
        << "node " << i;
  }
}

}  // namespace
}  // namespace aev::testing::cluster

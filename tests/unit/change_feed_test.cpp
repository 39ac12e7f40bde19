// store/change_feed.h: notices encode and decode; on a real PostgreSQL a notice sent in
// a transaction reaches a listener when (and only when) the transaction commits; the
// API key cache it protects is off while suspended.
#include "store/change_feed.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "auth/api_key_cache.h"
#include "support/postgres_server.h"

namespace aev::store {
namespace {

using aev::testing::PostgresServer;
using namespace std::chrono_literals;

TEST(ChangeNotice, EncodesAndDecodes) {
  const ChangeNotice n{"apikey.revoked", 7, 12};
  EXPECT_EQ(encodeNotice(n), "apikey.revoked 7 12");
  auto back = decodeNotice("apikey.revoked 7 12");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->topic, "apikey.revoked");
  EXPECT_EQ(back->orgId, 7);
  EXPECT_EQ(back->id, 12);
  EXPECT_FALSE(decodeNotice("apikey.revoked 7").has_value());
  EXPECT_FALSE(decodeNotice("apikey.revoked 7 12 extra").has_value());
  EXPECT_FALSE(decodeNotice("").has_value());
}

TEST(ApiKeyCacheSuspension, NothingIsServedOrRememberedWhileSuspended) {
  auth::ApiKeyCache cache(std::chrono::seconds(30));
  store::ApiKeyRecord key;
  key.id = 1;
  key.orgId = 2;
  cache.remember("h", key, cache.generation());
  ASSERT_TRUE(cache.find("h").has_value());
  cache.suspend();
  EXPECT_FALSE(cache.find("h").has_value());
  cache.remember("h", key, cache.generation());
  EXPECT_EQ(cache.size(), 0u);
  const auto before = cache.generation();
  cache.resume();
  cache.remember("h", key, before);  // read before the resume: not trusted
  EXPECT_EQ(cache.size(), 0u);
  cache.remember("h", key, cache.generation());
  EXPECT_TRUE(cache.find("h").has_value());
}

class Collector {
 public:
  void add(const ChangeNotice& n) {
    std::lock_guard lock(mutex_);
    notices_.push_back(n);
    cv_.notify_all();
  }
  void connected(bool up) {
    std::lock_guard lock(mutex_);
    states_.push_back(up);
    cv_.notify_all();
  }
  bool waitFor(std::size_t notices, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, timeout, [&] { return notices_.size() >= notices; });
  }
  bool waitConnected(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, timeout, [&] { return !states_.empty() && states_.back(); });
  }
  std::vector<ChangeNotice> notices() {
    std::lock_guard lock(mutex_);
    return notices_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<ChangeNotice> notices_;
  std::vector<bool> states_;
};

TEST(ChangeFeedPostgreSQL, ANoticeArrivesWhenItsTransactionCommits) {
  if (!PostgresServer::available()) GTEST_SKIP() << "PostgreSQL is not installed";
  DatabaseOptions options;
  options.url = PostgresServer::instance().createDatabase();
  options.poolSize = 2;
  Database db(options);
  Collector seen;
  ChangeListener listener(
      db.connectionString(), [&](const ChangeNotice& n) { seen.add(n); }, [&](bool up) { seen.connected(up); });
  listener.start();
  ASSERT_TRUE(seen.waitConnected(10s));
  EXPECT_TRUE(listener.connected());

  // Rolled back: never delivered.
  try {
    db.transaction([&](Connection& c) {
      notifyChange(c, {"moderation.changed", 3, 0});
      throw std::runtime_error("roll back");
    });
  } catch (const std::runtime_error&) {
  }
  db.transaction([&](Connection& c) { notifyChange(c, {"apikey.revoked", 5, 9}); });
  ASSERT_TRUE(seen.waitFor(1, 10s));
  std::this_thread::sleep_for(200ms);  // room for a wrongly delivered second notice
  auto notices = seen.notices();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].topic, "apikey.revoked");
  EXPECT_EQ(notices[0].orgId, 5);
  EXPECT_EQ(notices[0].id, 9);
  listener.stop();
  EXPECT_FALSE(listener.connected());
}

}  // namespace
}  // namespace aev::store

// The API key cache: only live keys, TTL, invalidation by key and by organization, and
// no stale record cached across a concurrent revocation.
#include <gtest/gtest.h>

#include "auth/api_key_cache.h"

namespace aev::auth {
namespace {

using namespace std::chrono_literals;

store::ApiKeyRecord key(std::int64_t id, std::int64_t orgId) {
  store::ApiKeyRecord r;
  r.id = id;
  r.orgId = orgId;
  r.scopes = {"publish"};
  return r;
}

TEST(ApiKeyCache, RemembersLiveKeysUntilTheirTtl) {
  ApiKeyCache cache(30s);
  const auto t0 = ApiKeyCache::Clock::now();
  cache.remember("h1", key(1, 10), cache.generation(), t0);
  ASSERT_TRUE(cache.find("h1", t0 + 29s));
  EXPECT_EQ(cache.find("h1", t0 + 29s)->id, 1);
  EXPECT_FALSE(cache.find("h1", t0 + 30s));
  EXPECT_EQ(cache.size(), 0u);  // the expired entry is dropped
}

TEST(ApiKeyCache, DisabledOrRevokedRecordsAreNeverCached) {
  ApiKeyCache off(0s);
  off.remember("h", key(1, 1), off.generation());
  EXPECT_FALSE(off.find("h"));
  ApiKeyCache cache(30s);
  auto revoked = key(2, 1);
  revoked.revokedAt = 5;
  cache.remember("h", revoked, cache.generation());
  EXPECT_FALSE(cache.find("h"));
}

TEST(ApiKeyCache, ForgetsByKeyAndByOrganization) {
  ApiKeyCache cache(30s);
  cache.remember("a", key(1, 10), cache.generation());
  cache.remember("b", key(2, 10), cache.generation());
  cache.remember("c", key(3, 20), cache.generation());
  cache.forget(Revocation{10, std::nullopt, 1});
  EXPECT_FALSE(cache.find("a"));
  EXPECT_TRUE(cache.find("b"));
  cache.forget(Revocation{std::nullopt, 7, std::nullopt});  // a user: keys stay
  EXPECT_TRUE(cache.find("b"));
  cache.forget(Revocation{10, std::nullopt, std::nullopt});  // the organization
  EXPECT_FALSE(cache.find("b"));
  EXPECT_TRUE(cache.find("c"));
}

TEST(ApiKeyCache, ARevocationDuringTheStoreReadWins) {
  ApiKeyCache cache(30s);
  const auto before = cache.generation();   // authenticate: generation, then the store read
  cache.forget(Revocation{10, std::nullopt, 1});  // meanwhile: the key is revoked
  cache.remember("a", key(1, 10), before);  // the read's (stale) record
  EXPECT_FALSE(cache.find("a"));
}

TEST(ApiKeyCache, StaysWithinItsCapacity) {
  ApiKeyCache cache(30s, 3);
  for (int i = 0; i < 10; ++i) cache.remember("k" + std::to_string(i), key(i, 1), cache.generation());
  EXPECT_LE(cache.size(), 3u);
  EXPECT_TRUE(cache.find("k9"));
}

}  // namespace
}  // namespace aev::auth

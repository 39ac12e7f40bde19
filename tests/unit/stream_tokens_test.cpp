// auth/stream_tokens.h: channel-bound, HMAC-signed, short-lived connect tokens.
#include "auth/stream_tokens.h"

#include <gtest/gtest.h>

#include <thread>

#include "common/clock.h"

namespace aev::auth {
namespace {

const std::string kSecret = "stream-token-secret-0123456789abcdef";

TEST(StreamTokens, IssueThenVerify) {
  StreamTokens tokens(kSecret, 300);
  auto [token, grant] = tokens.issue(7, 40);
  EXPECT_EQ(grant.orgId, 7);
  EXPECT_EQ(grant.channelId, 40);
  EXPECT_NEAR(static_cast<double>(grant.expiresAt - clock::nowMicros()), 300.0 * clock::kSecond, 5.0 * clock::kSecond);
  auto verified = tokens.verify(token);
  ASSERT_TRUE(verified);
  EXPECT_EQ(verified->orgId, 7);
  EXPECT_EQ(verified->channelId, 40);
  EXPECT_EQ(verified->expiresAt, grant.expiresAt);
}

TEST(StreamTokens, TokensAreUniqueAndUrlSafe) {
  StreamTokens tokens(kSecret, 300);
  auto a = tokens.issue(1, 2).first;
  auto b = tokens.issue(1, 2).first;
  EXPECT_NE(a, b);
  for (char c : a) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') << a;
}

TEST(StreamTokens, TamperingIsRefused) {
  StreamTokens tokens(kSecret, 300);
  auto token = tokens.issue(7, 40).first;
  // Another channel in the payload, signature kept.
  auto moved = token;
  auto pos = moved.find(".40.");
  ASSERT_NE(pos, std::string::npos) << token;
  moved.replace(pos, 4, ".41.");
  EXPECT_EQ(tokens.verify(moved), std::nullopt);
  // A changed signature.
  auto badSig = token;
  badSig.back() = badSig.back() == 'A' ? 'B' : 'A';
  EXPECT_EQ(tokens.verify(badSig), std::nullopt);
  // Another server's secret.
  EXPECT_EQ(StreamTokens("another-secret-0123456789abcdefghij", 300).verify(token), std::nullopt);
}

TEST(StreamTokens, ExpiredIsRefused) {
  StreamTokens tokens(kSecret, 1);
  auto token = tokens.issue(7, 40).first;
  EXPECT_TRUE(tokens.verify(token));
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_EQ(tokens.verify(token), std::nullopt);
  EXPECT_EQ(StreamTokens(kSecret, -1).verify(StreamTokens(kSecret, -1).issue(1, 1).first), std::nullopt);
}

TEST(StreamTokens, GarbageIsRefused) {
  StreamTokens tokens(kSecret, 300);
  for (const char* bad : {"", "st_", "st_.", "st_1.2.3.4", "xx_1.2.3.abc.def", "st_a.b.c.d.sig"})
    EXPECT_EQ(tokens.verify(bad), std::nullopt) << bad;
  EXPECT_EQ(tokens.verify("st_" + std::string(300, '1')), std::nullopt);
  // A JWT or an API key is not a stream token.
  EXPECT_EQ(tokens.verify("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"), std::nullopt);
}

}  // namespace
}  // namespace aev::auth

// auth/jwt.h: HS256 access tokens with a pinned algorithm (docs/api.md#authentication).
#include "auth/jwt.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <Poco/JSON/Stringifier.h>

#include <sstream>
#include <stdexcept>
#include <thread>

#include "common/clock.h"
#include "support/jwt_tools.h"
#include "support/process.h"

namespace aev::auth {
namespace {

using namespace aev::testing;

const std::string kSecret = "0123456789abcdef0123456789abcdef-test-secret";

JwtOptions options(std::string secret = kSecret) {
  JwtOptions o;
  o.secret = std::move(secret);
  return o;
}

AccessClaims sample() {
  AccessClaims c;
  c.userId = 42;
  c.orgId = 7;
  c.roles = {"admin"};
  return c;
}

std::int64_t nowSeconds() { return clock::nowMicros() / clock::kSecond; }

// A payload like the daemon's, for forging.
Poco::JSON::Object::Ptr payloadFor(std::int64_t exp, std::string aud = "agent-events-api",
                                   std::string iss = "agent-events") {
  Poco::JSON::Object::Ptr p = new Poco::JSON::Object;
  p->set("iss", iss);
  p->set("aud", aud);
  p->set("sub", "42");
  p->set("org", 7);
  Poco::JSON::Array::Ptr roles = new Poco::JSON::Array;
  roles->add("admin");
  p->set("roles", roles);
  p->set("iat", nowSeconds() - 10);
  p->set("exp", exp);
  p->set("jti", "forged");
  return p;
}

Poco::JSON::Object::Ptr jwtHeader() {
  Poco::JSON::Object::Ptr h = new Poco::JSON::Object;
  h->set("typ", "JWT");
  return h;
}

TEST(Jwt, IssueThenVerifyRoundTrips) {
  JwtCodec codec(options());
  auto claims = sample();
  auto token = codec.issue(claims);
  EXPECT_FALSE(claims.jti.empty());
  EXPECT_EQ(claims.expiresAt - claims.issuedAt, 900);
  // At least the TTL from now, whatever the fraction of the second it was issued in.
  EXPECT_GE(claims.expiresAt, nowSeconds() + 900);
  EXPECT_NEAR(static_cast<double>(claims.issuedAt), static_cast<double>(nowSeconds()), 2.0);

  auto verified = codec.verify(token);
  ASSERT_TRUE(verified.has_value());
  EXPECT_EQ(verified->userId, 42);
  EXPECT_EQ(verified->orgId, 7);
  EXPECT_EQ(verified->roles, std::vector<std::string>{"admin"});
  EXPECT_EQ(verified->jti, claims.jti);
  EXPECT_EQ(verified->issuedAt, claims.issuedAt);
  EXPECT_EQ(verified->expiresAt, claims.expiresAt);
}

TEST(Jwt, TokenCarriesTheDecidedClaims) {
  JwtCodec codec(options());
  auto claims = sample();
  auto parts = decodeJwt(codec.issue(claims));
  EXPECT_EQ(parts.header->getValue<std::string>("alg"), "HS256");
  EXPECT_EQ(parts.payload->getValue<std::string>("iss"), "agent-events");
  // aud may be a string or a one-element array.
  auto aud = parts.payload->get("aud");
  if (aud.isString()) EXPECT_EQ(aud.toString(), "agent-events-api");
  else EXPECT_EQ(parts.payload->getArray("aud")->getElement<std::string>(0), "agent-events-api");
  EXPECT_EQ(parts.payload->getValue<std::string>("sub"), "42");
  EXPECT_EQ(parts.payload->getValue<std::int64_t>("org"), 7);
  ASSERT_TRUE(parts.payload->getArray("roles"));
  EXPECT_TRUE(parts.payload->has("iat"));
  EXPECT_TRUE(parts.payload->has("exp"));
  EXPECT_EQ(parts.payload->getValue<std::string>("jti"), claims.jti);
}

TEST(Jwt, EveryTokenHasItsOwnJti) {
  JwtCodec codec(options());
  auto a = sample(), b = sample();
  codec.issue(a);
  codec.issue(b);
  EXPECT_NE(a.jti, b.jti);
}

TEST(Jwt, TokenWithoutOrganization) {
  JwtCodec codec(options());
  AccessClaims c;
  c.userId = 5;
  auto v = codec.verify(codec.issue(c));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->userId, 5);
  EXPECT_EQ(v->orgId, std::nullopt);
  EXPECT_TRUE(v->roles.empty());
}

TEST(Jwt, ShortSecretIsRefused) { EXPECT_THROW(JwtCodec(options("too-short")), std::invalid_argument); }

TEST(Jwt, ExpiredTokenIsRefused) {
  JwtOptions o = options();
  o.ttlSeconds = -5;
  JwtCodec expiring(o);
  auto c = sample();
  auto token = expiring.issue(c);
  EXPECT_EQ(JwtCodec(options()).verify(token), std::nullopt);
  // Forged with the right secret but an exp in the past.
  EXPECT_EQ(JwtCodec(options()).verify(signJwt(jwtHeader(), payloadFor(nowSeconds() - 1), kSecret)), std::nullopt);
  // Control: the same forgery with a future exp is accepted (so the forging is right).
  EXPECT_TRUE(JwtCodec(options()).verify(signJwt(jwtHeader(), payloadFor(nowSeconds() + 60), kSecret)).has_value());
}

TEST(Jwt, TokenExpiresWithTime) {
  JwtOptions o = options();
  o.ttlSeconds = 1;
  JwtCodec codec(o);
  auto c = sample();
  auto token = codec.issue(c);
  EXPECT_TRUE(codec.verify(token));
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  EXPECT_EQ(codec.verify(token), std::nullopt);
}

TEST(Jwt, TamperedSignatureIsRefused) {
  JwtCodec codec(options());
  auto c = sample();
  auto token = codec.issue(c);
  EXPECT_EQ(codec.verify(tamperSignature(token)), std::nullopt);
  EXPECT_EQ(codec.verify(token.substr(0, token.rfind('.') + 1)), std::nullopt);  // signature stripped
}

TEST(Jwt, TamperedPayloadIsRefused) {
  JwtCodec codec(options());
  auto c = sample();
  auto token = codec.issue(c);
  EXPECT_EQ(codec.verify(tamperPayload(token, "sub", "1")), std::nullopt);
  EXPECT_EQ(codec.verify(tamperPayload(token, "org", 8)), std::nullopt);
}

TEST(Jwt, WrongSecretIsRefused) {
  JwtCodec codec(options());
  auto c = sample();
  auto token = JwtCodec(options("another-secret-that-is-long-enough-000")).issue(c);
  EXPECT_EQ(codec.verify(token), std::nullopt);
}

TEST(Jwt, AlgNoneIsRefused) {
  JwtCodec codec(options());
  EXPECT_EQ(codec.verify(unsignedJwt(payloadFor(nowSeconds() + 600))), std::nullopt);
  // "none" with a (meaningless) signature appended.
  auto withSig = unsignedJwt(payloadFor(nowSeconds() + 600)) + "c2lnbmF0dXJl";
  EXPECT_EQ(codec.verify(withSig), std::nullopt);
  // Variants of the name.
  for (const char* alg : {"None", "NONE", "nOnE"}) {
    Poco::JSON::Object::Ptr h = jwtHeader();
    h->set("alg", alg);
    auto parts = decodeJwt(unsignedJwt(payloadFor(nowSeconds() + 600)));
    std::ostringstream hs;
    Poco::JSON::Stringifier::condense(h, hs);
    EXPECT_EQ(codec.verify(base64UrlEncode(hs.str()) + "." + parts.payloadB64 + "."), std::nullopt) << alg;
  }
}

TEST(Jwt, OtherHmacAlgorithmsAreRefused) {
  JwtCodec codec(options());
  for (const char* alg : {"HS384", "HS512"})
    EXPECT_EQ(codec.verify(signJwt(jwtHeader(), payloadFor(nowSeconds() + 600), kSecret, alg)), std::nullopt) << alg;
  // A header claiming HS512 over an HS256 signature.
  Poco::JSON::Object::Ptr h = jwtHeader();
  h->set("alg", "HS512");
  EXPECT_EQ(codec.verify(signJwt(h, payloadFor(nowSeconds() + 600), kSecret, "HS256", false)), std::nullopt);
}

TEST(Jwt, WrongAudienceOrIssuerIsRefused) {
  JwtCodec codec(options());
  EXPECT_EQ(codec.verify(signJwt(jwtHeader(), payloadFor(nowSeconds() + 600, "someone-else"), kSecret)), std::nullopt);
  EXPECT_EQ(codec.verify(signJwt(jwtHeader(), payloadFor(nowSeconds() + 600, "agent-events-api", "evil"), kSecret)),
            std::nullopt);
  JwtOptions other = options();
  other.audience = "another-api";
  auto c = sample();
  EXPECT_EQ(codec.verify(JwtCodec(other).issue(c)), std::nullopt);
  JwtOptions otherIssuer = options();
  otherIssuer.issuer = "another-issuer";
  EXPECT_EQ(codec.verify(JwtCodec(otherIssuer).issue(c)), std::nullopt);
}

TEST(Jwt, MissingExpOrSubIsRefused) {
  JwtCodec codec(options());
  auto noExp = payloadFor(nowSeconds() + 600);
  noExp->remove("exp");
  EXPECT_EQ(codec.verify(signJwt(jwtHeader(), noExp, kSecret)), std::nullopt);
  auto noSub = payloadFor(nowSeconds() + 600);
  noSub->remove("sub");
  EXPECT_EQ(codec.verify(signJwt(jwtHeader(), noSub, kSecret)), std::nullopt);
}

TEST(Jwt, IssuedInTheFutureIsRefused) {
  JwtCodec codec(options());
  auto p = payloadFor(nowSeconds() + 7200);
  p->set("iat", nowSeconds() + 3600);
  EXPECT_EQ(codec.verify(signJwt(jwtHeader(), p, kSecret)), std::nullopt);
}

TEST(Jwt, GarbageIsRefused) {
  JwtCodec codec(options());
  for (const std::string& bad : std::vector<std::string>{"", ".", "..", "a.b.c", "not a token", "eyJhbGciOiJIUzI1NiJ9..", std::string(5000, 'a')})
    EXPECT_EQ(codec.verify(bad), std::nullopt) << bad.substr(0, 40);
  // Valid signature over a non-numeric subject.
  auto p = payloadFor(nowSeconds() + 600);
  p->set("sub", "alice");
  EXPECT_EQ(codec.verify(signJwt(jwtHeader(), p, kSecret)), std::nullopt);
}

TEST(JwtSecret, CreatedOnceWithPrivatePermissions) {
  TempDir dir("aev-unit-jwt");
  const std::string dataDir = dir.file("data");
  auto first = loadOrCreateSecret(dataDir);
  EXPECT_GE(first.size(), 32u);
  auto path = dataDir + "/jwt.secret";
  ASSERT_TRUE(std::filesystem::exists(path));
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(loadOrCreateSecret(dataDir), first);  // stable across restarts
  TempDir other("aev-unit-jwt");
  EXPECT_NE(loadOrCreateSecret(other.path()), first);
}

TEST(JwtSecret, ShortStoredSecretIsAnError) {
  TempDir dir("aev-unit-jwt");
  writeFile(dir.file("jwt.secret"), "short\n");
  EXPECT_ANY_THROW(loadOrCreateSecret(dir.path()));
}

}  // namespace
}  // namespace aev::auth

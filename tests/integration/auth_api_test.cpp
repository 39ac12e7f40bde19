// /auth/*: registration, login, throttling, refresh rotation, logout, whoami, and the
// access token rules (HS256 pinned, expiry, tampering) — docs/api.md#authentication.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <thread>

#include "support/api_fixture.h"
#include "support/jwt_tools.h"

namespace aev::testing {
namespace {

class AuthApi : public ApiTest {};

TEST_F(AuthApi, RegisterAnswersTheFirstShapeUser) {
  const auto id = unique();
  auto r = registerRaw("reg-" + id + "@example.test", "reg_" + id, "long-enough-pw", "Ada", "Lovelace");
  ASSERT_STATUS(r, 201);
  auto u = r.object();
  EXPECT_GT(intField(u, "id"), 0);
  EXPECT_EQ(strField(u, "email"), "reg-" + id + "@example.test");
  EXPECT_EQ(strField(u, "username"), "reg_" + id);
  EXPECT_EQ(strField(u, "first_name"), "Ada");
  EXPECT_EQ(strField(u, "last_name"), "Lovelace");
  EXPECT_GT(intField(u, "organizationId"), 0);
  ASSERT_TRUE(u->getArray("roles")) << r.describe();
  EXPECT_FALSE(hasNonNull(u, "disabledAt")) << r.describe();
  // Nothing secret in the answer.
  EXPECT_EQ(r.body.find("long-enough-pw"), std::string::npos);
  EXPECT_EQ(r.body.find("argon2"), std::string::npos);
  EXPECT_FALSE(u->has("password"));
  EXPECT_FALSE(u->has("passwordHash"));
  EXPECT_FALSE(u->has("password_hash"));
}

TEST_F(AuthApi, OptionalNamesDefaultToEmpty) {
  const auto id = unique();
  auto r = registerRaw("noname-" + id + "@example.test", "noname_" + id, "long-enough-pw");
  ASSERT_STATUS(r, 201);
  auto u = r.object();
  // Present as strings (the first shape types them as string).
  EXPECT_EQ(strField(u, "first_name"), "");
  EXPECT_EQ(strField(u, "last_name"), "");
}

TEST_F(AuthApi, EachUserGetsAPersonalOrganizationAsAdmin) {
  auto u = registerUser("personal");
  ASSERT_GT(u.personalOrgId, 0);
  EXPECT_NE(u.personalOrgId, admin().personalOrgId);
  auto r = u.http.get("/users/me/organizations");
  ASSERT_STATUS(r, 200);
  auto list = objects(r.array());
  ASSERT_EQ(list.size(), 1u) << r.describe();
  EXPECT_EQ(intField(list[0], "organizationId"), u.personalOrgId);
  EXPECT_EQ(strField(list[0], "role"), "admin");
  auto roles = u.registration->getArray("roles");
  ASSERT_TRUE(roles);
  bool hasAdmin = false;
  for (std::size_t i = 0; i < roles->size(); ++i) hasAdmin |= roles->getElement<std::string>(i) == "admin";
  EXPECT_TRUE(hasAdmin) << toJson(u.registration);
}

TEST_F(AuthApi, FirstUserIsTheInstanceAdminAndOthersAreNot) {
  EXPECT_STATUS(admin().http.get("/admin/users"), 200);
  auto other = registerUser("notadmin");
  EXPECT_TRUE(IsProblem(other.http.get("/admin/users"), 403));
  EXPECT_TRUE(IsProblem(other.http.get("/admin/access-requests"), 403));
}

TEST_F(AuthApi, DuplicateEmailOrUsernameIs409) {
  auto u = registerUser("dup");
  const auto id = unique();
  EXPECT_TRUE(IsProblem(registerRaw(u.email, "other_" + id, "long-enough-pw"), 409));
  EXPECT_TRUE(IsProblem(registerRaw("other-" + id + "@example.test", u.username, "long-enough-pw"), 409));
}

TEST_F(AuthApi, EmailUniquenessIgnoresCase) {
  auto u = registerUser("case");
  std::string upper = u.email;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_TRUE(IsProblem(registerRaw(upper, "case2_" + unique(), "long-enough-pw"), 409));
  // And login by e-mail ignores case too.
  EXPECT_STATUS(loginRaw(upper, u.password), 200);
}

TEST_F(AuthApi, RegistrationValidation) {
  auto missing = anon().post("/auth/register", "{}");
  ASSERT_TRUE(IsProblem(missing, 422));
  auto locations = errorLocations(missing);
  for (const char* field : {"body.email", "body.username", "body.password"})
    EXPECT_NE(std::find(locations.begin(), locations.end(), field), locations.end()) << field << " in " << missing.body;

  const auto id = unique();
  auto badEmail = registerRaw("not-an-email", "val_" + id, "long-enough-pw");
  ASSERT_TRUE(IsProblem(badEmail, 422));
  EXPECT_EQ(errorLocations(badEmail), std::vector<std::string>{"body.email"});

  auto shortPw = registerRaw("short-" + id + "@example.test", "short_" + id, "1234567");
  ASSERT_TRUE(IsProblem(shortPw, 422));
  EXPECT_EQ(errorLocations(shortPw), std::vector<std::string>{"body.password"});

  auto wrongType = anon().post("/auth/register", obj({{"email", 5}, {"username", "x_" + id}, {"password", "12345678"}}));
  EXPECT_TRUE(IsProblem(wrongType, 422));

  // Eight characters is enough.
  EXPECT_STATUS(registerRaw("eight-" + id + "@example.test", "eight_" + id, "12345678"), 201);
}

TEST_F(AuthApi, LoginByEmailOrUsername) {
  auto u = registerUser("login");
  for (const auto& name : {u.email, u.username}) {
    auto r = loginRaw(name, u.password);
    ASSERT_STATUS(r, 200);
    auto o = r.object();
    EXPECT_FALSE(strField(o, "access_token").empty());
    EXPECT_FALSE(strField(o, "refresh_token").empty());
    EXPECT_EQ(strField(o, "token_type"), "Bearer");
    EXPECT_EQ(intField(o, "expires_in"), 900);
    EXPECT_STATUS(anon().withBearer(strField(o, "access_token")).get("/users/me"), 200);
  }
}

TEST_F(AuthApi, WrongPasswordOrUnknownUserIs401WithoutTellingWhich) {
  auto u = registerUser("wrongpw");
  auto wrong = loginRaw(u.email, u.password + "x");
  ASSERT_TRUE(IsProblem(wrong, 401));
  auto unknown = loginRaw("nobody-" + unique() + "@example.test", "whatever-pw");
  ASSERT_TRUE(IsProblem(unknown, 401));
  EXPECT_EQ(strField(wrong.object(), "detail"), strField(unknown.object(), "detail"));
}

TEST_F(AuthApi, LoginValidation) {
  EXPECT_TRUE(IsProblem(anon().post("/auth/login", obj({{"login", "someone"}})), 422));
  EXPECT_TRUE(IsProblem(anon().post("/auth/login", obj({{"password", "something"}})), 422));
}

TEST_F(AuthApi, TokenClaims) {
  auto u = registerUser("claims");
  auto login = loginRaw(u.username, u.password);
  ASSERT_STATUS(login, 200);
  auto parts = decodeJwt(strField(login.object(), "access_token"));
  EXPECT_EQ(strField(parts.header, "alg"), "HS256");
  const auto& p = parts.payload;
  for (const char* claim : {"iss", "aud", "sub", "org", "roles", "iat", "exp", "jti"})
    EXPECT_TRUE(p->has(claim)) << "missing claim " << claim << " in " << toJson(p);
  EXPECT_EQ(strField(p, "sub"), std::to_string(u.id));
  EXPECT_EQ(intField(p, "org"), u.personalOrgId);
  EXPECT_EQ(intField(p, "exp") - intField(p, "iat"), intField(login.object(), "expires_in"));
}

TEST_F(AuthApi, RefreshRotatesThePair) {
  auto u = registerUser("refresh");
  auto r = anon().post("/auth/refresh", obj({{"refresh_token", u.refreshToken}}));
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  const auto access = strField(o, "access_token");
  const auto refresh = strField(o, "refresh_token");
  EXPECT_NE(refresh, u.refreshToken);
  EXPECT_EQ(strField(o, "token_type"), "Bearer");
  EXPECT_GT(intField(o, "expires_in"), 0);
  EXPECT_STATUS(anon().withBearer(access).get("/users/me"), 200);
  // The new refresh token works once more.
  EXPECT_STATUS(anon().post("/auth/refresh", obj({{"refresh_token", refresh}})), 200);
}

TEST_F(AuthApi, ReusingARotatedRefreshTokenRevokesTheFamily) {
  auto u = registerUser("reuse");
  auto first = anon().post("/auth/refresh", obj({{"refresh_token", u.refreshToken}}));
  ASSERT_STATUS(first, 200);
  const auto second = strField(first.object(), "refresh_token");
  auto third = anon().post("/auth/refresh", obj({{"refresh_token", second}}));
  ASSERT_STATUS(third, 200);
  const auto newest = strField(third.object(), "refresh_token");

  // Replay of the original (already rotated) token.
  EXPECT_TRUE(IsProblem(anon().post("/auth/refresh", obj({{"refresh_token", u.refreshToken}})), 401));
  // ...revokes the whole family: the newest refresh token stops working too.
  EXPECT_TRUE(IsProblem(anon().post("/auth/refresh", obj({{"refresh_token", newest}})), 401));
  EXPECT_TRUE(IsProblem(anon().post("/auth/refresh", obj({{"refresh_token", second}})), 401));

  // Another session of the same user (another family) is unaffected.
  auto other = login(u.email, u.password);
  EXPECT_STATUS(anon().post("/auth/refresh", obj({{"refresh_token", other.refreshToken}})), 200);
}

TEST_F(AuthApi, LogoutRevokesTheRefreshToken) {
  auto u = registerUser("logout");
  auto second = login(u.username, u.password);
  auto r = anon().post("/auth/logout", obj({{"refresh_token", u.refreshToken}}));
  ASSERT_STATUS(r, 204);
  EXPECT_TRUE(r.body.empty());
  EXPECT_TRUE(IsProblem(anon().post("/auth/refresh", obj({{"refresh_token", u.refreshToken}})), 401));
  // Only that session ended.
  EXPECT_STATUS(anon().post("/auth/refresh", obj({{"refresh_token", second.refreshToken}})), 200);
}

TEST_F(AuthApi, RefreshWithGarbageIs401AndMissingIs422) {
  EXPECT_TRUE(IsProblem(anon().post("/auth/refresh", obj({{"refresh_token", "not-a-token"}})), 401));
  EXPECT_TRUE(IsProblem(anon().post("/auth/refresh", "{}"), 422));
  EXPECT_TRUE(IsProblem(anon().post("/auth/logout", "{}"), 422));
}

TEST_F(AuthApi, AccessTokenIsNotARefreshToken) {
  auto u = registerUser("confuse");
  EXPECT_TRUE(IsProblem(anon().post("/auth/refresh", obj({{"refresh_token", u.accessToken}})), 401));
  EXPECT_TRUE(IsProblem(anon().withBearer(u.refreshToken).get("/users/me"), 401));
}

TEST_F(AuthApi, WhoamiWithBearer) {
  auto u = registerUser("whoami");
  auto r = u.http.get("/auth/whoami");
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  EXPECT_EQ(strField(o, "type"), "user");
  EXPECT_EQ(intField(o, "userId"), u.id);
  EXPECT_EQ(intField(o, "orgId"), u.personalOrgId);
  EXPECT_EQ(strField(o, "role"), "admin");
}

TEST_F(AuthApi, MalformedAuthorizationIs401) {
  for (const std::string& value : {std::string("Bearer"), std::string("Bearer "), std::string("Bearer abc.def.ghi"),
                                   std::string("Basic dXNlcjpwYXNz"), std::string("bearer-less-token")}) {
    auto r = anon().get("/users/me", {{"Authorization", value}});
    EXPECT_TRUE(IsProblem(r, 401)) << value;
  }
}

TEST_F(AuthApi, TamperedTokenIs401) {
  auto u = registerUser("tamper");
  EXPECT_TRUE(IsProblem(anon().withBearer(tamperSignature(u.accessToken)).get("/users/me"), 401));
  // Claims changed (another user), signature kept.
  EXPECT_TRUE(IsProblem(anon().withBearer(tamperPayload(u.accessToken, "sub", std::to_string(admin().id))).get("/users/me"),
                        401));
  EXPECT_TRUE(IsProblem(anon().withBearer(tamperPayload(u.accessToken, "exp", 4102444800LL)).get("/users/me"), 401));
}

TEST_F(AuthApi, AlgNoneTokenIs401) {
  auto u = registerUser("algnone");
  auto parts = decodeJwt(u.accessToken);
  // The genuine claims, re-sent unsigned.
  EXPECT_TRUE(IsProblem(anon().withBearer(unsignedJwt(parts.payload)).get("/users/me"), 401));
  // ...and claiming to be the instance admin.
  parts.payload->set("sub", std::to_string(admin().id));
  EXPECT_TRUE(IsProblem(anon().withBearer(unsignedJwt(parts.payload)).get("/admin/users"), 401));
  // Header alg none but the original signature kept.
  Poco::JSON::Object::Ptr header = new Poco::JSON::Object;
  header->set("alg", "none");
  header->set("typ", "JWT");
  auto original = decodeJwt(u.accessToken);
  const std::string mixed = base64UrlEncode(toJson(header)) + "." + original.payloadB64 + "." + original.signatureB64;
  EXPECT_TRUE(IsProblem(anon().withBearer(mixed).get("/users/me"), 401));
}

// Tokens forged with the daemon's own secret (read from its data dir): only the claim
// under test is wrong, so a 401 proves that claim is checked.
class ForgedTokenApi : public ApiTest {
 protected:
  // Generated into the data dir (SQLite), or configured (PostgreSQL, where every node
  // must share it: the test support writes it into the properties file).
  std::string secret() {
    const std::string path = daemon().dataDir() + "/jwt.secret";
    if (!std::filesystem::exists(path)) {
      std::istringstream config(readFile(daemon().configPath()));
      const std::string key = "auth.jwt_secret = ";
      for (std::string line; std::getline(config, line);)
        if (line.rfind(key, 0) == 0) return line.substr(key.size());
      return "";
    }
    auto s = readFile(path);
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    return s;
  }
};

TEST_F(ForgedTokenApi, ControlForgedTokenWithTheRealSecretIsAccepted) {
  const auto key = secret();
  if (key.empty()) GTEST_SKIP() << "the daemon keeps its secret elsewhere than <data>/jwt.secret";
  auto parts = decodeJwt(admin().accessToken);
  parts.payload->set("jti", "forged-" + unique());
  EXPECT_STATUS(anon().withBearer(signJwt(parts.header, parts.payload, key)).get("/users/me"), 200);
}

TEST_F(ForgedTokenApi, ExpiredTokenIs401) {
  const auto key = secret();
  if (key.empty()) GTEST_SKIP() << "the daemon keeps its secret elsewhere than <data>/jwt.secret";
  auto parts = decodeJwt(admin().accessToken);
  const auto now = static_cast<std::int64_t>(std::time(nullptr));
  parts.payload->set("iat", now - 1000);
  parts.payload->set("exp", now - 5);
  auto r = anon().withBearer(signJwt(parts.header, parts.payload, key)).get("/users/me");
  EXPECT_TRUE(IsProblem(r, 401));
}

TEST_F(ForgedTokenApi, OtherAlgorithmsAre401) {
  const auto key = secret();
  if (key.empty()) GTEST_SKIP() << "the daemon keeps its secret elsewhere than <data>/jwt.secret";
  auto parts = decodeJwt(admin().accessToken);
  for (const char* alg : {"HS384", "HS512"})
    EXPECT_TRUE(IsProblem(anon().withBearer(signJwt(parts.header, parts.payload, key, alg)).get("/users/me"), 401))
        << alg;
}

TEST_F(ForgedTokenApi, WrongAudienceOrIssuerIs401) {
  const auto key = secret();
  if (key.empty()) GTEST_SKIP() << "the daemon keeps its secret elsewhere than <data>/jwt.secret";
  auto aud = decodeJwt(admin().accessToken);
  aud.payload->set("aud", "some-other-api");
  EXPECT_TRUE(IsProblem(anon().withBearer(signJwt(aud.header, aud.payload, key)).get("/users/me"), 401));
  auto iss = decodeJwt(admin().accessToken);
  iss.payload->set("iss", "someone-else");
  EXPECT_TRUE(IsProblem(anon().withBearer(signJwt(iss.header, iss.payload, key)).get("/users/me"), 401));
}

TEST_F(ForgedTokenApi, TokenOfADeletedOrUnknownUserIs401) {
  const auto key = secret();
  if (key.empty()) GTEST_SKIP() << "the daemon keeps its secret elsewhere than <data>/jwt.secret";
  auto parts = decodeJwt(admin().accessToken);
  parts.payload->set("sub", "999999");
  EXPECT_TRUE(IsProblem(anon().withBearer(signJwt(parts.header, parts.payload, key)).get("/users/me"), 401));
}

TEST_F(ForgedTokenApi, OrgClaimIsNotTrusted) {
  // A token claiming an organization the user is not a member of does not open it.
  const auto key = secret();
  if (key.empty()) GTEST_SKIP() << "the daemon keeps its secret elsewhere than <data>/jwt.secret";
  auto victim = registerUser("victim");
  auto attacker = registerUser("attacker");
  auto parts = decodeJwt(attacker.accessToken);
  parts.payload->set("org", victim.personalOrgId);
  auto forged = anon().withBearer(signJwt(parts.header, parts.payload, key));
  auto r = forged.get("/organizations/" + std::to_string(victim.personalOrgId));
  EXPECT_EQ(r.status, 404) << r.describe();
  auto members = forged.get("/users");
  if (members.status == 200) {
    EXPECT_EQ(members.body.find(victim.email), std::string::npos) << members.describe();
  }
}

// A daemon whose access tokens live one second.
class ExpiringTokenApi : public ApiTest {
 public:
  static void SetUpTestSuite() { startDaemon(options({{"auth.access_token_ttl_seconds", "1"}})); }
};

TEST_F(ExpiringTokenApi, ExpiredAccessTokenIs401AndRefreshStillWorks) {
  auto u = registerUser("expiring");
  auto tokens = login(u.email, u.password);
  EXPECT_STATUS(anon().withBearer(tokens.accessToken).get("/users/me"), 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(2200));
  auto expired = anon().withBearer(tokens.accessToken).get("/users/me");
  EXPECT_TRUE(IsProblem(expired, 401));
  auto refreshed = anon().post("/auth/refresh", obj({{"refresh_token", tokens.refreshToken}}));
  ASSERT_STATUS(refreshed, 200);
  EXPECT_EQ(intField(refreshed.object(), "expires_in"), 1);
  EXPECT_STATUS(anon().withBearer(strField(refreshed.object(), "access_token")).get("/users/me"), 200);
}

// Failed-login throttling in a daemon of its own (the per-address budget is shared by
// every test, which all come from 127.0.0.1).
class LoginThrottleApi : public ApiTest {};

TEST_F(LoginThrottleApi, AccountIsThrottledAfterMaxFailures) {
  auto u = registerUser("throttle");
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(IsProblem(loginRaw(u.email, "wrong-password-" + std::to_string(i)), 401)) << i;
  auto blocked = loginRaw(u.email, "wrong-password-again");
  ASSERT_TRUE(IsProblem(blocked, 429));
  const int retryAfter = std::stoi(blocked.header("Retry-After"));
  EXPECT_GE(retryAfter, 1);
  EXPECT_LE(retryAfter, 900);
  // Even the right password waits now; the username names the same account.
  EXPECT_TRUE(IsProblem(loginRaw(u.email, u.password), 429));
  EXPECT_TRUE(IsProblem(loginRaw(u.username, u.password), 429));
  // Other accounts are not affected.
  auto other = registerUser("unthrottled");
  EXPECT_STATUS(loginRaw(other.email, other.password), 200);
  // Existing sessions keep working.
  EXPECT_STATUS(u.http.get("/users/me"), 200);
}

class AddressThrottleApi : public ApiTest {
 public:
  static void SetUpTestSuite() { startDaemon(options({{"auth.login_max_failures", "2"}})); }
};

TEST_F(AddressThrottleApi, ManyFailuresFromOneAddressAreThrottled) {
  // Each attempt names a different (unknown) account, so only the per-address budget
  // can stop it.
  int firstBlocked = -1;
  for (int i = 0; i < 60 && firstBlocked < 0; ++i) {
    auto r = loginRaw("spray-" + unique() + "@example.test", "guess");
    if (r.status == 429) {
      EXPECT_TRUE(IsProblem(r, 429));
      firstBlocked = i;
    } else {
      EXPECT_TRUE(IsProblem(r, 401)) << i;
    }
  }
  ASSERT_GE(firstBlocked, 0) << "60 failed logins from one address were never throttled";
  EXPECT_GE(firstBlocked, 2) << "throttled before any account reached its own limit";
}

}  // namespace
}  // namespace aev::testing

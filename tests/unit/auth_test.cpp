// auth/password_hasher.h, auth/login_throttle.h, auth/principal.h.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "auth/login_throttle.h"
#include "auth/password_hasher.h"
#include "auth/principal.h"
#include "common/errors.h"

namespace aev::auth {
namespace {

// Cheap parameters: these tests check behaviour, not cost.
PasswordHashOptions cheap() {
  PasswordHashOptions o;
  o.opsLimit = 1;
  o.memLimitKiB = 8 * 1024;
  o.concurrency = 2;
  return o;
}

TEST(PasswordHasher, HashIsArgon2idAndVerifies) {
  PasswordHasher hasher(cheap());
  auto encoded = hasher.hash("correct horse battery staple");
  EXPECT_EQ(encoded.rfind("$argon2id$", 0), 0u) << encoded;
  EXPECT_EQ(encoded.find("correct horse"), std::string::npos);
  EXPECT_TRUE(hasher.verify(encoded, "correct horse battery staple"));
  EXPECT_FALSE(hasher.verify(encoded, "correct horse battery stapler"));
  EXPECT_FALSE(hasher.verify(encoded, ""));
}

TEST(PasswordHasher, SaltedPerHash) {
  PasswordHasher hasher(cheap());
  auto a = hasher.hash("same password");
  auto b = hasher.hash("same password");
  EXPECT_NE(a, b);
  EXPECT_TRUE(hasher.verify(a, "same password"));
  EXPECT_TRUE(hasher.verify(b, "same password"));
}

TEST(PasswordHasher, HandlesUnusualPasswords) {
  PasswordHasher hasher(cheap());
  for (const std::string& pw : {std::string("p\xC3\xA4ssw\xC3\xB6rd"), std::string(1000, 'x'), std::string("a\0b", 3)}) {
    auto encoded = hasher.hash(pw);
    EXPECT_TRUE(hasher.verify(encoded, pw));
  }
  // Embedded NUL is significant.
  auto encoded = hasher.hash(std::string("a\0b", 3));
  EXPECT_FALSE(hasher.verify(encoded, "a"));
}

TEST(PasswordHasher, GarbageHashNeverVerifies) {
  PasswordHasher hasher(cheap());
  EXPECT_FALSE(hasher.verify("", "x"));
  EXPECT_FALSE(hasher.verify("not-a-hash", "not-a-hash"));
  EXPECT_FALSE(hasher.verify("$argon2id$v=19$m=8192,t=1,p=1$xx$yy", "x"));
}

TEST(PasswordHasher, BurnDoesNotThrow) {
  PasswordHasher hasher(cheap());
  EXPECT_NO_THROW(hasher.burn("whatever"));
}

TEST(PasswordHasher, ParametersBelowTheMinimumAreRaised) {
  PasswordHashOptions o;
  o.opsLimit = 0;
  o.memLimitKiB = 0;
  o.concurrency = 0;
  PasswordHasher hasher(o);
  EXPECT_TRUE(hasher.verify(hasher.hash("pw"), "pw"));
}

TEST(PasswordHasher, SaturatedHasherAnswers503) {
  PasswordHashOptions o;
  o.opsLimit = 3;
  o.memLimitKiB = 64 * 1024;  // slow enough to hold the only slot for a while
  o.concurrency = 1;
  o.maxWaitMs = 1;
  PasswordHasher hasher(o);
  std::atomic<bool> started{false};
  std::thread slow([&] {
    started = true;
    for (int i = 0; i < 3; ++i) hasher.hash("slow");
  });
  while (!started) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  int status = 0;
  for (int i = 0; i < 20 && status == 0; ++i) {
    try {
      hasher.hash("fast");
    } catch (const ApiError& e) {
      status = e.status();
      EXPECT_TRUE(e.headers().count("Retry-After"));
    }
  }
  slow.join();
  EXPECT_EQ(status, 503);
}

TEST(LoginThrottle, AllowsUntilTheAccountBudgetIsSpent) {
  LoginThrottle t(3, 100, std::chrono::seconds(60));
  for (int i = 0; i < 3; ++i) {
    EXPECT_NO_THROW(t.check("alice", "10.0.0.1"));
    t.recordFailure("alice", "10.0.0.1");
  }
  try {
    t.check("alice", "10.0.0.2");  // another address does not help the account
    FAIL() << "expected 429";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status(), 429);
    ASSERT_TRUE(e.headers().count("Retry-After"));
    int wait = std::stoi(e.headers().at("Retry-After"));
    EXPECT_GE(wait, 1);
    EXPECT_LE(wait, 60);
  }
  EXPECT_NO_THROW(t.check("bob", "10.0.0.1"));  // other accounts are unaffected
}

TEST(LoginThrottle, AddressBudgetSpansAccounts) {
  LoginThrottle t(100, 3, std::chrono::seconds(60));
  t.recordFailure("a", "10.0.0.9");
  t.recordFailure("b", "10.0.0.9");
  t.recordFailure("c", "10.0.0.9");
  EXPECT_THROW(t.check("d", "10.0.0.9"), ApiError);
  EXPECT_NO_THROW(t.check("d", "10.0.0.10"));
}

TEST(LoginThrottle, SuccessForgivesTheAccount) {
  LoginThrottle t(2, 100, std::chrono::seconds(60));
  t.recordFailure("carol", "10.0.0.1");
  t.recordSuccess("carol");
  t.recordFailure("carol", "10.0.0.1");
  EXPECT_NO_THROW(t.check("carol", "10.0.0.1"));
}

TEST(LoginThrottle, FailuresLeaveTheWindow) {
  LoginThrottle t(2, 100, std::chrono::seconds(1));
  t.recordFailure("dave", "10.0.0.1");
  t.recordFailure("dave", "10.0.0.1");
  EXPECT_THROW(t.check("dave", "10.0.0.1"), ApiError);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_NO_THROW(t.check("dave", "10.0.0.1"));
}

TEST(Principal, Scopes) {
  Principal p;
  p.kind = Principal::Kind::ApiKey;
  p.scopes = {"publish", "read"};
  EXPECT_TRUE(p.hasScope("publish"));
  EXPECT_TRUE(p.hasScope("read"));
  EXPECT_FALSE(p.hasScope("subscribe"));
  EXPECT_FALSE(p.isUser());
}

TEST(Principal, RequireOrgAndAdmin) {
  Principal p;
  try {
    p.requireOrg();
    FAIL() << "expected 403";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status(), 403);
  }
  p.orgId = 9;
  p.role = "user";
  EXPECT_EQ(p.requireOrg(), 9);
  try {
    p.requireOrgAdmin();
    FAIL() << "expected 403";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status(), 403);
  }
  p.role = "admin";
  EXPECT_NO_THROW(p.requireOrgAdmin());
  // The instance admin flag does not make someone an org admin.
  Principal instanceAdmin;
  instanceAdmin.instanceAdmin = true;
  instanceAdmin.orgId = 3;
  instanceAdmin.role = "user";
  EXPECT_THROW(instanceAdmin.requireOrgAdmin(), ApiError);
}

}  // namespace
}  // namespace aev::auth

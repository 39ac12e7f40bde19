#pragma once
// Sessions: login with password, access + refresh token pairs, refresh rotation with
// reuse detection (a rotated refresh token presented again revokes its whole family),
// logout. Refresh tokens are opaque random strings stored as SHA-256 hashes.
#include <optional>
#include <string>

#include "audit/actor.h"
#include "auth/jwt.h"
#include "auth/login_throttle.h"
#include "auth/password_hasher.h"
#include "store/credential_repositories.h"
#include "store/database.h"
#include "store/organization_repository.h"
#include "store/user_repository.h"

namespace aev::audit {
class AuditLog;
}

namespace aev::auth {

struct TokenPair {
  std::string accessToken;
  std::string refreshToken;
  int expiresIn = 0;
};

class SessionService {
 public:
  SessionService(store::Database& db, audit::AuditLog& audit, JwtCodec& jwt, PasswordHasher& hasher,
                 LoginThrottle& throttle, int refreshTtlSeconds);

  // `origin` carries the client address and request id; a successful login is recorded
  // as user.login in the audit log of the organization the session acts on.
  TokenPair login(const std::string& login, const std::string& password, const audit::Actor& origin);
  TokenPair refresh(const std::string& refreshToken);
  void logout(const std::string& refreshToken);
  // A fresh pair (new family) for a user acting on orgId, e.g. after creating or
  // switching organizations. Runs on the caller's connection/transaction.
  TokenPair issueFor(std::int64_t userId, std::optional<std::int64_t> orgId);
  TokenPair issue(store::Connection& conn, std::int64_t userId, std::optional<std::int64_t> orgId,
                  const std::string& familyId = "");

 private:
  store::Database& db_;
  audit::AuditLog& audit_;
  JwtCodec& jwt_;
  PasswordHasher& hasher_;
  LoginThrottle& throttle_;
  int refreshTtlSeconds_;
  store::UserRepository users_;
  store::MembershipRepository memberships_;
  store::RefreshTokenRepository tokens_;
};

}  // namespace aev::auth

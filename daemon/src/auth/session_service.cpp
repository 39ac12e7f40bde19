#include "auth/session_service.h"

#include <Poco/String.h>
#include <spdlog/spdlog.h>

#include "audit/audit_log.h"
#include "common/clock.h"
#include "common/crypto.h"
#include "common/encoding.h"
#include "common/errors.h"

namespace aev::auth {

namespace {
constexpr const char* kRefreshPrefix = "aer_";
}

SessionService::SessionService(store::Database& db, audit::AuditLog& audit, JwtCodec& jwt, PasswordHasher& hasher,
                               LoginThrottle& throttle, int refreshTtlSeconds)
    : db_(db), audit_(audit), jwt_(jwt), hasher_(hasher), throttle_(throttle), refreshTtlSeconds_(refreshTtlSeconds) {}

TokenPair SessionService::issue(store::Connection& conn, std::int64_t userId, std::optional<std::int64_t> orgId,
                                const std::string& familyId) {
  AccessClaims claims;
  claims.userId = userId;
  if (orgId) {
    if (auto m = memberships_.find(conn, *orgId, userId)) {
      claims.orgId = orgId;
      claims.roles = {m->role};
    }
  }
  TokenPair pair;
  pair.accessToken = jwt_.issue(claims);
  pair.expiresIn = jwt_.ttlSeconds();
  pair.refreshToken = std::string(kRefreshPrefix) + base64UrlEncode(crypto::randomBytes(32));
  store::RefreshTokenRecord record;
  record.familyId = familyId.empty() ? base64UrlEncode(crypto::randomBytes(12)) : familyId;
  record.userId = userId;
  record.orgId = claims.orgId;
  record.createdAt = clock::nowMicros();
  record.expiresAt = record.createdAt + static_cast<std::int64_t>(refreshTtlSeconds_) * clock::kSecond;
  tokens_.insert(conn, record, crypto::sha256Hex(pair.refreshToken));
  return pair;
}

TokenPair SessionService::issueFor(std::int64_t userId, std::optional<std::int64_t> orgId) {
  return db_.transaction([&](store::Connection& conn) { return issue(conn, userId, orgId); });
}

TokenPair SessionService::login(const std::string& loginName, const std::string& password,
                                 const audit::Actor& origin) {
  const auto& clientAddress = origin.ipAddress;
  const auto login = Poco::toLower(loginName);
  std::optional<store::UserRecord> user;
  {
    auto conn = db_.acquire();
    user = users_.byLogin(*conn, login);
  }
  // Throttle the account, whichever of its names is typed; unknown names by their text.
  const auto account = user ? "user:" + std::to_string(user->id) : "login:" + login;
  throttle_.check(account, clientAddress);
  // The hash check runs outside any database connection: it is the slow part.
  const bool ok = user ? hasher_.verify(user->passwordHash, password) : (hasher_.burn(password), false);
  if (!ok) {
    throttle_.recordFailure(account, clientAddress);
    throw errors::unauthorized("Invalid login or password.");
  }
  if (user->disabledAt) throw errors::forbidden("This account is disabled or awaiting approval.");
  throttle_.recordSuccess(account);
  return db_.transaction([&](store::Connection& conn) {
    auto pair = issue(conn, user->id, user->activeOrgId);
    if (user->activeOrgId && memberships_.find(conn, *user->activeOrgId, user->id)) {
      auto actor = origin;
      actor.source = "dashboard";
      actor.actorId = std::to_string(user->id);
      actor.actorEmail = user->email;
      audit_.record(conn, *user->activeOrgId, actor, audit::Change::of("user", "login", user->id));
    }
    return pair;
  });
}

TokenPair SessionService::refresh(const std::string& refreshToken) {
  const auto hash = crypto::sha256Hex(refreshToken);
  const auto now = clock::nowMicros();
  // Reuse detection must commit even though the caller gets a 401, so the transaction
  // returns what to do and the error is thrown after commit.
  enum class Outcome { Ok, Invalid, Reused, Disabled };
  Outcome outcome = Outcome::Invalid;
  auto pair = db_.transaction([&](store::Connection& conn) -> TokenPair {
    auto token = tokens_.byHash(conn, hash);
    if (!token || token->expiresAt <= now) return {};
    if (token->usedAt || token->revokedAt || !tokens_.markUsed(conn, token->id, now)) {
      tokens_.revokeFamily(conn, token->familyId, now);
      outcome = Outcome::Reused;
      spdlog::warn("refresh token reuse detected for user {}: family revoked", token->userId);
      return {};
    }
    auto user = users_.byId(conn, token->userId);
    if (!user || user->disabledAt) {
      outcome = Outcome::Disabled;
      return {};
    }
    outcome = Outcome::Ok;
    // Keep the organization the session was using if the user is still a member.
    return issue(conn, user->id, token->orgId ? token->orgId : user->activeOrgId, token->familyId);
  });
  switch (outcome) {
    case Outcome::Ok: return pair;
    case Outcome::Reused: throw errors::unauthorized("Refresh token already used; the session has been revoked.");
    case Outcome::Disabled: throw errors::forbidden("This account is disabled.");
    case Outcome::Invalid: break;
  }
  throw errors::unauthorized("Invalid or expired refresh token.");
}

void SessionService::logout(const std::string& refreshToken) {
  const auto now = clock::nowMicros();
  db_.transaction([&](store::Connection& conn) {
    auto token = tokens_.byHash(conn, crypto::sha256Hex(refreshToken));
    if (!token) throw errors::unauthorized("Invalid refresh token.");
    tokens_.revokeFamily(conn, token->familyId, now);
  });
}

}  // namespace aev::auth

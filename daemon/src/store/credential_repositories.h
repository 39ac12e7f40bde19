#pragma once
// API keys, refresh tokens, invitations and access requests: every secret is stored
// only as its SHA-256 hash, looked up by that hash.
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"
#include "store/records.h"

namespace aev::store {

class ApiKeyRepository {
 public:
  std::int64_t insert(Connection& c, const ApiKeyRecord& k, const std::string& keyHash);
  std::vector<ApiKeyRecord> list(Connection& c, std::int64_t orgId);
  std::optional<ApiKeyRecord> byId(Connection& c, std::int64_t orgId, std::int64_t id);
  std::optional<ApiKeyRecord> byHash(Connection& c, const std::string& keyHash);
  // Name and default channel of a live key; false when there is none with that id.
  bool update(Connection& c, const ApiKeyRecord& k);
  bool revoke(Connection& c, std::int64_t orgId, std::int64_t id, std::int64_t at);
};

class RefreshTokenRepository {
 public:
  void insert(Connection& c, const RefreshTokenRecord& t, const std::string& tokenHash);
  std::optional<RefreshTokenRecord> byHash(Connection& c, const std::string& tokenHash);
  // Marks a token used only if it still is unused and unrevoked; false when another
  // request got there first (the loser is treated as reuse).
  bool markUsed(Connection& c, std::int64_t id, std::int64_t at);
  void revokeFamily(Connection& c, const std::string& familyId, std::int64_t at);
  void revokeAllOfUser(Connection& c, std::int64_t userId, std::int64_t at);
  void deleteExpired(Connection& c, std::int64_t before);
};

class InvitationRepository {
 public:
  std::int64_t insert(Connection& c, const InvitationRecord& inv, const std::string& codeHash);
  std::vector<InvitationRecord> list(Connection& c, std::int64_t orgId);
  std::optional<InvitationRecord> byCodeHash(Connection& c, const std::string& codeHash);
  std::int64_t countPending(Connection& c, std::int64_t orgId, std::int64_t now);
  bool hasPendingFor(Connection& c, std::int64_t orgId, const std::string& email, std::int64_t now);
  bool accept(Connection& c, std::int64_t id, std::int64_t userId, std::int64_t at);
};

class AccessRequestRepository {
 public:
  std::int64_t insert(Connection& c, std::int64_t userId, std::int64_t at);
  std::vector<AccessRequestRecord> list(Connection& c, const std::optional<std::string>& status);
  std::optional<AccessRequestRecord> byId(Connection& c, std::int64_t id);
  void decide(Connection& c, std::int64_t id, const std::string& status, std::int64_t by, std::int64_t at);
};

std::string joinScopes(const std::vector<std::string>& scopes);
std::vector<std::string> splitScopes(const std::string& text);

}  // namespace aev::store

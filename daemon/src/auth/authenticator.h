#pragma once
// Turns request credentials into a Principal, checking on every request what a token
// cannot prove by itself: the user still exists and is enabled, is still a member of
// the organization acted on (with the role the store says), the API key is not revoked.
#include <string>

#include "auth/api_key_service.h"
#include "auth/jwt.h"
#include "auth/principal.h"
#include "common/errors.h"
#include "store/database.h"
#include "store/organization_repository.h"
#include "store/user_repository.h"

namespace aev::auth {

class Authenticator {
 public:
  Authenticator(store::Database& db, JwtCodec& jwt, ApiKeyService& apiKeys) : db_(db), jwt_(jwt), apiKeys_(apiKeys) {}

  // Bearer token only (every endpoint not listed as an API-key endpoint).
  Principal user(const Credentials& credentials);
  // Bearer token, or an API key that carries `scope` (403 when it does not).
  Principal userOrApiKey(const Credentials& credentials, const std::string& scope);
  // Bearer token of the instance admin (/admin/...).
  Principal instanceAdmin(const Credentials& credentials);
  // The issuer of a stream token, re-checked: the API key is not revoked (401), the user
  // exists, is enabled and still a member of the organization (401 / 403).
  Principal streamTokenIssuer(std::int64_t orgId, std::int64_t userId, std::int64_t apiKeyId);

 private:
  Principal fromBearer(const std::string& authorization, const std::string& tenantId);
  Principal fromApiKey(const std::string& key, const std::string& tenantId);

  store::Database& db_;
  JwtCodec& jwt_;
  ApiKeyService& apiKeys_;
  store::UserRepository users_;
  store::MembershipRepository memberships_;
};

// A 401 whose detail ends with the credential forms the route accepts (and, when Basic is
// one of them, a WWW-Authenticate that offers it).
ApiError unauthorizedNaming(const std::string& detail, bool userTokens, bool basic);

// x-tenant-id parsed: std::nullopt when absent, 400 when not a positive integer.
std::optional<std::int64_t> parseTenantId(const std::string& header);

}  // namespace aev::auth

#include "auth/authenticator.h"

#include <Poco/String.h>

#include <charconv>

#include "auth/credential_forms.h"
#include "common/errors.h"
#include "store/credential_repositories.h"

namespace aev::auth {

std::optional<std::int64_t> parseTenantId(const std::string& header) {
  if (header.empty()) return std::nullopt;
  std::int64_t id = 0;
  auto [ptr, ec] = std::from_chars(header.data(), header.data() + header.size(), id);
  if (ec != std::errc() || ptr != header.data() + header.size() || id <= 0)
    throw errors::badRequest("x-tenant-id must be an organization id (a positive integer).");
  return id;
}

Principal Authenticator::fromBearer(const std::string& authorization, const std::string& tenantHeader) {
  static const std::string kScheme = "bearer ";
  if (authorization.size() <= kScheme.size() || Poco::toLower(authorization.substr(0, kScheme.size())) != kScheme)
    throw errors::unauthorized("Use Authorization: Bearer <access token>.");
  auto claims = jwt_.verify(Poco::trim(authorization.substr(kScheme.size())));
  if (!claims) throw errors::unauthorized("The access token is invalid or expired.");
  const auto tenant = parseTenantId(tenantHeader);

  auto conn = db_.acquire();
  auto user = users_.byId(*conn, claims->userId);
  if (!user) throw errors::unauthorized("The access token's user no longer exists.");
  if (user->disabledAt) throw errors::forbidden("This account is disabled.");

  Principal p;
  p.kind = Principal::Kind::User;
  p.userId = user->id;
  p.email = user->email;
  p.instanceAdmin = user->instanceAdmin;
  if (tenant) {
    auto m = memberships_.find(*conn, *tenant, user->id);
    if (!m) throw errors::forbidden("You are not a member of the organization named by x-tenant-id.");
    p.orgId = *tenant;
    p.role = m->role;
  } else if (claims->orgId) {
    // A member removed since the token was issued loses the organization at once.
    if (auto m = memberships_.find(*conn, *claims->orgId, user->id)) {
      p.orgId = claims->orgId;
      p.role = m->role;
    }
  }
  return p;
}

Principal Authenticator::fromApiKey(const std::string& key, const std::string& tenantHeader) {
  const auto tenant = parseTenantId(tenantHeader);
  auto record = apiKeys_.authenticate(key);
  if (!record) throw errors::unauthorized("The API key is invalid or revoked.");
  if (tenant && *tenant != record->orgId)
    throw errors::forbidden("x-tenant-id does not match the API key's organization.");
  Principal p;
  p.kind = Principal::Kind::ApiKey;
  p.orgId = record->orgId;
  p.apiKeyId = record->id;
  p.scopes = record->scopes;
  return p;
}

Principal Authenticator::user(const Credentials& c) {
  if (c.authorization.empty()) {
    if (!c.apiKey.empty()) {
      // Validate the key first so a revoked key reads as 401, not as a scope problem.
      fromApiKey(c.apiKey, c.tenantId);
      throw errors::forbidden("This endpoint needs a user session (Bearer token), not an API key.");
    }
    throw errors::unauthorized("Authentication required: Authorization: Bearer <access token>.");
  }
  return fromBearer(c.authorization, c.tenantId);
}

Principal Authenticator::userOrApiKey(const Credentials& c, const std::string& scope) {
  try {
    if (!c.authorization.empty()) return fromBearer(c.authorization, c.tenantId);
    if (c.apiKey.empty()) throw errors::unauthorized("Authentication required.");
    auto p = fromApiKey(c.apiKey, c.tenantId);
    if (!scope.empty() && !p.hasScope(scope)) throw errors::forbidden("The API key lacks the '" + scope + "' scope.");
    return p;
  } catch (const ApiError& e) {
    // Every 401 names the forms this route accepts, so a client sending the key in a form
    // it does not take (or none) learns the ones it does.
    if (e.status() != 401) throw;
    throw unauthorizedNaming(e.detail(), true, c.basicAccepted);
  }
}

ApiError unauthorizedNaming(const std::string& detail, bool userTokens, bool basic) {
  auto e = errors::unauthorized(detail + " Accepted: " + acceptedCredentialForms(userTokens, basic) + ".");
  if (basic) e.withHeader("WWW-Authenticate", "Bearer realm=\"agent-events\", Basic realm=\"agent-events\"");
  return e;
}

Principal Authenticator::streamTokenIssuer(std::int64_t orgId, std::int64_t userId, std::int64_t apiKeyId) {
  auto conn = db_.acquire();
  Principal p;
  p.orgId = orgId;
  if (apiKeyId) {
    auto key = store::ApiKeyRepository().byId(*conn, orgId, apiKeyId);
    if (!key || key->revokedAt) throw errors::unauthorized("The API key that issued this stream token is revoked.");
    p.kind = Principal::Kind::ApiKey;
    p.apiKeyId = apiKeyId;
  } else if (userId) {
    auto user = users_.byId(*conn, userId);
    if (!user) throw errors::unauthorized("The stream token's user no longer exists.");
    if (user->disabledAt) throw errors::forbidden("This account is disabled.");
    if (!memberships_.find(*conn, orgId, userId))
      throw errors::forbidden("The stream token's user is no longer a member of the organization.");
    p.kind = Principal::Kind::User;
    p.userId = userId;
  }
  return p;
}

Principal Authenticator::instanceAdmin(const Credentials& c) {
  auto p = user(c);
  if (!p.instanceAdmin) throw errors::forbidden("This endpoint is for the instance administrator.");
  return p;
}

}  // namespace aev::auth

#pragma once
// Who is calling and on behalf of which organization, as established per request by
// the Authenticator from a Bearer token or an API key (never trusted from claims alone:
// membership and role are read from the store on every request).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aev::auth {

struct Credentials {
  std::string authorization;  // "Bearer <jwt>" (an API key sent as Bearer is moved to apiKey)
  std::string apiKey;         // from any of the key forms of auth/credential_forms.h
  std::string tenantId;       // x-tenant-id
  bool basicAccepted = false;  // the route takes Authorization: Basic (OTLP): named in a 401
};

struct Principal {
  enum class Kind { User, ApiKey };
  Kind kind = Kind::User;
  std::int64_t userId = 0;  // 0 for API keys
  std::string email;
  bool instanceAdmin = false;
  std::optional<std::int64_t> orgId;  // the organization acted on
  std::string role;                   // membership role in orgId: "admin" | "user" | ""
  std::int64_t apiKeyId = 0;
  std::vector<std::string> scopes;

  bool isUser() const { return kind == Kind::User; }
  bool hasScope(const std::string& scope) const;
  // The organization acted on, or 403 when the caller has none.
  std::int64_t requireOrg() const;
  // 403 unless the caller is an admin member of the organization acted on.
  void requireOrgAdmin() const;
};

}  // namespace aev::auth

#pragma once
// HS256 access tokens (docs/api.md#authentication). The algorithm is pinned: a token whose header
// names any other algorithm, `none` included, is refused before its signature is read.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aev::auth {

struct AccessClaims {
  std::int64_t userId = 0;
  std::optional<std::int64_t> orgId;
  std::vector<std::string> roles;
  std::string jti;
  std::int64_t issuedAt = 0;   // seconds since epoch
  std::int64_t expiresAt = 0;  // seconds since epoch
};

struct JwtOptions {
  std::string secret;
  std::string issuer = "agent-events";
  std::string audience = "agent-events-api";
  int ttlSeconds = 900;
};

class JwtCodec {
 public:
  explicit JwtCodec(JwtOptions options);
  // Fills iat/exp/jti and returns the compact token.
  std::string issue(AccessClaims& claims) const;
  // std::nullopt for any token that is malformed, not HS256, badly signed, expired,
  // not yet valid, or meant for another issuer/audience.
  std::optional<AccessClaims> verify(const std::string& token) const;
  int ttlSeconds() const { return options_.ttlSeconds; }

 private:
  JwtOptions options_;
};

// Reads the server secret from the data dir, creating it (0600) on first start.
std::string loadOrCreateSecret(const std::string& dataDir);

}  // namespace aev::auth

#pragma once
// Short-lived stream tokens for browsers, whose EventSource cannot send headers
// (docs/api.md#streaming-and-resume): bound to one channel and organization, HMAC-SHA256 signed with the
// server secret (domain-separated from JWTs), valid to *connect* for a few minutes.
#include <cstdint>
#include <optional>
#include <string>

namespace aev::auth {

struct StreamGrant {
  std::int64_t orgId = 0;
  std::int64_t channelId = 0;
  std::int64_t expiresAt = 0;  // µs
  // Who asked for it (one of them, or neither): connecting re-checks that they still may,
  // and their revocation ends the streams it opened.
  std::int64_t userId = 0;
  std::int64_t apiKeyId = 0;
};

class StreamTokens {
 public:
  StreamTokens(std::string secret, int ttlSeconds) : secret_(std::move(secret)), ttlSeconds_(ttlSeconds) {}
  std::pair<std::string, StreamGrant> issue(std::int64_t orgId, std::int64_t channelId, std::int64_t userId = 0,
                                            std::int64_t apiKeyId = 0) const;
  // The grant, if the token is well-formed, correctly signed and not expired.
  std::optional<StreamGrant> verify(const std::string& token) const;

 private:
  std::string sign(const std::string& payload) const;
  std::string secret_;
  int ttlSeconds_;
};

}  // namespace aev::auth

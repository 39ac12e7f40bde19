#include "auth/stream_tokens.h"

#include <charconv>
#include <vector>

#include "common/clock.h"
#include "common/crypto.h"
#include "common/encoding.h"

namespace aev::auth {

namespace {
constexpr const char* kStreamTokenPrefix = "st_";

std::optional<std::int64_t> number(const std::string& s) {
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}
}  // namespace

std::string StreamTokens::sign(const std::string& payload) const {
  return base64UrlEncode(crypto::hmacSha256(secret_, std::string("agent-events/stream-token/v1\n") + payload));
}

std::pair<std::string, StreamGrant> StreamTokens::issue(std::int64_t orgId, std::int64_t channelId,
                                                        std::int64_t userId, std::int64_t apiKeyId) const {
  StreamGrant g{orgId, channelId, clock::nowMicros() + static_cast<std::int64_t>(ttlSeconds_) * clock::kSecond, userId,
                apiKeyId};
  // payload: org.channel.expiry.nonce.user.key — plain decimal fields, no parsing ambiguity.
  const std::string payload = std::to_string(orgId) + "." + std::to_string(channelId) + "." +
                              std::to_string(g.expiresAt) + "." + crypto::randomBase62(8) + "." +
                              std::to_string(userId) + "." + std::to_string(apiKeyId);
  return {kStreamTokenPrefix + payload + "." + sign(payload), g};
}

std::optional<StreamGrant> StreamTokens::verify(const std::string& token) const {
  if (token.size() > 256 || token.rfind(kStreamTokenPrefix, 0) != 0) return std::nullopt;
  const std::string body = token.substr(3);
  const auto lastDot = body.rfind('.');
  if (lastDot == std::string::npos) return std::nullopt;
  const std::string payload = body.substr(0, lastDot);
  if (!crypto::constantTimeEquals(sign(payload), body.substr(lastDot + 1))) return std::nullopt;
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t dot; (dot = payload.find('.', start)) != std::string::npos; start = dot + 1)
    parts.push_back(payload.substr(start, dot - start));
  parts.push_back(payload.substr(start));
  if (parts.size() != 6) return std::nullopt;
  auto org = number(parts[0]), channel = number(parts[1]), exp = number(parts[2]);
  auto user = number(parts[4]), key = number(parts[5]);
  if (!org || !channel || !exp || !user || !key || *exp <= clock::nowMicros()) return std::nullopt;
  return StreamGrant{*org, *channel, *exp, *user, *key};
}

}  // namespace aev::auth

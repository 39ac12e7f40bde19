#pragma once
// Standard Webhooks signing (https://www.standardwebhooks.com, docs/features.md#webhooks): the secret
// is "whsec_" + base64 of random bytes; a message is signed as
//   webhook-signature: v1,<base64 HMAC-SHA256(secret bytes, "<id>.<timestamp>.<body>")>
// with webhook-id (the same on every attempt of one message) and webhook-timestamp
// (Unix seconds of this attempt).
#include <cstdint>
#include <string>
#include <string_view>

namespace aev::webhooks {

constexpr std::string_view kSecretPrefix = "whsec_";

// A new secret: whsec_ + base64 of 24 random bytes.
std::string newSecret();
// The key bytes of a secret (base64 after the prefix). Throws std::invalid_argument
// when it is not of that form.
std::string secretKey(std::string_view secret);
// "v1,<base64 signature>".
std::string sign(std::string_view secret, std::string_view messageId, std::int64_t timestampSeconds,
                 std::string_view body);

}  // namespace aev::webhooks

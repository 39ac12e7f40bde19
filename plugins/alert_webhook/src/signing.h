// Standard Webhooks signatures (https://www.standardwebhooks.com), the scheme the daemon's
// own webhooks use, over libsodium: the plugin carries no cryptography of its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace webhook {

// Call once before the functions below (the plugin's onLoad hook does).
void initCrypto();

// The key of a "whsec_<base64>" secret; nullopt when the prefix is missing or the base64
// is not canonical (bad characters, missing or wrong padding, non-zero trailing bits).
std::optional<std::string> decodeSecret(std::string_view secret);

// "msg_" + the first 12 bytes of SHA-256(notification) in hex: the same notification
// keeps its id across retries, so receivers can deduplicate.
std::string messageId(std::string_view notification);

// "v1,<base64 HMAC-SHA256(key, id.timestamp.body)>".
std::string signature(std::string_view key, std::string_view id, std::int64_t timestamp, std::string_view body);

}  // namespace webhook

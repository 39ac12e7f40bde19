// Standard Webhooks signatures (https://www.standardwebhooks.com), as the daemon's own
// webhooks use (decisions §7): SHA-256, HMAC-SHA256 and base64, in plain C++ so the
// plugin needs nothing beyond the SDK, the standard library and libcurl.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace webhook {

std::array<std::uint8_t, 32> sha256(std::string_view data);
std::array<std::uint8_t, 32> hmacSha256(std::string_view key, std::string_view message);
std::string base64Encode(std::string_view bytes);
std::optional<std::string> base64Decode(std::string_view text);

// "v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>"; secret is the decoded key.
std::string signature(std::string_view secret, std::string_view id, std::int64_t timestamp, std::string_view body);

}  // namespace webhook

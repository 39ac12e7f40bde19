#pragma once
// Small cryptographic helpers over libsodium (hex and base64: common/encoding.h).
#include <cstddef>
#include <string>
#include <string_view>

namespace aev::crypto {

std::string randomBytes(std::size_t n);
// Alphanumeric encoding of random bytes ([0-9A-Za-z]), used in key formats.
std::string randomBase62(std::size_t chars);
std::string sha256Hex(std::string_view data);
std::string hmacSha256(std::string_view key, std::string_view data);  // raw bytes
bool constantTimeEquals(std::string_view a, std::string_view b);

}  // namespace aev::crypto

#pragma once
// Hex and base64, written once for the whole daemon (libsodium underneath, constant time).
#include <optional>
#include <string>
#include <string_view>

namespace aev {

// The digits hexEncode writes, for code that writes one or two in place (a \u00XX escape).
inline constexpr char kLowerHexDigits[] = "0123456789abcdef";

// Two lowercase hex digits per byte.
std::string hexEncode(std::string_view bytes);
// Either case; nothing for an odd length or a character that is not a hex digit.
std::optional<std::string> hexDecode(std::string_view hex);

// RFC 4648 §4, padded (webhook signatures, secrets, keys).
std::string base64Encode(std::string_view bytes);
// RFC 4648 §5, URL-safe and unpadded (tokens).
std::string base64UrlEncode(std::string_view bytes);
// RFC 4648 §4, strictly: the standard alphabet, with exactly the padding the length
// needs, and unused trailing bits zero. Characters in `ignore` (e.g. " \t\r\n" for a key
// file) are skipped; anything else malformed gives nothing.
std::optional<std::string> base64Decode(std::string_view text, const char* ignore = nullptr);
// Leniently, for OTLP/JSON `bytesValue`s: the protobuf JSON mapping lets writers use
// either alphabet, padded or not, so both are read in one pass (libsodium decodes one
// variant per call). Nothing for a character of neither alphabet or a length no encoding
// produces.
std::optional<std::string> base64DecodeAnyAlphabet(std::string_view text);

}  // namespace aev

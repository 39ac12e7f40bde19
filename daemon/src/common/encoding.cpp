#include "common/encoding.h"

#include <sodium.h>

#include <cstdint>

namespace aev {

namespace {

std::string encodeBase64(std::string_view bytes, int variant) {
  std::string out(sodium_base64_encoded_len(bytes.size(), variant), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
                    variant);
  out.resize(out.size() - 1);  // the terminating NUL sodium counts in the length
  return out;
}

// A digit of either base64 alphabet (standard "+/", URL-safe "-_"), or -1.
int base64Digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

}  // namespace

std::string hexEncode(std::string_view bytes) {
  std::string out(bytes.size() * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  out.pop_back();  // sodium's terminating NUL
  return out;
}

std::optional<std::string> hexDecode(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out(hex.size() / 2, '\0');
  std::size_t length = 0;
  const char* end = nullptr;
  if (sodium_hex2bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), hex.data(), hex.size(), nullptr, &length,
                     &end) != 0 ||
      end != hex.data() + hex.size() || length != out.size())
    return std::nullopt;
  return out;
}

std::string base64Encode(std::string_view bytes) { return encodeBase64(bytes, sodium_base64_VARIANT_ORIGINAL); }

std::string base64UrlEncode(std::string_view bytes) {
  return encodeBase64(bytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

std::optional<std::string> base64Decode(std::string_view text, const char* ignore) {
  std::string out(text.size() / 4 * 3 + 3, '\0');
  std::size_t length = 0;
  const char* end = nullptr;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(), text.size(), ignore,
                        &length, &end, sodium_base64_VARIANT_ORIGINAL) != 0 ||
      end != text.data() + text.size())
    return std::nullopt;
  out.resize(length);
  return out;
}

std::optional<std::string> base64DecodeAnyAlphabet(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  // One leftover character carries only 6 bits: never a whole byte, so not base64.
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t bits = 0;
  int bitCount = 0;
  for (char c : text) {
    const int d = base64Digit(c);
    if (d < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<std::uint32_t>(d);
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      out.push_back(static_cast<char>((bits >> bitCount) & 0xff));
    }
  }
  return out;
}

}  // namespace aev

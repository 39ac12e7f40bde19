#include "signing.h"

#include <sodium.h>

#include <stdexcept>

namespace webhook {

namespace {

const unsigned char* bytes(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

}  // namespace

void initCrypto() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
}

std::optional<std::string> decodeSecret(std::string_view secret) {
  constexpr std::string_view kPrefix = "whsec_";
  if (secret.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::string_view text = secret.substr(kPrefix.size());
  std::string key(text.size() / 4 * 3 + 3, '\0');
  std::size_t keyLen = 0;
  const char* end = nullptr;
  // No characters to ignore: whitespace, stray or missing padding all fail, as does text
  // after the padding (end must reach the end of the input).
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(key.data()), key.size(), text.data(), text.size(), nullptr,
                        &keyLen, &end, sodium_base64_VARIANT_ORIGINAL) != 0 ||
      end != text.data() + text.size())
    return std::nullopt;
  key.resize(keyLen);
  return key;
}

std::string messageId(std::string_view notification) {
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, bytes(notification), notification.size());
  char hex[2 * 12 + 1];
  sodium_bin2hex(hex, sizeof hex, digest, 12);
  return std::string("msg_") + hex;
}

std::string signature(std::string_view key, std::string_view id, std::int64_t timestamp, std::string_view body) {
  const std::string ts = std::to_string(timestamp);
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, bytes(key), key.size());
  for (std::string_view part : {id, std::string_view("."), std::string_view(ts), std::string_view("."), body})
    crypto_auth_hmacsha256_update(&state, bytes(part), part.size());
  unsigned char mac[crypto_auth_hmacsha256_BYTES];
  crypto_auth_hmacsha256_final(&state, mac);
  char text[sodium_base64_ENCODED_LEN(crypto_auth_hmacsha256_BYTES, sodium_base64_VARIANT_ORIGINAL)];
  sodium_bin2base64(text, sizeof text, mac, sizeof mac, sodium_base64_VARIANT_ORIGINAL);
  return std::string("v1,") + text;
}

}  // namespace webhook

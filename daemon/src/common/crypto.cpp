#include "common/crypto.h"

#include <sodium.h>

#include <stdexcept>

#include "common/encoding.h"

namespace aev::crypto {

namespace {
struct SodiumInit {
  SodiumInit() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  }
};
void ensureSodium() { static SodiumInit init; }
}  // namespace

std::string randomBytes(std::size_t n) {
  ensureSodium();
  std::string out(n, '\0');
  randombytes_buf(out.data(), n);
  return out;
}

std::string randomBase62(std::size_t chars) {
  ensureSodium();
  static constexpr char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::string out(chars, '0');
  // randombytes_uniform avoids modulo bias.
  for (auto& c : out) c = kAlphabet[randombytes_uniform(62)];
  return out;
}

std::string sha256Hex(std::string_view data) {
  ensureSodium();
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(data.data()), data.size());
  return hexEncode(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

std::string hmacSha256(std::string_view key, std::string_view data) {
  ensureSodium();
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, reinterpret_cast<const unsigned char*>(key.data()), key.size());
  crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(data.data()), data.size());
  std::string out(crypto_auth_hmacsha256_BYTES, '\0');
  crypto_auth_hmacsha256_final(&state, reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

bool constantTimeEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace aev::crypto

#pragma once
// Webhook signing secrets at rest. The daemon must read a secret back to sign each
// delivery, so it cannot store a hash as it does for API keys; it stores the secret
// sealed (libsodium secretbox: XSalsa20-Poly1305) under a key that is not in the
// database: config webhooks.secret_key, or else <data.dir>/webhook-secrets.key, made on
// first start. A copy of the database alone then does not let anyone forge deliveries.
// Several nodes on one PostgreSQL must share the key (set webhooks.secret_key).
#include <string>
#include <string_view>

namespace aev::webhooks {

class SecretBox {
 public:
  // keyText: any string of at least 32 characters; the box key is its BLAKE2b hash.
  explicit SecretBox(std::string_view keyText);

  // "sbx1:" + base64(nonce ‖ ciphertext).
  std::string seal(std::string_view plain) const;
  // Opens a sealed value; a value without the prefix is returned as it is (stored
  // before sealing existed). Throws std::runtime_error when it does not open (another key).
  std::string open(std::string_view stored) const;

 private:
  std::string key_;  // crypto_secretbox_KEYBYTES
};

// The key text: `configured` when not empty, else the content of
// <dataDir>/webhook-secrets.key, created (0600) with a random key when missing.
std::string loadOrCreateSecretKey(const std::string& configured, const std::string& dataDir);

}  // namespace aev::webhooks

#include "webhooks/signature.h"

#include <stdexcept>

#include "common/crypto.h"
#include "common/encoding.h"

namespace aev::webhooks {

std::string newSecret() { return std::string(kSecretPrefix) + base64Encode(crypto::randomBytes(24)); }

std::string secretKey(std::string_view secret) {
  if (secret.substr(0, kSecretPrefix.size()) != kSecretPrefix)
    throw std::invalid_argument("a webhook secret starts with whsec_");
  auto key = base64Decode(secret.substr(kSecretPrefix.size()));
  if (!key || key->empty()) throw std::invalid_argument("a webhook secret carries base64 key bytes after whsec_");
  return *key;
}

std::string sign(std::string_view secret, std::string_view messageId, std::int64_t timestampSeconds,
                 std::string_view body) {
  std::string content;
  content.reserve(messageId.size() + body.size() + 24);
  content.append(messageId).append(".").append(std::to_string(timestampSeconds)).append(".").append(body);
  return "v1," + base64Encode(crypto::hmacSha256(secretKey(secret), content));
}

}  // namespace aev::webhooks

#include "webhooks/secret_box.h"

#include <sodium.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/crypto.h"
#include "common/encoding.h"

namespace aev::webhooks {

namespace {

constexpr std::string_view kSecretBoxPrefix = "sbx1:";

}  // namespace

SecretBox::SecretBox(std::string_view keyText) : key_(crypto_secretbox_KEYBYTES, '\0') {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  if (keyText.size() < 32) throw std::runtime_error("webhooks.secret_key must be at least 32 characters");
  crypto_generichash(reinterpret_cast<unsigned char*>(key_.data()), key_.size(),
                     reinterpret_cast<const unsigned char*>(keyText.data()), keyText.size(), nullptr, 0);
}

std::string SecretBox::seal(std::string_view plain) const {
  std::string nonce = crypto::randomBytes(crypto_secretbox_NONCEBYTES);
  std::string cipher(plain.size() + crypto_secretbox_MACBYTES, '\0');
  crypto_secretbox_easy(reinterpret_cast<unsigned char*>(cipher.data()),
                        reinterpret_cast<const unsigned char*>(plain.data()), plain.size(),
                        reinterpret_cast<const unsigned char*>(nonce.data()),
                        reinterpret_cast<const unsigned char*>(key_.data()));
  return std::string(kSecretBoxPrefix) + base64Encode(nonce + cipher);
}

std::string SecretBox::open(std::string_view stored) const {
  if (stored.substr(0, kSecretBoxPrefix.size()) != kSecretBoxPrefix) return std::string(stored);
  const auto decoded = base64Decode(stored.substr(kSecretBoxPrefix.size()));
  if (!decoded) throw std::runtime_error("a sealed webhook secret is not base64");
  const auto& raw = *decoded;
  if (raw.size() < crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES)
    throw std::runtime_error("a sealed webhook secret is truncated");
  const auto cipherLen = raw.size() - crypto_secretbox_NONCEBYTES;
  std::string plain(cipherLen - crypto_secretbox_MACBYTES, '\0');
  if (crypto_secretbox_open_easy(reinterpret_cast<unsigned char*>(plain.data()),
                                 reinterpret_cast<const unsigned char*>(raw.data()) + crypto_secretbox_NONCEBYTES,
                                 cipherLen, reinterpret_cast<const unsigned char*>(raw.data()),
                                 reinterpret_cast<const unsigned char*>(key_.data())) != 0)
    throw std::runtime_error("a webhook secret does not open with this key (webhooks.secret_key changed?)");
  return plain;
}

std::string loadOrCreateSecretKey(const std::string& configured, const std::string& dataDir) {
  if (!configured.empty()) return configured;
  std::filesystem::create_directories(dataDir);
  const auto path = std::filesystem::path(dataDir) / "webhook-secrets.key";
  if (std::filesystem::exists(path)) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    auto key = ss.str();
    while (!key.empty() && (key.back() == '\n' || key.back() == '\r')) key.pop_back();
    return key;
  }
  const auto key = base64UrlEncode(crypto::randomBytes(32));
  const auto tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << key << '\n';
    if (!out) throw std::runtime_error("cannot write " + tmp);
  }
  ::chmod(tmp.c_str(), 0600);
  std::filesystem::rename(tmp, path);
  return key;
}

}  // namespace aev::webhooks

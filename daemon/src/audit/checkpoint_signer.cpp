#include "audit/checkpoint_signer.h"

#include <sodium.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/crypto.h"
#include "common/encoding.h"

namespace aev::audit {

namespace {

// Whitespace is skipped: the key file ends with a newline, and an editor may add more.
std::string decodeBase64(const std::string& text) { return base64Decode(text, " \t\r\n").value_or(""); }

std::string readSeed(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto seed = decodeBase64(text.str());
  if (seed.size() != crypto_sign_SEEDBYTES)
    throw std::runtime_error("audit signing key " + path + " is not the base64 of a 32-byte Ed25519 seed");
  return seed;
}

}  // namespace

CheckpointSigner::CheckpointSigner(const std::string& seed) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  crypto_sign_seed_keypair(publicKey_.data(), secretKey_.data(), reinterpret_cast<const unsigned char*>(seed.data()));
  keyId_ = crypto::sha256Hex(std::string_view(reinterpret_cast<const char*>(publicKey_.data()), publicKey_.size()))
               .substr(0, 16);
}

CheckpointSigner CheckpointSigner::loadOrCreate(const std::string& path) {
  if (!std::filesystem::exists(path)) {
    if (auto dir = std::filesystem::path(path).parent_path(); !dir.empty()) std::filesystem::create_directories(dir);
    const auto seed = crypto::randomBytes(crypto_sign_SEEDBYTES);
    const auto tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::trunc);
      if (!out) throw std::runtime_error("cannot write audit signing key " + tmp);
      ::chmod(tmp.c_str(), 0600);
      out << base64Encode(seed) << '\n';
      if (!out.flush()) throw std::runtime_error("cannot write audit signing key " + tmp);
    }
    std::filesystem::rename(tmp, path);  // never a half-written key under the real name
  }
  return CheckpointSigner(readSeed(path));
}

std::optional<CheckpointSigner> CheckpointSigner::load(const std::string& path) {
  if (!std::filesystem::exists(path)) return std::nullopt;
  return CheckpointSigner(readSeed(path));
}

std::string CheckpointSigner::publicKeyBase64() const {
  return base64Encode(std::string_view(reinterpret_cast<const char*>(publicKey_.data()), publicKey_.size()));
}

std::string CheckpointSigner::sign(std::string_view message) const {
  std::array<unsigned char, crypto_sign_BYTES> sig{};
  crypto_sign_detached(sig.data(), nullptr, reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                       secretKey_.data());
  return base64Encode(std::string_view(reinterpret_cast<const char*>(sig.data()), sig.size()));
}

bool CheckpointSigner::verify(std::string_view message, const std::string& signatureBase64) const {
  const auto sig = decodeBase64(signatureBase64);
  if (sig.size() != crypto_sign_BYTES) return false;
  return crypto_sign_verify_detached(reinterpret_cast<const unsigned char*>(sig.data()),
                                     reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                                     publicKey_.data()) == 0;
}

}  // namespace aev::audit

#pragma once
// The Ed25519 key that signs audit checkpoints. It lives outside the database (a file
// in the data directory by default, audit.signing_key_file), so whoever can rewrite the
// database cannot forge a checkpoint that matches the rewrite. Several nodes sharing one
// PostgreSQL should share the file too; a node with another key reports the other
// key's checkpoints as unverifiable rather than broken.
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace aev::audit {

class CheckpointSigner {
 public:
  // Reads the key file (base64 of the 32-byte seed), creating it (mode 0600) when absent.
  static CheckpointSigner loadOrCreate(const std::string& path);
  // Reads the key file; nullopt when it does not exist (the offline verifier does not
  // create keys).
  static std::optional<CheckpointSigner> load(const std::string& path);

  const std::string& keyId() const { return keyId_; }  // first 16 hex of SHA-256(public key)
  std::string publicKeyBase64() const;
  std::string sign(std::string_view message) const;  // base64 of the detached signature
  bool verify(std::string_view message, const std::string& signatureBase64) const;

 private:
  explicit CheckpointSigner(const std::string& seed);
  std::array<unsigned char, 32> publicKey_{};
  std::array<unsigned char, 64> secretKey_{};
  std::string keyId_;
};

}  // namespace aev::audit

#pragma once
// Argon2id password hashes (libsodium's crypto_pwhash_str: salt and parameters live in
// the encoded string). Hashing is deliberately expensive, so at most `concurrency`
// hashes run at once: a login flood queues here instead of starving every other request
// of CPU and memory, and a caller that waits too long gets 503 with Retry-After.
#include <condition_variable>
#include <mutex>
#include <string>

namespace aev::auth {

struct PasswordHashOptions {
  unsigned long long opsLimit = 2;
  std::size_t memLimitKiB = 19456;  // OWASP's argon2id baseline: m=19 MiB, t=2, p=1
  int concurrency = 2;
  int maxWaitMs = 5000;
};

class PasswordHasher {
 public:
  explicit PasswordHasher(PasswordHashOptions options);
  std::string hash(const std::string& password);
  bool verify(const std::string& encoded, const std::string& password);
  // Spends the same effort as a verify against a real hash, so a login for an unknown
  // account takes as long as one with a wrong password.
  void burn(const std::string& password);

 private:
  class Slot;
  PasswordHashOptions options_;
  std::mutex mutex_;
  std::condition_variable freed_;
  int running_ = 0;
  std::string dummyHash_;
};

}  // namespace aev::auth

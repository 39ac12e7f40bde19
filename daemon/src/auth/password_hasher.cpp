#include "auth/password_hasher.h"

#include <sodium.h>

#include <chrono>
#include <stdexcept>

#include "common/errors.h"

namespace aev::auth {

class PasswordHasher::Slot {
 public:
  explicit Slot(PasswordHasher& h) : h_(h) {
    std::unique_lock lock(h_.mutex_);
    if (!h_.freed_.wait_for(lock, std::chrono::milliseconds(h_.options_.maxWaitMs),
                            [&] { return h_.running_ < h_.options_.concurrency; }))
      throw errors::unavailable("Too many password checks in progress; retry shortly.", 1);
    ++h_.running_;
  }
  ~Slot() {
    {
      std::lock_guard lock(h_.mutex_);
      --h_.running_;
    }
    h_.freed_.notify_one();
  }

 private:
  PasswordHasher& h_;
};

PasswordHasher::PasswordHasher(PasswordHashOptions options) : options_(options) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  if (options_.concurrency < 1) options_.concurrency = 1;
  if (options_.opsLimit < crypto_pwhash_OPSLIMIT_MIN) options_.opsLimit = crypto_pwhash_OPSLIMIT_MIN;
  if (options_.memLimitKiB * 1024 < crypto_pwhash_MEMLIMIT_MIN) options_.memLimitKiB = crypto_pwhash_MEMLIMIT_MIN / 1024;
  dummyHash_ = hash("not-a-real-password-0123456789");
}

std::string PasswordHasher::hash(const std::string& password) {
  Slot slot(*this);
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), options_.opsLimit, options_.memLimitKiB * 1024,
                            crypto_pwhash_ALG_ARGON2ID13) != 0)
    throw std::runtime_error("password hashing ran out of memory");
  return out;
}

bool PasswordHasher::verify(const std::string& encoded, const std::string& password) {
  Slot slot(*this);
  return crypto_pwhash_str_verify(encoded.c_str(), password.data(), password.size()) == 0;
}

void PasswordHasher::burn(const std::string& password) { (void)verify(dummyHash_, password); }

}  // namespace aev::auth

#pragma once
// API keys (docs/api.md#authentication): "aes_" + 43 base62 characters (≈256 bits), only the SHA-256
// hash stored, the full value shown once. Scopes: publish, subscribe, read.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "audit/actor.h"
#include "auth/api_key_cache.h"
#include "common/revocation.h"
#include "store/credential_repositories.h"
#include "store/database.h"

namespace aev::audit {
class AuditLog;
}

namespace aev::auth {

struct CreatedApiKey {
  store::ApiKeyRecord record;
  std::string fullKey;
};

class ApiKeyService {
 public:
  ApiKeyService(store::Database& db, audit::AuditLog& audit, std::chrono::seconds cacheTtl = std::chrono::seconds(0))
      : db_(db), audit_(audit), cache_(cacheTtl) {}
  void onRevoked(RevocationListener listener) { revoked_ = std::move(listener); }
  // Access withdrawn elsewhere (a deleted organization): forget cached keys it covers.
  void forget(const Revocation& r) { cache_.forget(r); }
  // The change feed's state (PostgreSQL): the cache is used only while it is connected.
  void cacheTrusted(bool trusted) { trusted ? cache_.resume() : cache_.suspend(); }

  static const std::vector<std::string>& knownScopes();
  static constexpr const char* kPrefix = "aes_";

  // defaultChannelId must be a channel of orgId (422 at body.defaultChannelId otherwise).
  CreatedApiKey create(std::int64_t orgId, std::int64_t creatorUserId, const std::string& name,
                       const std::vector<std::string>& scopes, std::optional<std::int64_t> defaultChannelId,
                       const audit::Actor& actor);
  // What a PATCH may change: the name, and the default channel (an inner nullopt clears it).
  struct Update {
    std::optional<std::string> name;
    std::optional<std::optional<std::int64_t>> defaultChannelId;
  };
  store::ApiKeyRecord update(std::int64_t orgId, std::int64_t id, const Update& change, const audit::Actor& actor);
  // The key's default channel as the store has it now (a deleted channel has cleared it).
  std::optional<std::int64_t> defaultChannel(std::int64_t orgId, std::int64_t id);
  std::vector<store::ApiKeyRecord> list(std::int64_t orgId);
  void revoke(std::int64_t orgId, std::int64_t id, const audit::Actor& actor);
  // The live (unrevoked) key with this full value.
  std::optional<store::ApiKeyRecord> authenticate(const std::string& fullKey);

 private:
  store::Database& db_;
  audit::AuditLog& audit_;
  store::ApiKeyRepository repo_;
  ApiKeyCache cache_;
  RevocationListener revoked_;
};

}  // namespace aev::auth

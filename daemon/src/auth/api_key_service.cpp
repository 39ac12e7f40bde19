#include "auth/api_key_service.h"

#include <Poco/JSON/Array.h>

#include <algorithm>

#include "audit/audit_log.h"
#include "store/app_repository.h"
#include "store/change_feed.h"

#include "common/clock.h"
#include "common/metrics.h"
#include "common/crypto.h"
#include "common/errors.h"

namespace aev::auth {

const std::vector<std::string>& ApiKeyService::knownScopes() {
  static const std::vector<std::string> scopes = {"publish", "subscribe", "read"};
  return scopes;
}

namespace {

// 422 unless the channel belongs to the organization (another organization's reads as
// missing, as everywhere).
void requireOwnChannel(store::Connection& c, std::int64_t orgId, std::int64_t channelId) {
  if (!store::ChannelRepository().byId(c, orgId, channelId))
    throw errors::invalidField("body.defaultChannelId", "must be a channel of the API key's organization",
                               std::to_string(channelId));
}

}  // namespace

CreatedApiKey ApiKeyService::create(std::int64_t orgId, std::int64_t creatorUserId, const std::string& name,
                                    const std::vector<std::string>& scopes,
                                    std::optional<std::int64_t> defaultChannelId, const audit::Actor& actor) {
  std::vector<FieldError> problems;
  std::vector<std::string> unique;
  for (std::size_t i = 0; i < scopes.size(); ++i) {
    const auto& s = scopes[i];
    if (std::find(knownScopes().begin(), knownScopes().end(), s) == knownScopes().end())
      problems.push_back({"body.scopes[" + std::to_string(i) + "]", "unknown scope; use publish, subscribe or read", s});
    else if (std::find(unique.begin(), unique.end(), s) == unique.end())
      unique.push_back(s);
  }
  if (scopes.empty()) problems.push_back({"body.scopes", "must name at least one scope", "[]"});
  if (!problems.empty()) throw errors::validation(std::move(problems), "Unknown or missing API key scopes.");

  CreatedApiKey out;
  out.fullKey = std::string(kPrefix) + crypto::randomBase62(43);
  out.record.orgId = orgId;
  out.record.name = name;
  out.record.keyPrefix = out.fullKey.substr(0, 8);
  out.record.scopes = unique;
  out.record.createdBy = creatorUserId;
  out.record.createdAt = clock::nowMicros();
  out.record.defaultChannelId = defaultChannelId;
  db_.transaction([&](store::Connection& c) {
    if (defaultChannelId) requireOwnChannel(c, orgId, *defaultChannelId);
    out.record.id = repo_.insert(c, out.record, crypto::sha256Hex(out.fullKey));
    Poco::JSON::Array::Ptr scopeList = new Poco::JSON::Array;
    for (const auto& s : unique) scopeList->add(s);
    audit_.record(c, orgId, actor,
                  audit::Change::of("apikey", "create", out.record.id,
                                    audit::metadata({{"name", name}, {"keyPrefix", out.record.keyPrefix},
                                                     {"scopes", scopeList}})));
  });
  return out;
}

std::vector<store::ApiKeyRecord> ApiKeyService::list(std::int64_t orgId) {
  auto conn = db_.acquire();
  return repo_.list(*conn, orgId);
}

store::ApiKeyRecord ApiKeyService::update(std::int64_t orgId, std::int64_t id, const Update& change,
                                          const audit::Actor& actor) {
  store::ApiKeyRecord record;
  db_.transaction([&](store::Connection& c) {
    auto current = repo_.byId(c, orgId, id);
    if (!current || current->revokedAt) throw errors::notFound("API key");
    record = *current;
    if (change.name) record.name = *change.name;
    if (change.defaultChannelId) {
      if (*change.defaultChannelId) requireOwnChannel(c, orgId, **change.defaultChannelId);
      record.defaultChannelId = *change.defaultChannelId;
    }
    repo_.update(c, record);
    audit_.record(
        c, orgId, actor,
        audit::Change::of(
            "apikey", "update", id,
            audit::metadata({{"name", record.name},
                             {"defaultChannelId", record.defaultChannelId ? Poco::Dynamic::Var(*record.defaultChannelId)
                                                                          : Poco::Dynamic::Var()}})));
  });
  return record;
}

std::optional<std::int64_t> ApiKeyService::defaultChannel(std::int64_t orgId, std::int64_t id) {
  auto conn = db_.acquire();
  auto key = repo_.byId(*conn, orgId, id);
  return key ? key->defaultChannelId : std::nullopt;
}

void ApiKeyService::revoke(std::int64_t orgId, std::int64_t id, const audit::Actor& actor) {
  db_.transaction([&](store::Connection& c) {
    if (!repo_.revoke(c, orgId, id, clock::nowMicros())) throw errors::notFound("API key");
    store::notifyChange(c, {"apikey.revoked", orgId, id});  // other nodes forget it at commit
    audit_.record(c, orgId, actor, audit::Change::of("apikey", "revoke", id));
  });
  cache_.forget(Revocation{orgId, std::nullopt, id});
  if (revoked_) revoked_(Revocation{orgId, std::nullopt, id});
}

std::optional<store::ApiKeyRecord> ApiKeyService::authenticate(const std::string& fullKey) {
  if (fullKey.size() < 20 || fullKey.size() > 200 || fullKey.rfind(kPrefix, 0) != 0) return std::nullopt;
  const auto hash = crypto::sha256Hex(fullKey);
  if (auto cached = cache_.find(hash)) {
    // Looked up once: the registry's map and mutex stay off the publish path.
    static auto& hits = Metrics::instance().counter("agent_events_api_key_cache_hits_total",
                                                    "API key checks answered from this node's cache");
    hits.fetch_add(1, std::memory_order_relaxed);
    return cached;
  }
  const auto generation = cache_.generation();
  auto conn = db_.acquire();
  auto key = repo_.byHash(*conn, hash);
  if (!key || key->revokedAt) return std::nullopt;
  cache_.remember(hash, *key, generation);
  return key;
}

}  // namespace aev::auth

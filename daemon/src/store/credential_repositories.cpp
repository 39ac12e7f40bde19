#include "store/credential_repositories.h"

namespace aev::store {

std::string joinScopes(const std::vector<std::string>& scopes) {
  std::string out;
  for (const auto& s : scopes) out += (out.empty() ? "" : " ") + s;
  return out;
}

std::vector<std::string> splitScopes(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto sp = text.find(' ', start);
    if (sp == std::string::npos) sp = text.size();
    if (sp > start) out.push_back(text.substr(start, sp - start));
    start = sp + 1;
  }
  return out;
}

// ---------------------------------------------------------------- API keys

namespace {
constexpr const char* kKeyColumns =
    "id, org_id, name, key_prefix, scopes, created_by, created_at, revoked_at, last_used_at, default_channel_id";

ApiKeyRecord keyFromRow(const Row& r) {
  ApiKeyRecord k;
  k.id = r.i64("id");
  k.orgId = r.i64("org_id");
  k.name = r.str("name");
  k.keyPrefix = r.str("key_prefix");
  k.scopes = splitScopes(r.str("scopes"));
  k.createdBy = r.optI64("created_by");
  k.createdAt = r.i64("created_at");
  k.revokedAt = r.optI64("revoked_at");
  k.lastUsedAt = r.optI64("last_used_at");
  k.defaultChannelId = r.optI64("default_channel_id");
  return k;
}
}  // namespace

std::int64_t ApiKeyRepository::insert(Connection& c, const ApiKeyRecord& k, const std::string& keyHash) {
  return c.insert(
      "INSERT INTO api_keys (org_id, name, key_hash, key_prefix, scopes, created_by, created_at, default_channel_id) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
      {k.orgId, k.name, keyHash, k.keyPrefix, joinScopes(k.scopes), optionalValue(k.createdBy), k.createdAt,
       optionalValue(k.defaultChannelId)});
}

std::vector<ApiKeyRecord> ApiKeyRepository::list(Connection& c, std::int64_t orgId) {
  auto rows = c.query(std::string("SELECT ") + kKeyColumns +
                          " FROM api_keys WHERE org_id = ? AND revoked_at IS NULL ORDER BY id",
                      {orgId});
  std::vector<ApiKeyRecord> out;
  for (const auto& r : rows) out.push_back(keyFromRow(r));
  return out;
}

std::optional<ApiKeyRecord> ApiKeyRepository::byId(Connection& c, std::int64_t orgId, std::int64_t id) {
  auto rows = c.query(std::string("SELECT ") + kKeyColumns + " FROM api_keys WHERE org_id = ? AND id = ?",
                      {orgId, id});
  if (rows.empty()) return std::nullopt;
  return keyFromRow(rows.front());
}

std::optional<ApiKeyRecord> ApiKeyRepository::byHash(Connection& c, const std::string& keyHash) {
  auto rows = c.query(std::string("SELECT ") + kKeyColumns + " FROM api_keys WHERE key_hash = ?", {keyHash});
  if (rows.empty()) return std::nullopt;
  return keyFromRow(rows.front());
}

bool ApiKeyRepository::update(Connection& c, const ApiKeyRecord& k) {
  return c.exec(
             "UPDATE api_keys SET name = ?, default_channel_id = ? WHERE org_id = ? AND id = ? AND revoked_at IS NULL",
             {k.name, optionalValue(k.defaultChannelId), k.orgId, k.id}) > 0;
}

bool ApiKeyRepository::revoke(Connection& c, std::int64_t orgId, std::int64_t id, std::int64_t at) {
  return c.exec("UPDATE api_keys SET revoked_at = ? WHERE org_id = ? AND id = ? AND revoked_at IS NULL",
                {at, orgId, id}) > 0;
}

// ---------------------------------------------------------------- refresh tokens

void RefreshTokenRepository::insert(Connection& c, const RefreshTokenRecord& t, const std::string& tokenHash) {
  c.exec(
      "INSERT INTO refresh_tokens (token_hash, family_id, user_id, org_id, created_at, expires_at) "
      "VALUES (?, ?, ?, ?, ?, ?)",
      {tokenHash, t.familyId, t.userId, optionalValue(t.orgId), t.createdAt, t.expiresAt});
}

std::optional<RefreshTokenRecord> RefreshTokenRepository::byHash(Connection& c, const std::string& tokenHash) {
  auto rows = c.query(
      "SELECT id, family_id, user_id, org_id, created_at, expires_at, used_at, revoked_at FROM refresh_tokens "
      "WHERE token_hash = ?",
      {tokenHash});
  if (rows.empty()) return std::nullopt;
  const auto& r = rows.front();
  RefreshTokenRecord t;
  t.id = r.i64("id");
  t.familyId = r.str("family_id");
  t.userId = r.i64("user_id");
  t.orgId = r.optI64("org_id");
  t.createdAt = r.i64("created_at");
  t.expiresAt = r.i64("expires_at");
  t.usedAt = r.optI64("used_at");
  t.revokedAt = r.optI64("revoked_at");
  return t;
}

bool RefreshTokenRepository::markUsed(Connection& c, std::int64_t id, std::int64_t at) {
  return c.exec("UPDATE refresh_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL",
                {at, id}) > 0;
}

void RefreshTokenRepository::revokeFamily(Connection& c, const std::string& familyId, std::int64_t at) {
  c.exec("UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL", {at, familyId});
}

void RefreshTokenRepository::revokeAllOfUser(Connection& c, std::int64_t userId, std::int64_t at) {
  c.exec("UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", {at, userId});
}

void RefreshTokenRepository::deleteExpired(Connection& c, std::int64_t before) {
  c.exec("DELETE FROM refresh_tokens WHERE expires_at < ?", {before});
}

// ---------------------------------------------------------------- invitations

namespace {
constexpr const char* kInvitationColumns =
    "id, org_id, code_prefix, invited_email, role, status, invited_by, accepted_by, created_at, expires_at, "
    "accepted_at";

InvitationRecord invitationFromRow(const Row& r) {
  InvitationRecord i;
  i.id = r.i64("id");
  i.orgId = r.i64("org_id");
  i.codePrefix = r.str("code_prefix");
  i.invitedEmail = r.str("invited_email");
  i.role = r.str("role");
  i.status = r.str("status");
  i.invitedBy = r.optI64("invited_by");
  i.acceptedBy = r.optI64("accepted_by");
  i.createdAt = r.i64("created_at");
  i.expiresAt = r.i64("expires_at");
  i.acceptedAt = r.optI64("accepted_at");
  return i;
}
}  // namespace

std::int64_t InvitationRepository::insert(Connection& c, const InvitationRecord& inv, const std::string& codeHash) {
  return c.insert(
      "INSERT INTO invitations (org_id, code_hash, code_prefix, invited_email, role, status, invited_by, "
      "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
      {inv.orgId, codeHash, inv.codePrefix, inv.invitedEmail, inv.role, inv.status, optionalValue(inv.invitedBy),
       inv.createdAt, inv.expiresAt});
}

std::vector<InvitationRecord> InvitationRepository::list(Connection& c, std::int64_t orgId) {
  auto rows = c.query(std::string("SELECT ") + kInvitationColumns + " FROM invitations WHERE org_id = ? ORDER BY id",
                      {orgId});
  std::vector<InvitationRecord> out;
  for (const auto& r : rows) out.push_back(invitationFromRow(r));
  return out;
}

std::optional<InvitationRecord> InvitationRepository::byCodeHash(Connection& c, const std::string& codeHash) {
  auto rows = c.query(std::string("SELECT ") + kInvitationColumns + " FROM invitations WHERE code_hash = ?",
                      {codeHash});
  if (rows.empty()) return std::nullopt;
  return invitationFromRow(rows.front());
}

std::int64_t InvitationRepository::countPending(Connection& c, std::int64_t orgId, std::int64_t now) {
  return c.query("SELECT COUNT(*) AS n FROM invitations WHERE org_id = ? AND status = 'pending' AND expires_at > ?",
                 {orgId, now})
      .front()
      .i64("n");
}

bool InvitationRepository::hasPendingFor(Connection& c, std::int64_t orgId, const std::string& email,
                                         std::int64_t now) {
  return !c.query(
              "SELECT id FROM invitations WHERE org_id = ? AND invited_email = ? AND status = 'pending' AND "
              "expires_at > ?",
              {orgId, email, now})
              .empty();
}

bool InvitationRepository::accept(Connection& c, std::int64_t id, std::int64_t userId, std::int64_t at) {
  return c.exec(
             "UPDATE invitations SET status = 'accepted', accepted_by = ?, accepted_at = ? WHERE id = ? AND "
             "status = 'pending'",
             {userId, at, id}) > 0;
}

// ---------------------------------------------------------------- access requests

namespace {
AccessRequestRecord accessRequestFromRow(const Row& r) {
  AccessRequestRecord a;
  a.id = r.i64("id");
  a.userId = r.i64("user_id");
  a.status = r.str("status");
  a.createdAt = r.i64("created_at");
  a.decidedAt = r.optI64("decided_at");
  a.decidedBy = r.optI64("decided_by");
  a.email = r.str("email");
  a.username = r.str("username");
  return a;
}
constexpr const char* kAccessRequestSelect =
    "SELECT a.id, a.user_id, a.status, a.created_at, a.decided_at, a.decided_by, u.email, u.username "
    "FROM access_requests a JOIN users u ON u.id = a.user_id";
}  // namespace

std::int64_t AccessRequestRepository::insert(Connection& c, std::int64_t userId, std::int64_t at) {
  return c.insert("INSERT INTO access_requests (user_id, status, created_at) VALUES (?, 'pending', ?) RETURNING id",
                  {userId, at});
}

std::vector<AccessRequestRecord> AccessRequestRepository::list(Connection& c, const std::optional<std::string>& status) {
  auto rows = status ? c.query(std::string(kAccessRequestSelect) + " WHERE a.status = ? ORDER BY a.id", {*status})
                     : c.query(std::string(kAccessRequestSelect) + " ORDER BY a.id");
  std::vector<AccessRequestRecord> out;
  for (const auto& r : rows) out.push_back(accessRequestFromRow(r));
  return out;
}

std::optional<AccessRequestRecord> AccessRequestRepository::byId(Connection& c, std::int64_t id) {
  auto rows = c.query(std::string(kAccessRequestSelect) + " WHERE a.id = ?", {id});
  if (rows.empty()) return std::nullopt;
  return accessRequestFromRow(rows.front());
}

void AccessRequestRepository::decide(Connection& c, std::int64_t id, const std::string& status, std::int64_t by,
                                     std::int64_t at) {
  c.exec("UPDATE access_requests SET status = ?, decided_by = ?, decided_at = ? WHERE id = ?", {status, by, at, id});
}

}  // namespace aev::store

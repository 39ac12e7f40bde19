#include "store/organization_repository.h"

#include <iterator>

#include "common/clock.h"
#include "store/user_repository.h"

namespace aev::store {

namespace {
constexpr const char* kOrgColumns =
    "o.id, o.name, o.slug, o.description, o.plan, o.subscription_status, o.created_at, o.updated_at";
}

OrganizationRecord organizationFromRow(const Row& r) {
  OrganizationRecord o;
  o.id = r.i64("id");
  o.name = r.str("name");
  o.slug = r.str("slug");
  o.description = r.str("description");
  o.plan = r.str("plan");
  o.subscriptionStatus = r.str("subscription_status");
  o.createdAt = r.i64("created_at");
  o.updatedAt = r.i64("updated_at");
  return o;
}

std::int64_t OrganizationRepository::insert(Connection& c, const OrganizationRecord& o) {
  return c.insert(
      "INSERT INTO organizations (name, slug, description, plan, subscription_status, created_at, updated_at) "
      "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
      {o.name, o.slug, o.description, o.plan, o.subscriptionStatus, o.createdAt, o.updatedAt});
}

std::optional<OrganizationRecord> OrganizationRepository::byId(Connection& c, std::int64_t id) {
  auto rows = c.query(std::string("SELECT ") + kOrgColumns + " FROM organizations o WHERE o.id = ?", {id});
  if (rows.empty()) return std::nullopt;
  return organizationFromRow(rows.front());
}

bool OrganizationRepository::slugTaken(Connection& c, const std::string& slug, std::int64_t exceptId) {
  return !c.query("SELECT id FROM organizations WHERE slug = ? AND id <> ?", {slug, exceptId}).empty();
}

void OrganizationRepository::update(Connection& c, const OrganizationRecord& o) {
  c.exec("UPDATE organizations SET name = ?, slug = ?, description = ?, plan = ?, updated_at = ? WHERE id = ?",
         {o.name, o.slug, o.description, o.plan, o.updatedAt, o.id});
}

void OrganizationRepository::remove(Connection& c, std::int64_t id) {
  // The rollups hold no foreign key on PostgreSQL (v24): they go here, not by cascade.
  c.exec("DELETE FROM analytics_rollups WHERE org_id = ?", {id});
  c.exec("DELETE FROM organizations WHERE id = ?", {id});
}

std::vector<std::pair<std::string, std::int64_t>> OrganizationRepository::contents(Connection& c, std::int64_t id,
                                                                                   std::int64_t now) {
  struct Part {
    const char* name;
    const char* table;
    const char* condition;  // beyond org_id = ?; "" or " AND ..." with at most one more parameter (now)
  };
  static const Part kParts[] = {
      {"apps", "apps", ""},
      {"channels", "channels", ""},
      {"events", "events", ""},
      {"apiKeys", "api_keys", " AND revoked_at IS NULL"},
      {"members", "memberships", ""},
      {"pendingInvitations", "invitations", " AND status = 'pending' AND expires_at > ?"},
      {"environments", "environments", ""},
      {"webhookEndpoints", "webhook_endpoints", ""},
      {"exportDestinations", "export_destinations", ""},
      {"moderationRules", "moderation_rules", ""},
      {"spendPolicies", "spend_policies", ""},
      {"alertRules", "alert_rules", ""},
  };
  // Columns are named n0, n1, ...: PostgreSQL folds unquoted aliases to lower case.
  std::string sql = "SELECT ";
  Params params;
  for (std::size_t i = 0; i < std::size(kParts); ++i) {
    const auto& part = kParts[i];
    sql += std::string(i ? ", " : "") + "(SELECT COUNT(*) FROM " + part.table + " WHERE org_id = ?" + part.condition +
           ") AS n" + std::to_string(i);
    params.emplace_back(id);
    if (std::string(part.condition).find('?') != std::string::npos) params.emplace_back(now);
  }
  auto rows = c.query(sql, params);
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (std::size_t i = 0; i < std::size(kParts); ++i)
    out.emplace_back(kParts[i].name, rows.front().i64("n" + std::to_string(i)));
  return out;
}

MembershipRecord MembershipRepository::fromRow(const Row& r) {
  MembershipRecord m;
  m.id = r.i64("m_id");
  m.userId = r.i64("m_user_id");
  m.orgId = r.i64("m_org_id");
  m.role = r.str("m_role");
  m.joinedAt = r.i64("m_joined_at");
  return m;
}

namespace {
constexpr const char* kMembershipColumns =
    "m.id AS m_id, m.user_id AS m_user_id, m.org_id AS m_org_id, m.role AS m_role, m.joined_at AS m_joined_at";
}

void MembershipRepository::insert(Connection& c, std::int64_t orgId, std::int64_t userId, const std::string& role) {
  c.exec("INSERT INTO memberships (user_id, org_id, role, joined_at) VALUES (?, ?, ?, ?)",
         {userId, orgId, role, clock::nowMicros()});
}

std::optional<MembershipRecord> MembershipRepository::find(Connection& c, std::int64_t orgId, std::int64_t userId) {
  auto rows = c.query(std::string("SELECT ") + kMembershipColumns +
                          " FROM memberships m WHERE m.org_id = ? AND m.user_id = ?",
                      {orgId, userId});
  if (rows.empty()) return std::nullopt;
  return fromRow(rows.front());
}

std::vector<std::pair<MembershipRecord, OrganizationRecord>> MembershipRepository::ofUser(Connection& c,
                                                                                        std::int64_t userId) {
  auto rows = c.query(std::string("SELECT ") + kMembershipColumns + ", " + kOrgColumns +
                          " FROM memberships m JOIN organizations o ON o.id = m.org_id WHERE m.user_id = ? "
                          "ORDER BY o.id",
                      {userId});
  std::vector<std::pair<MembershipRecord, OrganizationRecord>> out;
  for (const auto& r : rows) out.emplace_back(fromRow(r), organizationFromRow(r));
  return out;
}

std::vector<std::pair<MembershipRecord, UserRecord>> MembershipRepository::ofOrganization(Connection& c,
                                                                                         std::int64_t orgId) {
  auto rows = c.query(std::string("SELECT ") + kMembershipColumns + ", " + UserRepository::columns() +
                          " FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? ORDER BY u.id",
                      {orgId});
  std::vector<std::pair<MembershipRecord, UserRecord>> out;
  for (const auto& r : rows) out.emplace_back(fromRow(r), UserRepository::fromRow(r));
  return out;
}

void MembershipRepository::setRole(Connection& c, std::int64_t orgId, std::int64_t userId, const std::string& role) {
  c.exec("UPDATE memberships SET role = ? WHERE org_id = ? AND user_id = ?", {role, orgId, userId});
}

void MembershipRepository::remove(Connection& c, std::int64_t orgId, std::int64_t userId) {
  c.exec("DELETE FROM memberships WHERE org_id = ? AND user_id = ?", {orgId, userId});
}

std::int64_t MembershipRepository::countMembers(Connection& c, std::int64_t orgId) {
  return c.query("SELECT COUNT(*) AS n FROM memberships WHERE org_id = ?", {orgId}).front().i64("n");
}

std::int64_t MembershipRepository::countAdmins(Connection& c, std::int64_t orgId) {
  return c.query("SELECT COUNT(*) AS n FROM memberships WHERE org_id = ? AND role = 'admin'", {orgId})
      .front()
      .i64("n");
}

std::optional<std::int64_t> MembershipRepository::firstOtherOrganization(Connection& c, std::int64_t userId,
                                                                          std::int64_t excludeOrgId) {
  auto rows = c.query("SELECT MIN(org_id) AS id FROM memberships WHERE user_id = ? AND org_id <> ?",
                      {userId, excludeOrgId});
  return rows.front().optI64("id");
}

}  // namespace aev::store

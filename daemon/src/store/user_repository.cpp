#include "store/user_repository.h"

#include "common/clock.h"

namespace aev::store {

const char* UserRepository::columns() {
  return "u.id, u.email, u.username, u.password_hash, u.first_name, u.last_name, u.is_instance_admin, "
         "u.disabled_at, u.active_org_id, u.created_at, u.updated_at";
}

UserRecord UserRepository::fromRow(const Row& r) {
  UserRecord u;
  u.id = r.i64("id");
  u.email = r.str("email");
  u.username = r.str("username");
  u.passwordHash = r.str("password_hash");
  u.firstName = r.str("first_name");
  u.lastName = r.str("last_name");
  u.instanceAdmin = r.boolean("is_instance_admin");
  u.disabledAt = r.optI64("disabled_at");
  u.activeOrgId = r.optI64("active_org_id");
  u.createdAt = r.i64("created_at");
  u.updatedAt = r.i64("updated_at");
  return u;
}

std::int64_t UserRepository::insert(Connection& c, const UserRecord& u) {
  return c.insert(
      "INSERT INTO users (email, username, password_hash, first_name, last_name, is_instance_admin, disabled_at, "
      "active_org_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
      {u.email, u.username, u.passwordHash, u.firstName, u.lastName, std::int64_t{u.instanceAdmin ? 1 : 0},
       optionalValue(u.disabledAt), optionalValue(u.activeOrgId), u.createdAt, u.updatedAt});
}

std::optional<UserRecord> UserRepository::byId(Connection& c, std::int64_t id) {
  auto rows = c.query(std::string("SELECT ") + columns() + " FROM users u WHERE u.id = ?", {id});
  if (rows.empty()) return std::nullopt;
  return fromRow(rows.front());
}

std::optional<UserRecord> UserRepository::byLogin(Connection& c, const std::string& login) {
  auto rows = c.query(std::string("SELECT ") + columns() + " FROM users u WHERE u.email = ? OR u.username = ?",
                      {login, login});
  if (rows.empty()) return std::nullopt;
  return fromRow(rows.front());
}

bool UserRepository::emailTaken(Connection& c, const std::string& email, std::int64_t exceptId) {
  return !c.query("SELECT id FROM users WHERE email = ? AND id <> ?", {email, exceptId}).empty();
}

bool UserRepository::usernameTaken(Connection& c, const std::string& username, std::int64_t exceptId) {
  return !c.query("SELECT id FROM users WHERE username = ? AND id <> ?", {username, exceptId}).empty();
}

std::int64_t UserRepository::count(Connection& c) {
  return c.query("SELECT COUNT(*) AS n FROM users").front().i64("n");
}

void UserRepository::updateProfile(Connection& c, std::int64_t id, const std::string& firstName,
                                   const std::string& lastName) {
  c.exec("UPDATE users SET first_name = ?, last_name = ?, updated_at = ? WHERE id = ?",
         {firstName, lastName, clock::nowMicros(), id});
}

void UserRepository::setActiveOrg(Connection& c, std::int64_t id, std::optional<std::int64_t> orgId) {
  c.exec("UPDATE users SET active_org_id = ?, updated_at = ? WHERE id = ?",
         {optionalValue(orgId), clock::nowMicros(), id});
}

void UserRepository::setDisabled(Connection& c, std::int64_t id, std::optional<std::int64_t> disabledAt) {
  c.exec("UPDATE users SET disabled_at = ?, updated_at = ? WHERE id = ?",
         {optionalValue(disabledAt), clock::nowMicros(), id});
}

void UserRepository::remove(Connection& c, std::int64_t id) { c.exec("DELETE FROM users WHERE id = ?", {id}); }

std::vector<std::pair<UserRecord, std::string>> UserRepository::inOrganization(Connection& c, std::int64_t orgId) {
  auto rows = c.query(std::string("SELECT ") + columns() +
                          ", m.role AS role FROM users u JOIN memberships m ON m.user_id = u.id "
                          "WHERE m.org_id = ? ORDER BY u.id",
                      {orgId});
  std::vector<std::pair<UserRecord, std::string>> out;
  for (const auto& r : rows) out.emplace_back(fromRow(r), r.str("role"));
  return out;
}

std::vector<UserRecord> UserRepository::search(Connection& c, const std::string& q, int limit) {
  // LIKE wildcards in the query are escaped so "%" searches for a percent sign.
  std::string pattern = "%";
  for (char ch : q) {
    if (ch == '%' || ch == '_' || ch == '\\') pattern += '\\';
    pattern += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  pattern += "%";
  auto rows = c.query(std::string("SELECT ") + columns() +
                          " FROM users u WHERE LOWER(u.email) LIKE ? ESCAPE '\\' OR LOWER(u.username) LIKE ? "
                          "ESCAPE '\\' ORDER BY u.id LIMIT ?",
                      {pattern, pattern, std::int64_t{limit}});
  std::vector<UserRecord> out;
  for (const auto& r : rows) out.push_back(fromRow(r));
  return out;
}

void UserRepository::repairActiveOrgs(Connection& c, std::int64_t removedOrgId) {
  c.exec(
      "UPDATE users SET active_org_id = (SELECT MIN(m.org_id) FROM memberships m WHERE m.user_id = users.id "
      "AND m.org_id <> ?) WHERE active_org_id = ?",
      {removedOrgId, removedOrgId});
}

}  // namespace aev::store

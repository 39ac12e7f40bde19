#include "store/environment_repository.h"

namespace aev::store {

namespace {
constexpr const char* kEnvironmentColumns = "id, org_id, name, slug, created_at, updated_at";

EnvironmentRecord environmentFromRow(const Row& r) {
  return {r.i64("id"), r.i64("org_id"), r.str("name"), r.str("slug"), r.i64("created_at"), r.i64("updated_at")};
}

std::optional<EnvironmentRecord> first(const Rows& rows) {
  if (rows.empty()) return std::nullopt;
  return environmentFromRow(rows.front());
}
}  // namespace

std::int64_t EnvironmentRepository::insert(Connection& c, const EnvironmentRecord& e) {
  return c.insert(
      "INSERT INTO environments (org_id, name, slug, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
      {e.orgId, e.name, e.slug, e.createdAt, e.updatedAt});
}

std::vector<EnvironmentRecord> EnvironmentRepository::list(Connection& c, std::int64_t orgId) {
  std::vector<EnvironmentRecord> out;
  for (const auto& r : c.query(
           std::string("SELECT ") + kEnvironmentColumns + " FROM environments WHERE org_id = ? ORDER BY id", {orgId}))
    out.push_back(environmentFromRow(r));
  return out;
}

std::optional<EnvironmentRecord> EnvironmentRepository::byId(Connection& c, std::int64_t orgId, std::int64_t id) {
  return first(c.query(std::string("SELECT ") + kEnvironmentColumns + " FROM environments WHERE org_id = ? AND id = ?",
                       {orgId, id}));
}

std::optional<EnvironmentRecord> EnvironmentRepository::bySlug(Connection& c, std::int64_t orgId,
                                                               const std::string& slug) {
  return first(
      c.query(std::string("SELECT ") + kEnvironmentColumns + " FROM environments WHERE org_id = ? AND slug = ?",
              {orgId, slug}));
}

void EnvironmentRepository::update(Connection& c, const EnvironmentRecord& e) {
  c.exec("UPDATE environments SET name = ?, slug = ?, updated_at = ? WHERE org_id = ? AND id = ?",
         {e.name, e.slug, e.updatedAt, e.orgId, e.id});
}

void EnvironmentRepository::remove(Connection& c, std::int64_t orgId, std::int64_t id) {
  c.exec("DELETE FROM environments WHERE org_id = ? AND id = ?", {orgId, id});
}

}  // namespace aev::store

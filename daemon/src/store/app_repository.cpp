#include "store/app_repository.h"

#include "store/rollup_writer.h"

namespace aev::store {

namespace {
constexpr const char* kAppColumns = "id, org_id, name, creator_user_id, created_at, updated_at";
constexpr const char* kChannelColumns = "id, org_id, app_id, name, last_seq, created_at, updated_at";

AppRecord appFromRow(const Row& r) {
  return {r.i64("id"), r.i64("org_id"), r.str("name"), r.optI64("creator_user_id"), r.i64("created_at"),
          r.i64("updated_at")};
}

ChannelRecord channelFromRow(const Row& r) {
  return {r.i64("id"), r.i64("org_id"), r.i64("app_id"), r.str("name"), r.i64("last_seq"), r.i64("created_at"),
          r.i64("updated_at")};
}
}  // namespace

std::int64_t AppRepository::insert(Connection& c, const AppRecord& a) {
  return c.insert(
      "INSERT INTO apps (org_id, name, creator_user_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
      {a.orgId, a.name, optionalValue(a.creatorUserId), a.createdAt, a.updatedAt});
}

std::vector<AppRecord> AppRepository::list(Connection& c, std::int64_t orgId) {
  std::vector<AppRecord> out;
  for (const auto& r : c.query(std::string("SELECT ") + kAppColumns + " FROM apps WHERE org_id = ? ORDER BY id", {orgId}))
    out.push_back(appFromRow(r));
  return out;
}

std::optional<AppRecord> AppRepository::byId(Connection& c, std::int64_t orgId, std::int64_t id) {
  auto rows = c.query(std::string("SELECT ") + kAppColumns + " FROM apps WHERE org_id = ? AND id = ?", {orgId, id});
  if (rows.empty()) return std::nullopt;
  return appFromRow(rows.front());
}

void AppRepository::rename(Connection& c, std::int64_t orgId, std::int64_t id, const std::string& name,
                           std::int64_t at) {
  c.exec("UPDATE apps SET name = ?, updated_at = ? WHERE org_id = ? AND id = ?", {name, at, orgId, id});
}

void AppRepository::remove(Connection& c, std::int64_t orgId, std::int64_t id) {
  // The rollups hold no foreign key on PostgreSQL (v24): they go here, not by cascade.
  c.exec("DELETE FROM analytics_rollups WHERE org_id = ? AND app_id = ?", {orgId, id});
  c.exec("DELETE FROM apps WHERE org_id = ? AND id = ?", {orgId, id});
}

std::int64_t ChannelRepository::insert(Connection& c, const ChannelRecord& ch) {
  return c.insert(
      "INSERT INTO channels (org_id, app_id, name, last_seq, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?) "
      "RETURNING id",
      {ch.orgId, ch.appId, ch.name, ch.createdAt, ch.updatedAt});
}

std::vector<ChannelRecord> ChannelRepository::ofApp(Connection& c, std::int64_t orgId, std::int64_t appId) {
  std::vector<ChannelRecord> out;
  for (const auto& r : c.query(std::string("SELECT ") + kChannelColumns +
                                   " FROM channels WHERE org_id = ? AND app_id = ? ORDER BY id",
                               {orgId, appId}))
    out.push_back(channelFromRow(r));
  return out;
}

std::optional<ChannelRecord> ChannelRepository::byId(Connection& c, std::int64_t orgId, std::int64_t id) {
  auto rows =
      c.query(std::string("SELECT ") + kChannelColumns + " FROM channels WHERE org_id = ? AND id = ?", {orgId, id});
  if (rows.empty()) return std::nullopt;
  return channelFromRow(rows.front());
}

void ChannelRepository::remove(Connection& c, std::int64_t orgId, std::int64_t id) {
  // Its events leave the analytics rollups before they cascade away (an app's rollups
  // cascade with the app itself).
  RollupWriter().subtractWhere(c, orgId, "e.channel_id = ?", {id});
  c.exec("DELETE FROM channels WHERE org_id = ? AND id = ?", {orgId, id});
}

}  // namespace aev::store

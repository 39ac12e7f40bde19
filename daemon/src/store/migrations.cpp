#include "store/migrations.h"

#include <spdlog/spdlog.h>

#include "common/clock.h"
#include "store/schema_parts.h"

namespace aev::store {

namespace {

std::vector<Migration> build(Dialect d) {
  std::vector<Migration> list;
  list.push_back({1,
                  "identity",
                  {
                      ddl(d, R"(CREATE TABLE organizations (
  id @PK@,
  name TEXT NOT NULL,
  slug TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  plan TEXT NOT NULL,
  subscription_status TEXT NOT NULL DEFAULT 'active',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL))"),
                      ddl(d, R"(CREATE TABLE users (
  id @PK@,
  email TEXT NOT NULL UNIQUE,
  username TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  first_name TEXT NOT NULL DEFAULT '',
  last_name TEXT NOT NULL DEFAULT '',
  is_instance_admin INTEGER NOT NULL DEFAULT 0,
  disabled_at BIGINT,
  active_org_id BIGINT REFERENCES organizations(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL))"),
                      ddl(d, R"(CREATE TABLE memberships (
  id @PK@,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  joined_at BIGINT NOT NULL,
  UNIQUE (user_id, org_id)))"),
                      "CREATE INDEX memberships_org ON memberships(org_id)",
                      ddl(d, R"(CREATE TABLE invitations (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL UNIQUE,
  code_prefix TEXT NOT NULL,
  invited_email TEXT NOT NULL,
  role TEXT NOT NULL,
  status TEXT NOT NULL,
  invited_by BIGINT,
  accepted_by BIGINT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  accepted_at BIGINT))"),
                      "CREATE INDEX invitations_org ON invitations(org_id, status)",
                      ddl(d, R"(CREATE TABLE api_keys (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  key_prefix TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_by BIGINT,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT,
  last_used_at BIGINT))"),
                      "CREATE INDEX api_keys_org ON api_keys(org_id)",
                      ddl(d, R"(CREATE TABLE refresh_tokens (
  id @PK@,
  token_hash TEXT NOT NULL UNIQUE,
  family_id TEXT NOT NULL,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  org_id BIGINT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT,
  revoked_at BIGINT))"),
                      "CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id)",
                      ddl(d, R"(CREATE TABLE access_requests (
  id @PK@,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  decided_at BIGINT,
  decided_by BIGINT))"),
                  }});
  list.push_back({2,
                  "apps_channels_events",
                  {
                      ddl(d, R"(CREATE TABLE apps (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  creator_user_id BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL))"),
                      "CREATE INDEX apps_org ON apps(org_id, id)",
                      // last_seq: the per-channel sequence, advanced in commit order by the
                      // writer (the row lock serialises writers of one channel).
                      ddl(d, R"(CREATE TABLE channels (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  app_id BIGINT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  last_seq BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL))"),
                      "CREATE INDEX channels_app ON channels(app_id, id)",
                      "CREATE INDEX channels_org ON channels(org_id, id)",
                      ddl(d, R"(CREATE TABLE events (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  app_id BIGINT NOT NULL,
  channel_id BIGINT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  seq BIGINT NOT NULL,
  identifier TEXT NOT NULL,
  payload TEXT NOT NULL,
  agent_id TEXT,
  event_type TEXT,
  trace_id TEXT,
  span_id TEXT,
  parent_span_id TEXT,
  metadata TEXT,
  occurred_at BIGINT,
  received_at BIGINT NOT NULL,
  source TEXT NOT NULL,
  api_key_id BIGINT,
  user_id BIGINT,
  UNIQUE (channel_id, seq)))"),
                      "CREATE INDEX events_org_received ON events(org_id, received_at)",
                      "CREATE INDEX events_org_trace ON events(org_id, trace_id)",
                      // Monthly publish counters for quota checks without counting events.
                      ddl(d, R"(CREATE TABLE usage_counters (
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  period TEXT NOT NULL,
  events BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, period)))"),
                  }});
  list.push_back({3,
                  "traces",
                  {
                      // One rollup row per (organization, trace), updated in the same
                      // transaction as the trace's events, so listing never scans events.
                      ddl(d, R"(CREATE TABLE traces (
  id @PK@,
  org_id BIGINT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  trace_id TEXT NOT NULL,
  app_id BIGINT NOT NULL,
  channel_id BIGINT NOT NULL,
  start_time BIGINT NOT NULL,
  end_time BIGINT NOT NULL,
  event_count BIGINT NOT NULL,
  error_count BIGINT NOT NULL,
  tool_call_count BIGINT NOT NULL,
  handoff_count BIGINT NOT NULL,
  agents TEXT NOT NULL,
  event_types TEXT NOT NULL,
  UNIQUE (org_id, trace_id)))"),
                      "CREATE INDEX traces_org_start ON traces(org_id, start_time)",
                      "CREATE INDEX events_org_trace_time ON events(org_id, trace_id, occurred_at, received_at)",
                  }});
  list.push_back(telemetryMigration(d));
  list.push_back(environmentsMigration(d));
  list.push_back(moderationMigration(d));
  list.push_back(auditMigration(d));
  list.push_back(spendMigration(d));
  list.push_back(deliveryMigration(d));
  list.push_back(exportsMigration(d));
  list.push_back(alertsMigration(d));
  list.push_back(eventIndexesMigration(d));
  list.push_back(traceUsageMigration(d));
  list.push_back(storeIdentityMigration(d));
  list.push_back(sessionsMigration(d));
  list.push_back(ingestMigration(d));
  list.push_back(pluginConfigMigration(d));
  list.push_back(tokenDetailsMigration(d));
  list.push_back(traceTextsMigration(d));
  list.push_back(rollupsMigration(d));
  list.push_back(spendRefusalsMigration(d));
  list.push_back(rollupDaysMigration(d));
  list.push_back(traceFacetsMigration(d));
  list.push_back(rollupKeysMigration(d));
  return list;
}

void ensureBookkeeping(Database& db) {
  db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
      "applied_at BIGINT NOT NULL)");
}

}  // namespace

const std::vector<Migration>& migrationsFor(Dialect dialect) {
  static const std::vector<Migration> sqlite = build(Dialect::SQLite);
  static const std::vector<Migration> postgres = build(Dialect::PostgreSQL);
  return dialect == Dialect::SQLite ? sqlite : postgres;
}

int currentSchemaVersion(Database& db) {
  ensureBookkeeping(db);
  auto rows = db.query("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations");
  return static_cast<int>(rows.front().i64("v"));
}

int latestSchemaVersion(Dialect dialect) { return migrationsFor(dialect).back().version; }

SchemaTooNew::SchemaTooNew(int found, int known)
    : std::runtime_error("the store's schema is version " + std::to_string(found) + ", newer than this agent-eventsd " +
                         AEV_VERSION + " knows (version " + std::to_string(known) +
                         "): a newer release wrote it. Nothing was changed; run that release (or a newer one), or "
                         "restore a backup taken before the upgrade"),
      found(found),
      known(known) {}

int migrate(Database& db) {
  ensureBookkeeping(db);
  // Before anything runs: an older build must not half-migrate, or write rows in an old
  // shape into, a store a newer release has moved on.
  const int found = currentSchemaVersion(db);
  const int known = latestSchemaVersion(db.dialect());
  if (found > known) throw SchemaTooNew(found, known);
  int applied = 0;
  for (const auto& m : migrationsFor(db.dialect())) {
    db.transaction([&](Connection& conn) {
      // Re-read inside the transaction: two nodes starting together on one PostgreSQL
      // must not both apply a migration (the primary key on version stops the second).
      auto rows =
          conn.query("SELECT COUNT(*) AS n FROM schema_migrations WHERE version = ?", {std::int64_t{m.version}});
      if (rows.front().i64("n") > 0) return;
      spdlog::info("applying migration {} ({})", m.version, m.name);
      for (const auto& sql : m.statements) conn.exec(sql);
      conn.exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                {std::int64_t{m.version}, m.name, clock::nowMicros()});
      ++applied;
    });
  }
  return applied;
}

}  // namespace aev::store

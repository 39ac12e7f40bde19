// agent-eventsd backup and restore with real processes (docs/operations.md#backup-and-restore):
// a backup taken while publishers keep writing finishes and holds every event acknowledged
// before it began; the restored store never lets a stale stream position resume silently;
// a backup or a dump put in place by hand is refused at start-up until `restore --in-place`.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <set>
#include <thread>

#include "support/backend.h"
#include "support/daemon_process.h"
#include "support/postgres_server.h"
#include "support/sse_client.h"
#include "upgrade/store_commands.h"

namespace aev::testing::upgrade {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

struct Origin {
  std::unique_ptr<DaemonProcess> daemon;
  std::string token;
  std::int64_t orgId = 0;
  std::int64_t channel = 0;
  std::string backupDir;
  std::vector<std::int64_t> ackedBeforeBackup;  // in publish order per publisher, merged
  std::int64_t lastAckedAfterBackup = 0;        // an id the original issued once the backup ran
};

DaemonOptions freshStore() {
  DaemonOptions o;
  if (currentBackend() == Backend::PostgreSQL)
    o.databaseUrl = PostgresServer::instance().createDatabase();
  else
    o.databaseUrl = "";
  return o;
}

std::string tokenOf(const HttpResult& login) { return login.object()->getValue<std::string>("access_token"); }

// One origin per test binary: seeding under load costs seconds, and every test here reads
// it without changing it.
class BackupRestore : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    origin_ = std::make_unique<Origin>();
    auto& o = *origin_;
    o.daemon = std::make_unique<DaemonProcess>(freshStore());
    o.daemon->start();
    auto anon = o.daemon->client();
    anon.post(
        "/auth/register",
        obj({{"email", "backup@example.com"}, {"username", "backup"}, {"password", "correct horse battery staple"}}));
    o.token =
        tokenOf(anon.post("/auth/login", obj({{"login", "backup"}, {"password", "correct horse battery staple"}})));
    o.orgId =
        o.daemon->client().withBearer(o.token).get("/users/me").object()->getValue<std::int64_t>("organizationId");
    auto http = tenantClient(*o.daemon);
    auto app = http.post("/apps", obj({{"name", "load"}}));
    if (app.status != 201) throw std::runtime_error(app.describe());
    auto channel = http.post("/channel", obj({{"name", "c"}, {"appId", app.object()->getValue<std::int64_t>("id")}}));
    if (channel.status != 201) throw std::runtime_error(channel.describe());
    o.channel = channel.object()->getValue<std::int64_t>("id");

    // Four publishers write until told to stop; each acknowledgement is stamped, so the
    // events acknowledged before the backup began are known exactly.
    std::atomic<bool> stop{false};
    std::mutex mu;
    std::vector<std::pair<Clock::time_point, std::int64_t>> acks;
    std::vector<std::thread> publishers;
    for (int p = 0; p < 4; ++p)
      publishers.emplace_back([&, p] {
        auto client = tenantClient(*o.daemon);
        for (int i = 0; !stop && i < 20000; ++i) {
          auto r = client.post("/event", obj({{"identifier", "p" + std::to_string(p) + "-" + std::to_string(i)},
                                              {"channel_id", o.channel},
                                              {"payload", obj({{"text", std::string(200, 'x')}})}}));
          if (r.status != 201) continue;
          std::lock_guard lock(mu);
          acks.emplace_back(Clock::now(), r.object()->getValue<std::int64_t>("id"));
        }
      });
    std::this_thread::sleep_for(1500ms);
    o.backupDir = (fs::path(o.daemon->dataDir()).parent_path() / "backup").string();
    const auto began = Clock::now();
    backup_ = runStoreCommand(*o.daemon, {"backup", o.backupDir});
    backupSeconds_ = std::chrono::duration<double>(Clock::now() - began).count();
    std::this_thread::sleep_for(500ms);  // the original keeps issuing ids after the backup
    stop = true;
    for (auto& t : publishers) t.join();
    for (const auto& [at, id] : acks) {
      if (at < began) o.ackedBeforeBackup.push_back(id);
      o.lastAckedAfterBackup = std::max(o.lastAckedAfterBackup, id);
    }
  }
  static void TearDownTestSuite() { origin_.reset(); }

  // The origin's user acting on its organization (x-tenant-id), on any daemon.
  static HttpClient tenantClient(const DaemonProcess& d) {
    return d.client().withBearer(origin_->token).withHeader("x-tenant-id", std::to_string(origin_->orgId));
  }

  // A new daemon whose store is the backup, restored by the command.
  static std::unique_ptr<DaemonProcess> restored() {
    auto d = std::make_unique<DaemonProcess>(freshStore());
    d->prepare();
    auto r = runStoreCommand(*d, {"restore", origin_->backupDir});
    if (!r.ok()) throw std::runtime_error("restore failed: " + r.output);
    d->start();
    return d;
  }

  static std::unique_ptr<Origin> origin_;
  static CommandResult backup_;
  static double backupSeconds_;
};

std::unique_ptr<Origin> BackupRestore::origin_;
CommandResult BackupRestore::backup_;
double BackupRestore::backupSeconds_ = 0;

std::set<std::int64_t> listedIds(const HttpClient& http, std::int64_t channel) {
  std::set<std::int64_t> ids;
  for (int page = 1;; ++page) {
    auto r = http.get("/event/" + std::to_string(channel) + "/list?limit=100&page=" + std::to_string(page));
    if (r.status != 200) throw std::runtime_error(r.describe());
    auto data = r.object()->getArray("data");
    for (std::size_t i = 0; i < data->size(); ++i) ids.insert(data->getObject(i)->getValue<std::int64_t>("id"));
    if (data->size() < 100) return ids;
  }
}

TEST_F(BackupRestore, ABackupUnderPublishLoadFinishesAndKeepsEveryAcknowledgedEvent) {
  ASSERT_TRUE(backup_.ok()) << backup_.output;
  EXPECT_LT(backupSeconds_, 60.0) << backup_.output;  // a bound for a hang, not a benchmark
  EXPECT_NE(backup_.output.find("backup of the"), std::string::npos) << backup_.output;
  ASSERT_GT(origin_->ackedBeforeBackup.size(), 50u) << "the publishers barely ran";
  std::cout << "[ backup   ] " << origin_->ackedBeforeBackup.size() << " events acknowledged before it began; "
            << backupSeconds_ << " s under load:\n"
            << backup_.output;
  EXPECT_TRUE(fs::exists(fs::path(origin_->backupDir) / "backup.json"));
  if (currentBackend() == Backend::SQLite)
    for (const char* key : {"jwt.secret", "webhook-secrets.key", "audit-signing.key"}) {
      const auto path = fs::path(origin_->backupDir) / key;
      ASSERT_TRUE(fs::exists(path)) << key;
      EXPECT_EQ(fs::status(path).permissions() & fs::perms::all,
                fs::status(fs::path(origin_->daemon->dataDir()) / key).permissions() & fs::perms::all)
          << key << ": mode not preserved";
    }

  auto d = restored();
  // The keys came along: the original's login and its access token still work.
  auto http = tenantClient(*d);
  const auto ids = listedIds(http, origin_->channel);
  for (auto id : origin_->ackedBeforeBackup)
    ASSERT_TRUE(ids.count(id)) << "event " << id << " acknowledged before "
                               << "the backup is missing after the restore";
  auto verify = http.get("/audit-logs/verify");
  EXPECT_EQ(verify.status, 200) << verify.describe();
}

TEST_F(BackupRestore, AStaleCursorAfterRestoreGetsAResetAndACursorInsideTheBackupResumesExactly) {
  ASSERT_TRUE(backup_.ok()) << backup_.output;
  auto d = restored();
  auto http = tenantClient(*d);
  const auto channelPath = "/channel/" + std::to_string(origin_->channel) + "/subscribe";
  // The restored store issues new ids after the gap, never the original's.
  auto published = http.post(
      "/event", obj({{"identifier", "after-restore"}, {"channel_id", origin_->channel}, {"payload", obj({{"n", 1}})}}));
  ASSERT_EQ(published.status, 201) << published.describe();
  const auto newId = published.object()->getValue<std::int64_t>("id");
  EXPECT_GT(newId, origin_->lastAckedAfterBackup);

  // A position the original issued after the backup: reset, never a silent resume.
  SseStream stale("127.0.0.1", d->port());
  stale.start(channelPath, {{"Authorization", "Bearer " + origin_->token},
                            {"Last-Event-ID", std::to_string(origin_->lastAckedAfterBackup)}});
  ASSERT_TRUE(stale.waitHead(10s)) << stale.describe();
  auto first = stale.next(10s);
  ASSERT_TRUE(first) << stale.describe();
  EXPECT_EQ(first->event, "reset") << first->raw;
  stale.close();

  // A position inside the backup: exactly the events after it, then the new one.
  const auto ids = listedIds(http, origin_->channel);
  std::vector<std::int64_t> ordered(ids.begin(), ids.end());
  ASSERT_GT(ordered.size(), 10u);
  const auto from = ordered[ordered.size() - 6];
  SseStream resumed("127.0.0.1", d->port());
  resumed.start(channelPath, {{"Authorization", "Bearer " + origin_->token}, {"Last-Event-ID", std::to_string(from)}});
  ASSERT_TRUE(resumed.waitHead(10s)) << resumed.describe();
  std::vector<std::int64_t> got;
  for (int i = 0; i < 5; ++i) {
    auto m = resumed.next(10s);
    ASSERT_TRUE(m) << resumed.describe();
    ASSERT_NE(m->event, "reset") << m->raw;
    got.push_back(m->numericId());
  }
  EXPECT_EQ(got, std::vector<std::int64_t>(ordered.end() - 5, ordered.end()));
}

TEST_F(BackupRestore, AStoreRestoredByHandIsRefusedUntilRestoreInPlace) {
  ASSERT_TRUE(backup_.ok()) << backup_.output;
  DaemonProcess d(freshStore());
  d.prepare();
  const fs::path backup = origin_->backupDir;
  if (currentBackend() == Backend::SQLite) {
    for (const auto& e : fs::directory_iterator(backup))
      if (e.path().filename() != "backup.json") fs::copy_file(e.path(), fs::path(d.dataDir()) / e.path().filename());
  } else {
    auto r = runCommand({PostgresServer::binDir() + "/pg_restore", "--no-owner", "--no-privileges", "-d",
                         d.databaseUrl(), (backup / "agent-events.pgdump").string()});
    ASSERT_TRUE(r.ok()) << r.output;
  }
  auto refused = runCommand(d.commandLine(), 60s);
  EXPECT_TRUE(refused.status.exited && refused.status.code == 78) << refused.status.describe() << refused.output;
  EXPECT_NE(refused.output.find("restore --in-place"), std::string::npos) << refused.output;

  auto fix = runStoreCommand(d, {"restore", "--in-place"});
  ASSERT_TRUE(fix.ok()) << fix.output;
  ASSERT_NO_THROW(d.start()) << d.logTail();
  auto http = tenantClient(d);
  auto published = http.post(
      "/event",
      obj({{"identifier", "after-hand-restore"}, {"channel_id", origin_->channel}, {"payload", obj({{"n", 1}})}}));
  ASSERT_EQ(published.status, 201) << published.describe();
  EXPECT_GT(published.object()->getValue<std::int64_t>("id"), origin_->lastAckedAfterBackup);
}

TEST_F(BackupRestore, RestoreRefusesAStoreThatIsNotEmptyAndABackupThatWasAltered) {
  ASSERT_TRUE(backup_.ok()) << backup_.output;
  auto again = runStoreCommand(*origin_->daemon, {"restore", origin_->backupDir});
  EXPECT_FALSE(again.ok()) << again.output;
  EXPECT_TRUE(again.output.find("exists") != std::string::npos || again.output.find("not empty") != std::string::npos)
      << again.output;

  // A truncated copy is caught by its recorded size and SHA-256 before anything is written.
  const auto altered = fs::path(origin_->daemon->dataDir()).parent_path() / "altered";
  fs::copy(origin_->backupDir, altered, fs::copy_options::recursive);
  const auto store = altered / (currentBackend() == Backend::SQLite ? "agent-events.db" : "agent-events.pgdump");
  fs::resize_file(store, fs::file_size(store) / 2);
  DaemonProcess d(freshStore());
  d.prepare();
  auto r = runStoreCommand(d, {"restore", altered.string()});
  EXPECT_FALSE(r.ok()) << r.output;
  EXPECT_NE(r.output.find("SHA-256"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(fs::path(d.dataDir()) / "agent-events.db"));
}

}  // namespace
}  // namespace aev::testing::upgrade

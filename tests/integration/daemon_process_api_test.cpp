// The daemon as a process: command line, configuration layers (defaults < file <
// AGENT_EVENTS_* environment < options), start-up failures, log hygiene, and races
// on unique values.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <thread>

#include "support/api_fixture.h"
#include "support/backend.h"
#include "support/jwt_tools.h"
#include "support/postgres_server.h"

namespace aev::testing {
namespace {

// The seat limit a new organization gets is an observable config value.
std::int64_t seatLimitSeenBy(DaemonProcess& d) {
  auto http = d.client();
  const auto id = std::to_string(::getpid()) + "c" + std::to_string(std::rand());
  auto reg = http.post("/auth/register", obj({{"email", "cfg-" + id + "@example.test"}, {"username", "cfg_" + id},
                                              {"password", "long-enough-pw"}}));
  if (reg.status != 201) throw std::runtime_error(reg.describe());
  auto login = http.post("/auth/login", obj({{"login", "cfg_" + id}, {"password", "long-enough-pw"}}));
  if (login.status != 200) throw std::runtime_error(login.describe());
  auto org = http.withBearer(strField(login.object(), "access_token"))
                 .get("/organizations/" + std::to_string(intField(reg.object(), "organizationId")));
  if (org.status != 200) throw std::runtime_error(org.describe());
  return intField(org.object(), "seatLimit");
}

TEST(DaemonCommandLine, VersionAndHelpExitZero) {
  auto version = runCommand({DaemonProcess::binaryPath(), "--version"}, std::chrono::seconds(20));
  EXPECT_TRUE(version.ok()) << version.status.describe() << "\n" << version.output;
  EXPECT_NE(version.output.find("agent-eventsd"), std::string::npos) << version.output;
  auto help = runCommand({DaemonProcess::binaryPath(), "--help"}, std::chrono::seconds(20));
  EXPECT_TRUE(help.ok()) << help.status.describe() << "\n" << help.output;
  for (const char* option : {"--config", "--port", "--host", "--data-dir", "--database-url", "--set"})
    EXPECT_NE(help.output.find(option), std::string::npos) << option << " missing from --help:\n" << help.output;
}

TEST(DaemonCommandLine, MissingConfigFileFailsFast) {
  auto r = runCommand({DaemonProcess::binaryPath(), "--config", "/nonexistent/agent-eventsd.properties", "--port", "0"},
                      std::chrono::seconds(20));
  EXPECT_FALSE(r.ok()) << r.output;
  EXPECT_TRUE(r.status.exited) << r.status.describe();
  EXPECT_NE(r.output.find("nonexistent"), std::string::npos) << r.output;
}

TEST(DaemonCommandLine, UnreachableDatabaseFailsFast) {
  TempDir dir("aev-cli");
  auto r = runCommand({DaemonProcess::binaryPath(), "--port", std::to_string(freeLoopbackPort()), "--data-dir",
                       dir.file("data"), "--database-url", "postgresql://nobody@127.0.0.1:1/none"},
                      std::chrono::seconds(30));
  EXPECT_FALSE(r.ok()) << r.output;
  EXPECT_TRUE(r.status.exited) << r.status.describe();
}

TEST(DaemonCommandLine, PortInUseFailsFast) {
  DaemonProcess first;
  ASSERT_NO_THROW(first.start());
  TempDir dir("aev-cli");
  // A second instance on the same address must not start (and must not share the port
  // with the first through SO_REUSEPORT, splitting its traffic).
  try {
    auto r = runCommand({DaemonProcess::binaryPath(), "--host", "127.0.0.1", "--port", std::to_string(first.port()),
                         "--data-dir", dir.file("data")},
                        std::chrono::seconds(10));
    EXPECT_FALSE(r.ok()) << r.output;
    EXPECT_TRUE(r.status.exited) << r.status.describe();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "a second daemon kept running on a port already in use:\n" << e.what();
  }
  EXPECT_STATUS(first.client().get("/healthz"), 200);
  EXPECT_EQ(first.stop().code, 0);
}

// A configuration key the daemon does not know is refused at start-up (exit 78, naming
// the key and the nearest known one) in each layer an operator writes: a typo must not
// silently mean "the default".
CommandResult startWith(const std::vector<std::string>& prefix, const std::string& fileText,
                        const std::vector<std::string>& args) {
  TempDir dir("aev-keys");
  writeFile(dir.file("agent-eventsd.properties"), fileText);
  std::vector<std::string> argv = prefix;
  for (const auto& a :
       std::vector<std::string>{DaemonProcess::binaryPath(), "--config", dir.file("agent-eventsd.properties"), "--port",
                                "0", "--data-dir", dir.file("data")})
    argv.push_back(a);
  argv.insert(argv.end(), args.begin(), args.end());
  return runCommand(argv, std::chrono::seconds(30));
}

TEST(DaemonConfiguration, UnknownKeysAreRefusedNamingTheNearestKnownKey) {
  struct Case {
    std::string layer;
    std::vector<std::string> prefix;
    std::string file;
    std::vector<std::string> args;
    std::string named, suggested;
  };
  const Case cases[] = {
      {"file", {}, "http.cors_origin = https://app.example\n", {}, "http.cors_origin", "http.cors_origins"},
      {"--set", {}, "", {"--set", "http.cors_origin=https://app.example"}, "http.cors_origin", "http.cors_origins"},
      {"environment",
       {"/usr/bin/env", "AGENT_EVENTS_HTTP_CORS_ORIGIN=https://app.example"},
       "",
       {},
       "AGENT_EVENTS_HTTP_CORS_ORIGIN",
       "AGENT_EVENTS_HTTP_CORS_ORIGINS"},
      {"a section that does not exist", {}, "htp.port = 1\n", {}, "htp.port", "http.port"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.layer);
    const auto r = startWith(c.prefix, c.file, c.args);
    EXPECT_TRUE(r.status.exited) << r.status.describe() << "\n" << r.output;
    EXPECT_EQ(r.status.code, 78) << r.output;
    EXPECT_NE(r.output.find("unknown configuration"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(c.named + " "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("did you mean " + c.suggested + "?"), std::string::npos) << r.output;
  }
}

TEST(DaemonConfiguration, UnknownKeysOnlyWarnWhenAskedAndSoDoKeysOfAMissingPlugin) {
  DaemonOptions o;
  o.config = {{"http.cors_origin", "https://app.example"},
              {"config.unknown_keys", "warn"},
              {"plugins.some_plugin.some_setting", "1"}};
  DaemonProcess d(o);
  ASSERT_NO_THROW(d.start());
  EXPECT_STATUS(d.client().get("/healthz"), 200);
  const auto log = d.log();
  EXPECT_NE(log.find("unknown configuration key http.cors_origin"), std::string::npos) << log;
  EXPECT_NE(log.find("unknown configuration key plugins.some_plugin.some_setting: no plugin named some_plugin"),
            std::string::npos)
      << log;
  EXPECT_EQ(d.stop().code, 0);
  // Without warn, a key of a plugin that does not exist stops start-up as a core key does.
  const auto r = startWith({}, "", {"--set", "plugins.some_plugin.some_setting=1"});
  EXPECT_EQ(r.status.code, 78) << r.output;
  EXPECT_NE(r.output.find("unknown configuration key plugins.some_plugin.some_setting: no plugin named some_plugin"),
            std::string::npos)
      << r.output;
}

TEST(DaemonConfiguration, APublicUrlThatIsNotAnHttpUrlIsRefused) {
  for (const char* url : {"ftp://events.example", "events.example", "https://events.example/?a=b"}) {
    const auto r = startWith({}, "", {"--set", std::string("http.public_url=") + url});
    EXPECT_EQ(r.status.code, 78) << url << "\n" << r.output;
    EXPECT_NE(r.output.find("http.public_url"), std::string::npos) << r.output;
  }
}

TEST(DaemonConfiguration, LayersOverrideInOrder) {
  {
    DaemonOptions o;
    o.config = {{"plans.free.seat_limit", "4"}};
    DaemonProcess d(o);
    ASSERT_NO_THROW(d.start());
    EXPECT_EQ(seatLimitSeenBy(d), 4) << "the properties file is read";
    d.stop();
  }
  {
    DaemonOptions o;
    o.config = {{"plans.free.seat_limit", "4"}};
    o.env = {{"AGENT_EVENTS_PLANS_FREE_SEAT_LIMIT", "7"}};
    DaemonProcess d(o);
    ASSERT_NO_THROW(d.start());
    EXPECT_EQ(seatLimitSeenBy(d), 7) << "the environment beats the file";
    d.stop();
  }
  {
    DaemonOptions o;
    o.config = {{"plans.free.seat_limit", "4"}};
    o.env = {{"AGENT_EVENTS_PLANS_FREE_SEAT_LIMIT", "7"}};
    o.set = {{"plans.free.seat_limit", "9"}};
    DaemonProcess d(o);
    ASSERT_NO_THROW(d.start());
    EXPECT_EQ(seatLimitSeenBy(d), 9) << "--set beats the environment";
    d.stop();
  }
}

TEST(DaemonConfiguration, ConfiguredJwtSecretIsUsed) {
  const std::string secret = "configured-secret-0123456789-abcdefghijklmnop";
  DaemonOptions o;
  o.set = {{"auth.jwt_secret", secret}};
  DaemonProcess d(o);
  ASSERT_NO_THROW(d.start());
  auto http = d.client();
  ASSERT_STATUS(http.post("/auth/register", obj({{"email", "secret@example.test"}, {"username", "secret_user"},
                                                 {"password", "long-enough-pw"}})),
                201);
  auto login = http.post("/auth/login", obj({{"login", "secret_user"}, {"password", "long-enough-pw"}}));
  ASSERT_STATUS(login, 200);
  auto parts = decodeJwt(strField(login.object(), "access_token"));
  // A token signed with the configured secret is accepted: the daemon uses it.
  parts.payload->set("jti", "forged-with-configured-secret");
  EXPECT_STATUS(http.withBearer(signJwt(parts.header, parts.payload, secret)).get("/users/me"), 200);
  EXPECT_TRUE(IsProblem(http.withBearer(signJwt(parts.header, parts.payload, secret + "x")).get("/users/me"), 401));
  EXPECT_EQ(d.stop().code, 0);
}

// Poco's PostgreSQL connector cuts its connection string at every space: a passphrase or
// several -c settings in `options` reach libpq through its environment variables instead.
// Here the options set the session's application_name, which the server then shows.
// The database's name in postgresql://USER@127.0.0.1:PORT/NAME[?...].
std::string databaseNameOf(const std::string& url) {
  const auto slash = url.find('/', url.find('@'));
  const auto query = url.find('?', slash);
  return url.substr(slash + 1, query == std::string::npos ? std::string::npos : query - slash - 1);
}

// The daemon's PostgreSQL sessions named by their application_name.
int sessionsNamed(const std::string& database, const std::string& applicationName) {
  return std::stoi(PostgresServer::instance().psql(
      database, "SELECT count(*) FROM pg_stat_activity WHERE application_name = '" + applicationName + "'"));
}

TEST(DaemonConfiguration, PostgresUrlValuesWithSpacesReachTheServer) {
  if (currentBackend() != Backend::PostgreSQL) GTEST_SKIP() << "a PostgreSQL URL";
  auto url = freshDatabaseUrl();
  const auto database = databaseNameOf(url);
  const auto at = url.find('@');
  const auto query = url.find('?', at);
  // The test server trusts local connections: the passphrase must only not break the string.
  url.insert(at, ":correct%20horse%20battery");
  url += std::string(query == std::string::npos ? "?" : "&") +
         "options=-c%20application_name%3Daev_conninfo_test%20-c%20lock_timeout%3D7s";
  DaemonOptions o;
  o.databaseUrl = url;
  DaemonProcess d(o);
  ASSERT_NO_THROW(d.start()) << d.logTail();
  EXPECT_STATUS(d.client().get("/readyz"), 200);
  EXPECT_GE(sessionsNamed(database, "aev_conninfo_test"), 1);
  EXPECT_EQ(d.stop().code, 0);
}

// database.postgresql_settings: given to each session as it opens (here its
// application_name, which the server shows); one PostgreSQL refuses stops start-up.
TEST(DaemonConfiguration, PostgresqlSettingsReachTheSessionsAndARefusedOneStopsStartUp) {
  if (currentBackend() != Backend::PostgreSQL) GTEST_SKIP() << "PostgreSQL settings";
  {
    DaemonOptions o;
    o.databaseUrl = freshDatabaseUrl();
    o.set = {{"database.postgresql_settings", "jit=off, random_page_cost=1.1, application_name=aev_settings_test"}};
    DaemonProcess d(o);
    ASSERT_NO_THROW(d.start()) << d.logTail();
    EXPECT_STATUS(d.client().get("/readyz"), 200);
    EXPECT_GE(sessionsNamed(databaseNameOf(*o.databaseUrl), "aev_settings_test"), 1);
    EXPECT_EQ(d.stop().code, 0);
  }
  {
    DaemonOptions o;
    o.databaseUrl = freshDatabaseUrl();
    o.set = {{"database.postgresql_settings", "jit=off, random_page_cost=cheap"}};
    DaemonProcess d(o);
    try {
      d.start();
      ADD_FAILURE() << "started with random_page_cost=cheap";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("database.postgresql_settings: PostgreSQL refused random_page_cost=cheap"), std::string::npos)
          << what;
    }
  }
}

class LogHygieneApi : public ApiTest {};

TEST_F(LogHygieneApi, SecretsAndQueryStringsNeverReachTheLog) {
  auto u = registerUser("hygiene");
  ASSERT_TRUE(IsProblem(loginRaw(u.email, "Wrong-Password-Value-42"), 401));
  auto key = u.http.post("/api-keys", obj({{"name", "hygiene"}, {"scopes", arr({"read"})}}));
  ASSERT_STATUS(key, 201);
  const auto apiKey = strField(key.object(), "key");
  EXPECT_STATUS(anon().withApiKey(apiKey).get("/auth/whoami"), 200);
  auto refreshed = anon().post("/auth/refresh", obj({{"refresh_token", u.refreshToken}}));
  ASSERT_STATUS(refreshed, 200);
  EXPECT_STATUS(admin().http.get("/admin/users?q=query-secret-marker"), 200);
  auto inv = u.http.post("/organizations/" + std::to_string(u.personalOrgId) + "/invitations",
                         obj({{"invitedEmail", "logcheck-" + unique() + "@example.test"}, {"desired_role", "user"}}));
  ASSERT_STATUS(inv, 201);

  const auto log = daemon().log();
  ASSERT_FALSE(log.empty());
  struct Secret {
    const char* what;
    std::string value;
  };
  for (const auto& s : std::vector<Secret>{{"password", u.password},
                                           {"wrong password", "Wrong-Password-Value-42"},
                                           {"api key", apiKey},
                                           {"access token", u.accessToken},
                                           {"refresh token", u.refreshToken},
                                           {"rotated refresh token", strField(refreshed.object(), "refresh_token")},
                                           {"invitation code", strField(inv.object(), "code")},
                                           {"query string", "query-secret-marker"}})
    EXPECT_EQ(log.find(s.value), std::string::npos) << "the daemon log contains the " << s.what;
}

class UniqueRaceApi : public ApiTest {};

TEST_F(UniqueRaceApi, ConcurrentDuplicateRegistrationsGiveOne201AndOnly409s) {
  const auto id = unique();
  constexpr int kThreads = 8;
  std::vector<int> statuses(kThreads, 0);
  std::vector<std::thread> threads;
  std::atomic<bool> go{false};
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      while (!go) std::this_thread::yield();
      try {
        statuses[i] = registerRaw("race-" + id + "@example.test", "race_" + id, "long-enough-pw").status;
      } catch (const std::exception&) {
        statuses[i] = -1;
      }
    });
  go = true;
  for (auto& t : threads) t.join();
  int created = 0, conflicts = 0;
  for (int s : statuses) {
    created += s == 201;
    conflicts += s == 409;
  }
  EXPECT_EQ(created, 1) << ::testing::PrintToString(statuses);
  EXPECT_EQ(conflicts, kThreads - 1) << ::testing::PrintToString(statuses);
}

TEST_F(UniqueRaceApi, ConcurrentDuplicateSlugsGiveOne201AndOnly409s) {
  const auto slug = "race-" + unique();
  constexpr int kThreads = 6;
  std::vector<TestUser> users;
  for (int i = 0; i < kThreads; ++i) users.push_back(registerUser("slugrace"));
  std::vector<int> statuses(kThreads, 0);
  std::vector<std::thread> threads;
  std::atomic<bool> go{false};
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      while (!go) std::this_thread::yield();
      try {
        statuses[i] = users[i].http.post("/organizations", obj({{"name", "Race"}, {"slug", slug}})).status;
      } catch (const std::exception&) {
        statuses[i] = -1;
      }
    });
  go = true;
  for (auto& t : threads) t.join();
  int created = 0, conflicts = 0;
  for (int s : statuses) {
    created += s == 201;
    conflicts += s == 409;
  }
  EXPECT_EQ(created, 1) << ::testing::PrintToString(statuses);
  EXPECT_EQ(conflicts, kThreads - 1) << ::testing::PrintToString(statuses);
}

TEST_F(UniqueRaceApi, ConcurrentRefreshOfOneTokenRotatesOnce) {
  auto u = registerUser("refreshrace");
  constexpr int kThreads = 6;
  std::vector<int> statuses(kThreads, 0);
  std::vector<std::thread> threads;
  std::atomic<bool> go{false};
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      while (!go) std::this_thread::yield();
      try {
        statuses[i] = anon().post("/auth/refresh", obj({{"refresh_token", u.refreshToken}})).status;
      } catch (const std::exception&) {
        statuses[i] = -1;
      }
    });
  go = true;
  for (auto& t : threads) t.join();
  int ok = 0, refused = 0;
  for (int s : statuses) {
    ok += s == 200;
    refused += s == 401;
  }
  // At most one rotation wins; every other presentation is a reuse.
  EXPECT_LE(ok, 1) << ::testing::PrintToString(statuses);
  EXPECT_EQ(ok + refused, kThreads) << ::testing::PrintToString(statuses);
}

}  // namespace
}  // namespace aev::testing

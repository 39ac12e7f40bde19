#pragma once
// Unit tests of code that runs SQL, on both stores: a StoreTest fixture runs each test
// once on a SQLite file in a temp dir and once on a fresh database of the throw-away
// PostgreSQL server (skipped when PostgreSQL is not installed). The PostgreSQL runs are
// named .../PostgreSQL, which is how CTest's unit.postgresql selects them.
//
//   class MyTest : public aev::testing::StoreTest {
//     void SetUp() override { openStore(); if (IsSkipped()) return; ... }
//   };
//   AEV_STORE_BACKENDS(MyTest);
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

#include "store/database.h"
#include "store/migrations.h"
#include "support/postgres_server.h"
#include "support/process.h"

namespace aev::testing {

enum class StoreBackend { SQLite, PostgreSQL };

inline std::string storeBackendName(const ::testing::TestParamInfo<StoreBackend>& info) {
  return info.param == StoreBackend::SQLite ? "SQLite" : "PostgreSQL";
}

class StoreTest : public ::testing::TestWithParam<StoreBackend> {
 protected:
  // Opens and migrates db_; skips the test when its backend is missing.
  void openStore(int poolSize = 4) {
    dir_ = std::make_unique<TempDir>("aev-unit-store");
    store::DatabaseOptions options;
    options.poolSize = poolSize;
    if (GetParam() == StoreBackend::PostgreSQL) {
      if (!PostgresServer::available()) GTEST_SKIP() << "PostgreSQL is not installed";
      options.url = PostgresServer::instance().createDatabase();
    } else {
      options.dataDir = dir_->path();
      options.sqliteSynchronous = "OFF";
    }
    db_ = std::make_unique<store::Database>(options);
    store::migrate(*db_);
  }

  std::int64_t addOrganization(const std::string& slug, const std::string& plan = "free") {
    return db_->insert(
        "INSERT INTO organizations (name, slug, plan, created_at, updated_at) VALUES (?, ?, ?, 0, 0) RETURNING id",
        {slug, slug, plan});
  }

  // A new app with one channel in the organization: {appId, channelId}.
  std::pair<std::int64_t, std::int64_t> addAppAndChannel(std::int64_t orgId) {
    const auto app = db_->insert(
        "INSERT INTO apps (org_id, name, created_at, updated_at) VALUES (?, 'a', 0, 0) RETURNING id", {orgId});
    return {app, addChannel(orgId, app, "c")};
  }

  // Another channel of an app: its id.
  std::int64_t addChannel(std::int64_t orgId, std::int64_t appId, const std::string& name) {
    return db_->insert(
        "INSERT INTO channels (org_id, app_id, name, created_at, updated_at) VALUES (?, ?, ?, 0, 0) RETURNING id",
        {orgId, appId, name});
  }

  std::unique_ptr<TempDir> dir_;  // the SQLite file, and anything else a test keeps on disk
  std::unique_ptr<store::Database> db_;
};

}  // namespace aev::testing

#define AEV_STORE_BACKENDS(Fixture)                                                                  \
  INSTANTIATE_TEST_SUITE_P(                                                                          \
      Dialects, Fixture,                                                                             \
      ::testing::Values(aev::testing::StoreBackend::SQLite, aev::testing::StoreBackend::PostgreSQL), \
      aev::testing::storeBackendName)

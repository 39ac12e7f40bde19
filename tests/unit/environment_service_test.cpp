// identity/environment_service.h against a migrated SQLite file: resolve() (the lookup
// analytics filters use: an all-digits string is an id first, then a slug), organization
// scoping, and the typed errors the routes turn into 404 / 409 / 422.
#include "identity/environment_service.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "audit/audit_log.h"
#include "common/errors.h"
#include "store/migrations.h"
#include "support/process.h"

namespace aev::identity {
namespace {

class EnvironmentServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<testing::TempDir>("aev-unit-env");
    store::DatabaseOptions options;
    options.dataDir = dir_->path();
    options.sqliteSynchronous = "OFF";
    options.poolSize = 2;
    db_ = std::make_unique<store::Database>(options);
    store::migrate(*db_);
    audit_ = std::make_unique<audit::AuditLog>(*db_, nullptr);
    service_ = std::make_unique<EnvironmentService>(*db_, *audit_);
    orgA_ = addOrganization("a");
    orgB_ = addOrganization("b");
  }

  std::int64_t addOrganization(const std::string& slug) {
    return db_->insert(
        "INSERT INTO organizations (name, slug, plan, created_at, updated_at) VALUES (?, ?, 'free', 0, 0) RETURNING id",
        {slug, slug});
  }

  static int statusOf(const std::function<void()>& call) {
    try {
      call();
    } catch (const ApiError& e) {
      return e.status();
    }
    return 0;
  }

  std::unique_ptr<testing::TempDir> dir_;
  std::unique_ptr<store::Database> db_;
  std::unique_ptr<audit::AuditLog> audit_;
  const audit::Actor actor_{"dashboard", "1", "admin@example.com", "127.0.0.1", "req-1"};
  std::unique_ptr<EnvironmentService> service_;
  std::int64_t orgA_ = 0;
  std::int64_t orgB_ = 0;
};

TEST_F(EnvironmentServiceTest, ResolveTriesAnIdFirstThenASlug) {
  auto prod = service_->create(orgA_, "Production", std::nullopt, actor_);
  EXPECT_EQ(prod.slug, "production");
  // An all-digits slug that is another environment's id: the id wins.
  auto digits = service_->create(orgA_, "Digits", std::to_string(prod.id), actor_);
  auto year = service_->create(orgA_, "Year", std::string("2024"), actor_);

  EXPECT_EQ(service_->resolve(orgA_, std::to_string(prod.id))->id, prod.id);
  EXPECT_EQ(service_->resolve(orgA_, "production")->id, prod.id);
  EXPECT_EQ(service_->resolve(orgA_, std::to_string(digits.id))->id, digits.id);
  // No environment has id 2024: the digits are tried as a slug.
  ASSERT_NE(year.id, 2024);
  EXPECT_EQ(service_->resolve(orgA_, "2024")->id, year.id);
  for (const char* none : {"", "Production", "-1", "+1", "0", "99999999999999999999", "nope"})
    EXPECT_FALSE(service_->resolve(orgA_, none)) << none;
}

TEST_F(EnvironmentServiceTest, AnotherOrganizationsEnvironmentIsNeverResolvedOrFound) {
  auto prod = service_->create(orgA_, "Production", std::string("prod"), actor_);
  EXPECT_FALSE(service_->resolve(orgB_, std::to_string(prod.id)));
  EXPECT_FALSE(service_->resolve(orgB_, "prod"));
  EXPECT_EQ(statusOf([&] { service_->get(orgB_, prod.id); }), 404);
  EXPECT_EQ(statusOf([&] { service_->update(orgB_, prod.id, {std::string("x"), std::nullopt}, actor_); }), 404);
  EXPECT_EQ(statusOf([&] { service_->remove(orgB_, prod.id, actor_); }), 404);
  EXPECT_TRUE(service_->list(orgB_).empty());
  // The same slug in the other organization is its own environment.
  auto theirs = service_->create(orgB_, "Production", std::string("prod"), actor_);
  EXPECT_EQ(service_->resolve(orgB_, "prod")->id, theirs.id);
  EXPECT_EQ(service_->resolve(orgA_, "prod")->id, prod.id);
}

TEST_F(EnvironmentServiceTest, TypedErrors) {
  service_->create(orgA_, "Production", std::string("prod"), actor_);
  auto stage = service_->create(orgA_, "Staging", std::nullopt, actor_);
  EXPECT_EQ(statusOf([&] { service_->create(orgA_, "Other", std::string("prod"), actor_); }), 409);
  EXPECT_EQ(statusOf([&] { service_->create(orgA_, "PROD!", std::nullopt, actor_); }), 409);  // derives "prod"
  EXPECT_EQ(statusOf([&] { service_->update(orgA_, stage.id, {std::nullopt, std::string("prod")}, actor_); }), 409);
  EXPECT_EQ(statusOf([&] { service_->create(orgA_, "   ", std::nullopt, actor_); }), 422);
  EXPECT_EQ(statusOf([&] { service_->create(orgA_, "!!!", std::nullopt, actor_); }), 422);
  EXPECT_EQ(statusOf([&] { service_->create(orgA_, "ok", std::string("Bad"), actor_); }), 422);
  EXPECT_EQ(statusOf([&] { service_->update(orgA_, stage.id, {std::string(""), std::nullopt}, actor_); }), 422);
  EXPECT_EQ(statusOf([&] { service_->get(orgA_, 424242); }), 404);
  // Renaming trims and keeps the slug.
  auto renamed = service_->update(orgA_, stage.id, {std::string("  Staging EU "), std::nullopt}, actor_);
  EXPECT_EQ(renamed.name, "Staging EU");
  EXPECT_EQ(renamed.slug, "staging");
  EXPECT_EQ(service_->list(orgA_).size(), 2u);
}

}  // namespace
}  // namespace aev::identity

// moderation/rule_service.h and rule_cache.h against a migrated SQLite file: every
// invalid field in one 422, organization scoping (another organization's rule is a 404),
// and compiled rules cached per organization, rebuilt only when that organization's
// rules change.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <thread>

#include "audit/audit_log.h"
#include "moderation/rule_service.h"
#include "store/migrations.h"
#include "support/process.h"

namespace aev::moderation {
namespace {

class RuleServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<aev::testing::TempDir>("aev-unit-moderation");
    store::DatabaseOptions options;
    options.dataDir = dir_->path();
    options.sqliteSynchronous = "OFF";
    options.poolSize = 2;
    db_ = std::make_unique<store::Database>(options);
    store::migrate(*db_);
    audit_ = std::make_unique<audit::AuditLog>(*db_, nullptr);
    cache_ = std::make_unique<RuleCache>(*db_, nullptr, std::chrono::milliseconds(0));
    service_ = std::make_unique<RuleService>(*db_, *audit_, nullptr, *cache_);
    orgA_ = addOrganization("a");
    orgB_ = addOrganization("b");
  }

  std::int64_t addOrganization(const std::string& slug) {
    return db_->insert(
        "INSERT INTO organizations (name, slug, plan, created_at, updated_at) VALUES (?, ?, 'free', 0, 0) RETURNING id",
        {slug, slug});
  }

  static RuleInput input(const std::string& name, const std::string& action, const std::string& detector,
                         std::optional<std::string> pattern = std::nullopt,
                         std::optional<std::string> target = std::nullopt) {
    RuleInput in;
    in.name = name;
    in.action = action;
    in.detector = detector;
    if (pattern) in.pattern = pattern;
    in.target = std::move(target);
    return in;
  }

  // The locations of the 422 a call throws ({} when it does not throw one).
  static std::vector<std::string> problems(const std::function<void()>& call) {
    try {
      call();
    } catch (const ApiError& e) {
      EXPECT_EQ(e.status(), 422) << e.what();
      std::vector<std::string> out;
      for (const auto& f : e.fieldErrors()) out.push_back(f.location);
      return out;
    }
    return {};
  }

  static int statusOf(const std::function<void()>& call) {
    try {
      call();
    } catch (const ApiError& e) {
      return e.status();
    }
    return 0;
  }

  std::unique_ptr<aev::testing::TempDir> dir_;
  std::unique_ptr<store::Database> db_;
  std::unique_ptr<audit::AuditLog> audit_;
  const audit::Actor actor_{"dashboard", "1", "admin@example.com", "127.0.0.1", "req-1"};
  std::unique_ptr<RuleCache> cache_;
  std::unique_ptr<RuleService> service_;
  std::int64_t orgA_ = 0;
  std::int64_t orgB_ = 0;
};

using Locations = std::vector<std::string>;

TEST_F(RuleServiceTest, CreatesWithDefaults) {
  auto rule = service_->create(orgA_, input("  secrets  ", "redact", "regex", "sk-[a-z]+"), actor_);
  EXPECT_GT(rule.id, 0);
  EXPECT_EQ(rule.name, "secrets");  // trimmed
  EXPECT_EQ(rule.target, "request");
  EXPECT_TRUE(rule.enabled);
  EXPECT_EQ(rule.createdAt, rule.updatedAt);
  EXPECT_EQ(service_->get(orgA_, rule.id).pattern, "sk-[a-z]+");
}

TEST_F(RuleServiceTest, EveryInvalidFieldInOne422) {
  EXPECT_EQ(problems([&] { service_->create(orgA_, input("", "ban", "regex", std::nullopt, "everything"), actor_); }),
            (Locations{"body.name", "body.action", "body.target", "body.pattern"}));
  EXPECT_EQ(problems([&] { service_->create(orgA_, input(std::string(121, 'n'), "flag", ""), actor_); }),
            (Locations{"body.name", "body.detector"}));
  EXPECT_EQ(problems([&] { service_->create(orgA_, input("x", "flag", "pii.email"), actor_); }), Locations{"body.detector"});
  EXPECT_EQ(problems([&] { service_->create(orgA_, input("x", "flag", "regex", "("), actor_); }), Locations{"body.pattern"});
  EXPECT_EQ(problems([&] { service_->create(orgA_, input("x", "flag", "keyword", std::string(4097, 'k')), actor_); }),
            Locations{"body.pattern"});
  EXPECT_EQ(problems([&] { service_->create(orgA_, input("x", "flag", "tool_arg", "args..", "tool_call"), actor_); }),
            Locations{"body.pattern"});
  EXPECT_EQ(problems([&] { service_->create(orgA_, input("x", "block", "tool_name", "shell"), actor_); }),
            Locations{"body.target"});
  const std::string tooLarge = "\\pL{1000}\\pL{1000}\\pL{1000}\\pL{1000}";
  EXPECT_EQ(problems([&] { service_->create(orgA_, input("x", "block", "regex", tooLarge), actor_); }),
            Locations{"body.pattern"});
  EXPECT_TRUE(service_->list(orgA_).empty());  // nothing was saved
}

TEST_F(RuleServiceTest, UpdateChecksTheWholeRuleAgain) {
  auto rule = service_->create(orgA_, input("r", "flag", "keyword", "refund"), actor_);
  RuleInput patch;
  patch.detector = "tool_name";  // keeps target request: not allowed for tool_name
  EXPECT_EQ(problems([&] { service_->update(orgA_, rule.id, patch, actor_); }), Locations{"body.target"});
  patch.target = "tool_call";
  auto changed = service_->update(orgA_, rule.id, patch, actor_);
  EXPECT_EQ(changed.detector, "tool_name");
  EXPECT_EQ(changed.pattern, "refund");
  EXPECT_GT(changed.updatedAt, rule.updatedAt);
  RuleInput clear;
  clear.pattern = std::optional<std::string>();  // null: a tool_name rule needs one
  EXPECT_EQ(problems([&] { service_->update(orgA_, rule.id, clear, actor_); }), Locations{"body.pattern"});
  RuleInput off;
  off.enabled = false;
  EXPECT_FALSE(service_->update(orgA_, rule.id, off, actor_).enabled);
}

TEST_F(RuleServiceTest, AnotherOrganizationsRuleIsNotFound) {
  auto rule = service_->create(orgA_, input("r", "flag", "keyword", "k"), actor_);
  EXPECT_EQ(statusOf([&] { service_->get(orgB_, rule.id); }), 404);
  EXPECT_EQ(statusOf([&] { service_->update(orgB_, rule.id, RuleInput{}, actor_); }), 404);
  EXPECT_EQ(statusOf([&] { service_->remove(orgB_, rule.id, actor_); }), 404);
  EXPECT_TRUE(service_->list(orgB_).empty());
  EXPECT_EQ(service_->get(orgA_, rule.id).name, "r");
  service_->remove(orgA_, rule.id, actor_);
  EXPECT_EQ(statusOf([&] { service_->get(orgA_, rule.id); }), 404);
}

TEST_F(RuleServiceTest, ListsInCreationOrder) {
  for (const char* name : {"c", "a", "b"}) service_->create(orgA_, input(name, "flag", "keyword", name), actor_);
  std::vector<std::string> names;
  for (const auto& r : service_->list(orgA_)) names.push_back(r.name);
  EXPECT_EQ(names, (std::vector<std::string>{"c", "a", "b"}));
}

TEST_F(RuleServiceTest, CompiledRulesAreBuiltOncePerChange) {
  service_->create(orgA_, input("one", "block", "keyword", "x"), actor_);
  const auto before = cache_->builds();
  for (int i = 0; i < 50; ++i) EXPECT_EQ(cache_->rules(orgA_)->of(Target::Request).size(), 1u);
  EXPECT_EQ(cache_->builds(), before + 1);  // one build for 50 publishes
  // Another organization's change leaves this one's rules cached.
  service_->create(orgB_, input("b", "flag", "keyword", "y"), actor_);
  cache_->rules(orgA_);
  EXPECT_EQ(cache_->builds(), before + 1);
  auto two = service_->create(orgA_, input("two", "flag", "keyword", "z", "response"), actor_);
  EXPECT_EQ(cache_->rules(orgA_)->of(Target::Response).size(), 1u);
  EXPECT_EQ(cache_->builds(), before + 2);
  RuleInput off;
  off.enabled = false;
  service_->update(orgA_, two.id, off, actor_);
  EXPECT_TRUE(cache_->rules(orgA_)->of(Target::Response).empty());  // disabled rules do not run
  service_->remove(orgA_, two.id, actor_);
  cache_->rules(orgA_);
  EXPECT_EQ(cache_->builds(), before + 4);
}

TEST_F(RuleServiceTest, RecheckNoticesChangesMadeElsewhere) {
  // A second cache over the same store stands in for another node.
  RuleCache other(*db_, nullptr, std::chrono::milliseconds(1));
  EXPECT_TRUE(other.rules(orgA_)->empty());
  service_->create(orgA_, input("r", "flag", "keyword", "k"), actor_);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(other.rules(orgA_)->of(Target::Request).size(), 1u);
  const auto builds = other.builds();
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  other.rules(orgA_);  // fingerprint unchanged: no rebuild
  EXPECT_EQ(other.builds(), builds);
}

}  // namespace
}  // namespace aev::moderation

// identity/validation.h, identity/plans.h, store/constraint.h.
#include <Poco/Data/DataException.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "identity/plans.h"
#include "identity/validation.h"
#include "store/constraint.h"

namespace aev::identity {
namespace {

TEST(Validation, Email) {
  for (const char* ok : {"a@b.co", "first.last+tag@example.com", "x@sub.domain.org"}) EXPECT_TRUE(isValidEmail(ok)) << ok;
  for (const char* bad : {"", "a", "no-at.example.com", "@example.com", "a@", "a@b", "a@@b.co", "a@b@c.co",
                          "a b@c.co", "a@.co", "a@co.", "<a@b.co>", "a@b.co\n"})
    EXPECT_FALSE(isValidEmail(bad)) << bad;
  EXPECT_FALSE(isValidEmail(std::string(250, 'a') + "@b.co"));
}

TEST(Validation, Username) {
  for (const char* ok : {"abc", "alice_1", "a.b-c", "0day", "z99"}) EXPECT_TRUE(isValidUsername(ok)) << ok;
  for (const char* bad : {"", "ab", "_alice", "-x-", ".dot", "Alice", "al ice", "al@ce", "ali\xC3\xA9"})
    EXPECT_FALSE(isValidUsername(bad)) << bad;
  EXPECT_TRUE(isValidUsername(std::string(64, 'a')));
  EXPECT_FALSE(isValidUsername(std::string(65, 'a')));
}

TEST(Validation, Slug) {
  for (const char* ok : {"a", "0", "acme", "acme-corp", "a1-b2", "x-"}) EXPECT_TRUE(isValidSlug(ok)) << ok;
  for (const char* bad : {"", "-acme", "Acme", "acme_corp", "acme corp", "acme.corp", "\xC3\xA9t\xC3\xA9"})
    EXPECT_FALSE(isValidSlug(bad)) << bad;
  EXPECT_TRUE(isValidSlug(std::string(63, 'a')));
  EXPECT_FALSE(isValidSlug(std::string(64, 'a')));
}

TEST(Validation, Role) {
  EXPECT_TRUE(isValidRole("admin"));
  EXPECT_TRUE(isValidRole("user"));
  EXPECT_FALSE(isValidRole("Admin"));
  EXPECT_FALSE(isValidRole("owner"));
  EXPECT_FALSE(isValidRole(""));
}

TEST(Validation, LowerAndSlugify) {
  EXPECT_EQ(lower("MiXeD Case"), "mixed case");
  EXPECT_EQ(slugify("Acme Corp"), "acme-corp");
  EXPECT_EQ(slugify("  Hello,   World!  "), "hello-world");
  EXPECT_EQ(slugify("alice@example.com"), "alice-example-com");
  EXPECT_EQ(slugify("!!!"), "org");
  EXPECT_EQ(slugify(""), "org");
  EXPECT_LE(slugify(std::string(200, 'a')).size(), 63u);
  const std::string longText(200, 'z');
  for (const std::string& text : {std::string("Acme Corp"), std::string("  Hello,   World!  "), std::string("x"),
                                 std::string("\xC3\xA9l\xC3\xA8ve"), std::string("a--b"), longText})
    EXPECT_TRUE(isValidSlug(slugify(text))) << text << " → " << slugify(text);
}

TEST(Plans, LookupWithDefaultFallback) {
  PlanCatalog catalog({{"free", {"free", 100000, 30, 5}}, {"team", {"team", 5000000, 90, 50}}}, "free");
  EXPECT_EQ(catalog.defaultPlan(), "free");
  EXPECT_EQ(catalog.get("team").seatLimit, 50);
  EXPECT_EQ(catalog.get("free").retentionDays, 30);
  EXPECT_EQ(catalog.get("unknown").name, "free");
  EXPECT_THROW(PlanCatalog({{"free", {"free", 1, 1, 1}}}, "gold"), std::invalid_argument);
}

TEST(Constraint, RecognisesUniqueViolations) {
  EXPECT_TRUE(store::isUniqueViolation(std::runtime_error("UNIQUE constraint failed: users.email")));
  EXPECT_TRUE(store::isUniqueViolation(
      std::runtime_error("ERROR:  duplicate key value violates unique constraint \"users_email_key\"")));
  EXPECT_TRUE(store::isUniqueViolation(Poco::Data::DataException("SQLSTATE 23505")));
  EXPECT_FALSE(store::isUniqueViolation(std::runtime_error("FOREIGN KEY constraint failed")));
  EXPECT_FALSE(store::isUniqueViolation(std::runtime_error("database is locked")));
}

}  // namespace
}  // namespace aev::identity

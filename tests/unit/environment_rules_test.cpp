// identity/environment_rules.h: trimmed names, slug shape, slugs derived from names.
#include "identity/environment_rules.h"

#include <gtest/gtest.h>

#include <string>

namespace aev::identity {
namespace {

TEST(EnvironmentRules, TrimWhitespace) {
  EXPECT_EQ(trimWhitespace("  Production \t\n"), "Production");
  EXPECT_EQ(trimWhitespace("a b"), "a b");
  EXPECT_EQ(trimWhitespace(" \t\r\n\f\v "), "");
  EXPECT_EQ(trimWhitespace(""), "");
  EXPECT_EQ(trimWhitespace("\xC3\xA9 "), "\xC3\xA9");  // UTF-8 bytes are never whitespace
}

TEST(EnvironmentRules, SlugShape) {
  for (const char* ok : {"a", "0", "prod", "eu-west-1", "a-b-c", "2024"}) EXPECT_TRUE(isValidEnvironmentSlug(ok)) << ok;
  for (const char* bad : {"", "-prod", "prod-", "-", "Prod", "pro d", "pro_d", "prod.eu", "caf\xC3\xA9"})
    EXPECT_FALSE(isValidEnvironmentSlug(bad)) << bad;
  EXPECT_TRUE(isValidEnvironmentSlug(std::string(64, 'a')));
  EXPECT_FALSE(isValidEnvironmentSlug(std::string(65, 'a')));
}

TEST(EnvironmentRules, SlugFromName) {
  EXPECT_EQ(environmentSlugFrom("Production"), "production");
  EXPECT_EQ(environmentSlugFrom("  EU West / Staging!! "), "eu-west-staging");
  EXPECT_EQ(environmentSlugFrom("Caf\xC3\xA9 Prod"), "caf-prod");
  EXPECT_EQ(environmentSlugFrom("a--b__c"), "a-b-c");
  EXPECT_EQ(environmentSlugFrom("!!!"), "");
  EXPECT_EQ(environmentSlugFrom("\xC3\xA9t\xC3\xA9"), "t");
  EXPECT_EQ(environmentSlugFrom(""), "");
  // Capped at 64, and a cut never leaves a trailing '-'.
  EXPECT_EQ(environmentSlugFrom(std::string(100, 'x')), std::string(64, 'x'));
  EXPECT_EQ(environmentSlugFrom(std::string(63, 'x') + " y"), std::string(63, 'x'));
  for (const char* name : {"Production", "  EU West / Staging!! ", "x", "9 lives", "a--b__c"})
    EXPECT_TRUE(isValidEnvironmentSlug(environmentSlugFrom(name))) << name;
}

}  // namespace
}  // namespace aev::identity

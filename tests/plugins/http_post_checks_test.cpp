// The configuration checks of agentevents/http_post.hpp, which the daemon's export
// destinations use too. tests/fuzz/url_fuzzer.cpp checks the same on arbitrary input.
#include <gtest/gtest.h>

#include <agentevents/http_post.hpp>

#include <string>

namespace {

using namespace std::string_literals;

TEST(HttpPostChecks, HeaderNamesAreTokens) {
  EXPECT_EQ(aev::http::checkHeader("x-api-key", "v"), "");
  EXPECT_EQ(aev::http::checkHeader("X_Custom.1~!", "v"), "");
  EXPECT_NE(aev::http::checkHeader("", "v"), "");
  EXPECT_NE(aev::http::checkHeader("a b", "v"), "");
  EXPECT_NE(aev::http::checkHeader("a:b", "v"), "");
  // Found by url_fuzzer: strchr matched the NUL terminator, so a NUL passed as a tchar
  // (libcurl would then send the name cut at the NUL).
  EXPECT_NE(aev::http::checkHeader("H\0\0TTP"s, "v"), "");
  EXPECT_NE(aev::http::checkHeader("x\0"s, "v"), "");
}

TEST(HttpPostChecks, HeaderValuesCannotInjectLines) {
  EXPECT_EQ(aev::http::checkHeader("x", "a value; with: punctuation"), "");
  EXPECT_NE(aev::http::checkHeader("x", "a\r\nInjected: 1"), "");
  EXPECT_NE(aev::http::checkHeader("x", "a\nb"), "");
  EXPECT_NE(aev::http::checkHeader("x", "a\0b"s), "");
}

TEST(HttpPostChecks, UrlsAndRetryAfter) {
  EXPECT_EQ(aev::http::checkUrl("https://hooks.example.com/a?b=c"), "");
  EXPECT_EQ(aev::http::checkUrl("HTTP://example.com"), "");
  EXPECT_NE(aev::http::checkUrl("ftp://example.com"), "");
  EXPECT_NE(aev::http::checkUrl("http://exa mple.com"), "");
  EXPECT_NE(aev::http::checkUrl("http:///path"), "");
  EXPECT_EQ(aev::http::parseRetryAfter(" 120 ")->count(), 120000);
  EXPECT_FALSE(aev::http::parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT").has_value());
  EXPECT_FALSE(aev::http::parseRetryAfter("-1").has_value());
  EXPECT_FALSE(aev::http::parseRetryAfter("1234567890").has_value());
}

}  // namespace

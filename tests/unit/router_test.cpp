// http/router.h: template syntax, precedence, 405 and decoding.
#include "http/router.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace aev::http {
namespace {

// Each handler answers a distinct status so a test can tell which route matched.
Handler answer(int status) {
  return [status](Request&) {
    Response r;
    r.status = status;
    return r;
  };
}

int call(const Router::Match& m) {
  if (!m.handler) return -1;
  Request req;
  return (*m.handler)(req).status;
}

TEST(Router, ColonAndBraceTemplatesBothBindParameters) {
  Router router;
  router.add("GET", "/organizations/:id", answer(1), "colon");
  router.add("PATCH", "/organizations/{orgId}/members/{userId}", answer(2), "braces");

  auto m = router.match("GET", "/organizations/42");
  ASSERT_NE(m.handler, nullptr);
  EXPECT_EQ(call(m), 1);
  EXPECT_EQ(m.params.at("id"), "42");

  auto m2 = router.match("PATCH", "/organizations/7/members/9");
  ASSERT_NE(m2.handler, nullptr);
  EXPECT_EQ(call(m2), 2);
  EXPECT_EQ(m2.params.at("orgId"), "7");
  EXPECT_EQ(m2.params.at("userId"), "9");
  EXPECT_TRUE(m2.allowedMethods.empty());
}

TEST(Router, ParametersAreBoundAsTextEvenWhenNotNumeric) {
  // Whether "abc" is a valid id is the handler's decision (pathId → 404), not the router's.
  Router router;
  router.add("GET", "/organizations/:id", answer(1), "");
  auto m = router.match("GET", "/organizations/abc");
  ASSERT_NE(m.handler, nullptr);
  EXPECT_EQ(m.params.at("id"), "abc");
}

TEST(Router, LiteralSegmentsWinOverParametersWhateverTheOrder) {
  Router paramFirst;
  paramFirst.add("GET", "/users/:id", answer(1), "by id");
  paramFirst.add("GET", "/users/me", answer(2), "me");
  EXPECT_EQ(call(paramFirst.match("GET", "/users/me")), 2);
  EXPECT_EQ(call(paramFirst.match("GET", "/users/5")), 1);

  Router literalFirst;
  literalFirst.add("GET", "/users/me", answer(2), "me");
  literalFirst.add("GET", "/users/{id}", answer(1), "by id");
  EXPECT_EQ(call(literalFirst.match("GET", "/users/me")), 2);
  EXPECT_EQ(call(literalFirst.match("GET", "/users/5")), 1);
}

TEST(Router, MoreLiteralSegmentsWinAtDepth) {
  Router router;
  router.add("GET", "/channel/:channelId/:eventIdentifier/subscribe", answer(1), "by identifier");
  router.add("GET", "/channel/:channelId/subscribe", answer(2), "all");
  router.add("GET", "/users/me/organizations", answer(3), "mine");
  router.add("GET", "/users/:id/organizations", answer(4), "theirs");
  EXPECT_EQ(call(router.match("GET", "/channel/3/subscribe")), 2);
  auto m = router.match("GET", "/channel/3/tool/subscribe");
  EXPECT_EQ(call(m), 1);
  EXPECT_EQ(m.params.at("eventIdentifier"), "tool");
  EXPECT_EQ(call(router.match("GET", "/users/me/organizations")), 3);
  EXPECT_EQ(call(router.match("GET", "/users/8/organizations")), 4);
}

TEST(Router, SegmentCountMustMatch) {
  Router router;
  router.add("GET", "/organizations/:id", answer(1), "");
  EXPECT_EQ(router.match("GET", "/organizations").handler, nullptr);
  EXPECT_EQ(router.match("GET", "/organizations/1/extra").handler, nullptr);
  EXPECT_EQ(router.match("GET", "/").handler, nullptr);
}

TEST(Router, UnknownPathHasNoHandlerAndNoAllowedMethods) {
  Router router;
  router.add("GET", "/healthz", answer(1), "");
  auto m = router.match("GET", "/nope");
  EXPECT_EQ(m.handler, nullptr);
  EXPECT_TRUE(m.allowedMethods.empty());
}

TEST(Router, KnownPathWithOtherMethodReportsAllowedMethods) {
  Router router;
  router.add("GET", "/organizations/:id", answer(1), "");
  router.add("PATCH", "/organizations/:id", answer(2), "");
  router.add("DELETE", "/organizations/{id}/members/{userId}", answer(3), "");
  auto m = router.match("PUT", "/organizations/3");
  EXPECT_EQ(m.handler, nullptr);
  EXPECT_NE(m.allowedMethods.find("GET"), std::string::npos);
  EXPECT_NE(m.allowedMethods.find("PATCH"), std::string::npos);
  EXPECT_EQ(m.allowedMethods.find("DELETE"), std::string::npos) << m.allowedMethods;
  EXPECT_EQ(m.allowedMethods, "GET, PATCH");
}

TEST(Router, MatchingMethodClearsAllowedMethods) {
  Router router;
  router.add("GET", "/x/:id", answer(1), "");
  router.add("POST", "/x/:id", answer(2), "");
  auto m = router.match("POST", "/x/1");
  EXPECT_EQ(call(m), 2);
  EXPECT_TRUE(m.allowedMethods.empty());
}

TEST(Router, ParametersAreUrlDecoded) {
  Router router;
  router.add("POST", "/invitations/{code}/accept", answer(1), "");
  auto m = router.match("POST", "/invitations/a%20b%2Fc%C3%A9/accept");
  ASSERT_NE(m.handler, nullptr);
  EXPECT_EQ(m.params.at("code"), "a b/c\xC3\xA9");
}

TEST(Router, EncodedSlashDoesNotSplitSegments) {
  Router router;
  router.add("GET", "/a/:x", answer(1), "");
  auto m = router.match("GET", "/a/b%2Fc");
  ASSERT_NE(m.handler, nullptr);
  EXPECT_EQ(m.params.at("x"), "b/c");
}

TEST(Router, UrlDecode) {
  EXPECT_EQ(urlDecode("plain"), "plain");
  EXPECT_EQ(urlDecode("a%20b"), "a b");
  EXPECT_EQ(urlDecode("%41%42"), "AB");
  EXPECT_EQ(urlDecode(""), "");
}

TEST(Router, DuplicateRouteIsRejectedAcrossSpellings) {
  Router router;
  router.add("GET", "/apps/:id", answer(1), "");
  EXPECT_THROW(router.add("GET", "/apps/{id}", answer(2), ""), std::logic_error);
  EXPECT_NO_THROW(router.add("DELETE", "/apps/{id}", answer(3), ""));
}

TEST(Router, OnePathHasOneSpellingOfItsParameters) {
  // OpenAPI forbids /apps/{appId} beside /apps/{id}: a second spelling stops start-up.
  Router router;
  router.add("GET", "/apps/{appId}", answer(1), "");
  EXPECT_THROW(router.add("PATCH", "/apps/{id}", answer(2), ""), std::logic_error);
  EXPECT_THROW(router.add("DELETE", "/apps/:other", answer(3), ""), std::logic_error);
  EXPECT_NO_THROW(router.add("PATCH", "/apps/{appId}", answer(4), ""));
  EXPECT_NO_THROW(router.add("GET", "/apps/{appId}/channels", answer(5), ""));
  EXPECT_NO_THROW(router.add("GET", "/apps/special", answer(6), ""));
}

TEST(Router, RoutesAreListedWithNormalisedTemplates) {
  Router router;
  router.add("GET", "/healthz", answer(1), "Liveness", "ops", true);
  router.add("PATCH", "/organizations/:orgId/members/:userId", answer(2), "Change role", "organizations");
  auto routes = router.routes();
  ASSERT_EQ(routes.size(), 2u);
  EXPECT_EQ(routes[0].method, "GET");
  EXPECT_EQ(routes[0].pathTemplate, "/healthz");
  EXPECT_TRUE(routes[0].isPublic);
  EXPECT_EQ(routes[0].tag, "ops");
  EXPECT_EQ(routes[0].summary, "Liveness");
  EXPECT_EQ(routes[1].pathTemplate, "/organizations/{orgId}/members/{userId}");
  EXPECT_FALSE(routes[1].isPublic);
}

}  // namespace
}  // namespace aev::http

namespace aev::http {
namespace {

TEST(Router, RestSegmentTakesTheRemainingPathDecoded) {
  Router router;
  router.add("GET", "/console/{path*}", answer(1), "rest");
  router.add("GET", "/console/literal", answer(2), "literal wins");

  auto deep = router.match("GET", "/console/a/123/js/main%20x.js");
  ASSERT_NE(deep.handler, nullptr);
  EXPECT_EQ(call(deep), 1);
  EXPECT_EQ(deep.params.at("path"), "a/123/js/main x.js");

  auto bare = router.match("GET", "/console");
  ASSERT_NE(bare.handler, nullptr);
  EXPECT_EQ(bare.params.at("path"), "");
  EXPECT_EQ(router.match("GET", "/console/").params.at("path"), "");
  EXPECT_EQ(call(router.match("GET", "/console/literal")), 2);
  EXPECT_EQ(router.match("GET", "/consoles/x").handler, nullptr);
  EXPECT_EQ(router.match("POST", "/console/x").allowedMethods, "GET");
  EXPECT_EQ(router.routes().front().pathTemplate, "/console/{path*}");
}

TEST(Router, RestSegmentMustBeLast) {
  Router router;
  EXPECT_THROW(router.add("GET", "/a/{rest*}/b", answer(1), "bad"), std::logic_error);
}

}  // namespace
}  // namespace aev::http

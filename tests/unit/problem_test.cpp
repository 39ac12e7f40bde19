// common/errors.h, http/problem.h and http/request.h: the error contract (docs/api.md#errors)
// as produced in-process, and JSON body parsing (400 / 415).
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include "common/errors.h"
#include "http/problem.h"
#include "http/request.h"

namespace aev::http {
namespace {

Poco::JSON::Object::Ptr parse(const std::string& json) {
  Poco::JSON::Parser parser;
  return parser.parse(json).extract<Poco::JSON::Object::Ptr>();
}

std::string headerOf(const Response& r, const std::string& name) {
  for (const auto& [k, v] : r.headers)
    if (k == name) return v;
  return "";
}

template <class F>
ApiError catchApiError(F&& fn) {
  try {
    fn();
  } catch (const ApiError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an ApiError";
  return ApiError(0, "", "", "");
}

TEST(Errors, FactoriesCarryDecidedStatuses) {
  EXPECT_EQ(errors::badRequest("x").status(), 400);
  EXPECT_EQ(errors::unsupportedMediaType("x").status(), 415);
  EXPECT_EQ(errors::validation({}).status(), 422);
  EXPECT_EQ(errors::invalidField("body.name", "is required").status(), 422);
  EXPECT_EQ(errors::unauthorized("x").status(), 401);
  EXPECT_EQ(errors::forbidden("x").status(), 403);
  EXPECT_EQ(errors::notFound("organization").status(), 404);
  EXPECT_EQ(errors::conflict("x").status(), 409);
  EXPECT_EQ(errors::payloadTooLarge("x").status(), 413);
  EXPECT_EQ(errors::tooManyRequests("x", 30).status(), 429);
  EXPECT_EQ(errors::methodNotAllowed("GET").status(), 405);
  EXPECT_EQ(errors::unavailable("x", 1).status(), 503);
}

TEST(Errors, UnauthorizedCarriesWwwAuthenticate) {
  auto e = errors::unauthorized("token expired");
  ASSERT_TRUE(e.headers().count("WWW-Authenticate"));
  EXPECT_NE(e.headers().at("WWW-Authenticate").find("Bearer"), std::string::npos);
}

TEST(Errors, RetryAfterIsAtLeastOneSecond) {
  EXPECT_EQ(errors::tooManyRequests("x", 30).headers().at("Retry-After"), "30");
  EXPECT_EQ(errors::tooManyRequests("x", 0).headers().at("Retry-After"), "1");
  EXPECT_EQ(errors::tooManyRequests("x", -4).headers().at("Retry-After"), "1");
}

TEST(Errors, MethodNotAllowedCarriesAllow) {
  EXPECT_EQ(errors::methodNotAllowed("GET, PATCH").headers().at("Allow"), "GET, PATCH");
}

TEST(Problem, RendersRfc9457Body) {
  auto r = problemResponse(errors::notFound("organization"), "/organizations/9");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.contentType, "application/problem+json");
  auto body = parse(r.body);
  EXPECT_EQ(body->getValue<std::string>("type"), "https://agent-events.dev/problems/not-found");
  EXPECT_EQ(body->getValue<std::string>("title"), "Not Found");
  EXPECT_EQ(body->getValue<int>("status"), 404);
  EXPECT_FALSE(body->getValue<std::string>("detail").empty());
  EXPECT_EQ(body->getValue<std::string>("instance"), "/organizations/9");
  EXPECT_FALSE(body->has("errors"));  // only validation problems list fields
}

TEST(Problem, ValidationListsFieldErrors) {
  auto e = errors::validation({{"body.name", "is required", ""}, {"query.limit", "must be 1 to 100", "0"}});
  auto r = problemResponse(e, "/api-keys");
  EXPECT_EQ(r.status, 422);
  auto body = parse(r.body);
  EXPECT_EQ(body->getValue<std::string>("type"), "https://agent-events.dev/problems/validation");
  auto list = body->getArray("errors");
  ASSERT_TRUE(list);
  ASSERT_EQ(list->size(), 2u);
  auto second = list->getObject(1);
  EXPECT_EQ(second->getValue<std::string>("location"), "query.limit");
  EXPECT_EQ(second->getValue<std::string>("message"), "must be 1 to 100");
  EXPECT_EQ(second->getValue<std::string>("value"), "0");
}

TEST(Problem, CopiesErrorHeaders) {
  auto r = problemResponse(errors::unauthorized("no credentials"), "/users/me");
  EXPECT_EQ(r.status, 401);
  EXPECT_NE(headerOf(r, "WWW-Authenticate").find("Bearer"), std::string::npos);
  auto r2 = problemResponse(errors::tooManyRequests("slow down", 12), "/auth/login");
  EXPECT_EQ(headerOf(r2, "Retry-After"), "12");
}

Request withBody(std::string contentType, std::string body) {
  Request req;
  req.method = "POST";
  req.path = "/x";
  if (!contentType.empty()) req.headers["content-type"] = std::move(contentType);
  req.body = std::move(body);
  return req;
}

TEST(RequestJsonBody, ParsesJsonObjects) {
  EXPECT_EQ(withBody("application/json", R"({"a":1})").jsonBody()->getValue<int>("a"), 1);
  EXPECT_EQ(withBody("application/json; charset=utf-8", R"({"a":2})").jsonBody()->getValue<int>("a"), 2);
  EXPECT_EQ(withBody("Application/JSON", R"({"a":3})").jsonBody()->getValue<int>("a"), 3);
  EXPECT_EQ(withBody("application/merge-patch+json", R"({"a":4})").jsonBody()->getValue<int>("a"), 4);
  EXPECT_EQ(withBody("", R"({"a":5})").jsonBody()->getValue<int>("a"), 5);  // no type: try JSON
}

TEST(RequestJsonBody, WrongContentTypeIs415) {
  EXPECT_EQ(catchApiError([] { withBody("text/plain", R"({"a":1})").jsonBody(); }).status(), 415);
  EXPECT_EQ(catchApiError([] { withBody("application/x-www-form-urlencoded", "a=1").jsonBody(); }).status(), 415);
}

TEST(RequestJsonBody, MalformedOrNonObjectIs400) {
  EXPECT_EQ(catchApiError([] { withBody("application/json", "{not json").jsonBody(); }).status(), 400);
  EXPECT_EQ(catchApiError([] { withBody("application/json", "[1,2]").jsonBody(); }).status(), 400);
  EXPECT_EQ(catchApiError([] { withBody("application/json", "\"text\"").jsonBody(); }).status(), 400);
  EXPECT_EQ(catchApiError([] { withBody("application/json", "").jsonBody(); }).status(), 400);
}

TEST(Request, HeaderAndQueryAccessors) {
  Request req;
  req.headers["x-tenant-id"] = "7";
  req.query.emplace("limit", "5");
  req.pathParams["id"] = "3";
  EXPECT_EQ(req.header("x-tenant-id"), "7");
  EXPECT_EQ(req.header("missing"), "");
  EXPECT_EQ(req.queryParam("limit"), "5");
  EXPECT_EQ(req.queryParam("page"), std::nullopt);
  EXPECT_EQ(req.param("id"), "3");
  EXPECT_THROW(req.param("other"), std::logic_error);
}

TEST(Response, Builders) {
  Poco::JSON::Object::Ptr o = new Poco::JSON::Object;
  o->set("ok", true);
  auto r = Response::json(201, o);
  EXPECT_EQ(r.status, 201);
  EXPECT_EQ(r.contentType, "application/json");
  EXPECT_EQ(r.body, R"({"ok":true})");
  auto n = Response::noContent();
  EXPECT_EQ(n.status, 204);
  EXPECT_TRUE(n.body.empty());
  auto t = Response::text(200, "text/plain", "hi");
  EXPECT_EQ(t.contentType, "text/plain");
  EXPECT_EQ(t.body, "hi");
}

}  // namespace
}  // namespace aev::http

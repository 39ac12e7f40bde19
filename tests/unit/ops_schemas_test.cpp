// ops/schemas.h: JSON Schemas behind every `$schema` link, and the OpenAPI document.
#include "ops/schemas.h"

#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <set>

namespace aev::ops {
namespace {

Poco::JSON::Object::Ptr parse(const std::string& text) {
  Poco::JSON::Parser parser;
  return parser.parse(text).extract<Poco::JSON::Object::Ptr>();
}

TEST(Schemas, EveryNamedSchemaIsAJsonSchemaObject) {
  const std::string base = "http://127.0.0.1:8080";
  auto names = schemaNames();
  ASSERT_FALSE(names.empty());
  for (const auto& name : names) {
    auto text = schemaText(name, base);
    ASSERT_TRUE(text.has_value()) << name;
    Poco::JSON::Object::Ptr o;
    ASSERT_NO_THROW(o = parse(*text)) << name << ": " << *text;
    EXPECT_EQ(o->getValue<std::string>("$schema"), "https://json-schema.org/draft/2020-12/schema") << name;
    EXPECT_EQ(o->getValue<std::string>("$id"), base + "/schemas/" + name + ".json") << name;
    // An object, or (first-shape lists answer bare arrays) an array that says its items.
    const auto type = o->getValue<std::string>("type");
    EXPECT_TRUE(type == "object" || (type == "array" && o->has("items"))) << name << ": " << type;
  }
}

TEST(Schemas, IdentitySchemasExist) {
  std::set<std::string> names;
  for (const auto& n : schemaNames()) names.insert(n);
  for (const char* expected : {"Organization", "OrganizationMemberships", "ActiveOrgResult", "OkResult", "AdminUserList",
                               "AccessRequestList", "Problem"})
    EXPECT_TRUE(names.count(expected)) << expected;
}

TEST(Schemas, UnknownNameHasNoSchema) {
  EXPECT_EQ(schemaText("NoSuchThing", "http://x"), std::nullopt);
  EXPECT_EQ(schemaText("", "http://x"), std::nullopt);
  EXPECT_EQ(schemaText("../etc/passwd", "http://x"), std::nullopt);
}

TEST(OpenApi, DocumentListsEveryRouteWithItsMethod) {
  std::vector<RouteDoc> routes = {
      {"GET", "/healthz", "Liveness", "ops", true, {}, ""},
      {"POST", "/auth/login", "Log in", "auth", true, {}, ""},
      {"GET", "/organizations/{id}", "Get an organization", "organizations", false, {}, ""},
      {"PATCH", "/organizations/{id}", "Update an organization", "organizations", false, {}, ""},
      {"PATCH", "/organizations/{orgId}/members/{userId}", "Change a role", "organizations", false, {}, ""},
  };
  std::string text;
  ASSERT_NO_THROW(text = openApiDocument(routes, "http://127.0.0.1:8080"));
  auto doc = parse(text);
  EXPECT_EQ(doc->getValue<std::string>("openapi").rfind("3.1", 0), 0u);
  auto paths = doc->getObject("paths");
  ASSERT_TRUE(paths);
  EXPECT_EQ(paths->size(), 4u);
  ASSERT_TRUE(paths->getObject("/organizations/{id}"));
  EXPECT_TRUE(paths->getObject("/organizations/{id}")->has("get"));
  EXPECT_TRUE(paths->getObject("/organizations/{id}")->has("patch"));
  ASSERT_TRUE(paths->getObject("/healthz"));
  auto health = paths->getObject("/healthz")->getObject("get");
  ASSERT_TRUE(health);
  // Public: no security requirement.
  ASSERT_TRUE(health->getArray("security"));
  EXPECT_EQ(health->getArray("security")->size(), 0u);
  auto role = paths->getObject("/organizations/{orgId}/members/{userId}")->getObject("patch");
  ASSERT_TRUE(role);
  auto params = role->getArray("parameters");
  ASSERT_TRUE(params);
  ASSERT_EQ(params->size(), 3u);  // the path's two, then x-tenant-id
  EXPECT_EQ(params->getObject(0)->getValue<std::string>("name"), "orgId");
  EXPECT_EQ(params->getObject(1)->getValue<std::string>("name"), "userId");
  EXPECT_EQ(params->getObject(0)->getValue<std::string>("in"), "path");
  EXPECT_EQ(params->getObject(2)->getValue<std::string>("name"), "x-tenant-id");
  EXPECT_EQ(params->getObject(2)->getValue<std::string>("in"), "header");
  ASSERT_TRUE(doc->getObject("components"));
  ASSERT_TRUE(doc->getObject("components")->getObject("securitySchemes"));
  EXPECT_TRUE(doc->getObject("components")->getObject("securitySchemes")->has("bearer"));
  EXPECT_TRUE(doc->getObject("components")->getObject("securitySchemes")->has("apiKey"));
}

TEST(OpenApi, EmptyRouteTable) {
  std::string text;
  ASSERT_NO_THROW(text = openApiDocument({}, "http://x"));
  auto doc = parse(text);
  ASSERT_TRUE(doc->getObject("paths"));
  EXPECT_EQ(doc->getObject("paths")->size(), 0u);
}

TEST(OpenApi, QueryParametersAndResponseSchemas) {
  std::vector<RouteDoc> routes = {{"GET",
                                   "/analytics/latency",
                                   "Latency",
                                   "analytics",
                                   false,
                                   {{"interval", "string", "bucket", {"minute", "hour"}, false},
                                    {"limit", "integer", "rows", {}, true}},
                                   "AnalyticsLatency"}};
  auto doc = parse(openApiDocument(routes, "http://x"));
  auto op = doc->getObject("paths")->getObject("/analytics/latency")->getObject("get");
  auto params = op->getArray("parameters");
  ASSERT_EQ(params->size(), 3u);  // the two, then x-tenant-id
  auto interval = params->getObject(0);
  EXPECT_EQ(interval->getValue<std::string>("in"), "query");
  EXPECT_EQ(interval->getObject("schema")->getArray("enum")->size(), 2u);
  EXPECT_TRUE(params->getObject(1)->getValue<bool>("required"));
  EXPECT_EQ(params->getObject(1)->getObject("schema")->getValue<std::string>("type"), "integer");
  auto schema = op->getObject("responses")->getObject("2XX")->getObject("content")->getObject("application/json");
  EXPECT_EQ(schema->getObject("schema")->getValue<std::string>("$ref"), "#/components/schemas/AnalyticsLatency");
  EXPECT_TRUE(doc->getObject("components")->getObject("schemas")->has("AnalyticsLatency"));
}

TEST(OpenApi, ApiKeyRoutesAcceptBothCredentialsAndDescribeTheirBodies) {
  std::vector<RouteDoc> routes = {
      {"POST", "/event", "Publish", "events", false, {}, "Event", "publish", "EventInput", ""},
      {"GET", "/channel/{id}/subscribe", "Stream", "events", false, {}, "", "subscribe", "", "text/event-stream"},
      {"GET", "/auth/whoami", "Who", "auth", false, {}, "WhoAmI", "*", "", ""},
      {"GET", "/apps", "Apps", "apps", false, {}, "", "", "", ""},
  };
  auto doc = parse(openApiDocument(routes, "http://x"));
  auto paths = doc->getObject("paths");
  auto publish = paths->getObject("/event")->getObject("post");
  auto security = publish->getArray("security");
  // A Bearer JWT, or the key in any of its three forms, each with the scope.
  ASSERT_EQ(security->size(), 4u);
  EXPECT_TRUE(security->getObject(0)->has("bearer"));
  ASSERT_TRUE(security->getObject(1)->getArray("apiKey"));
  EXPECT_EQ(security->getObject(1)->getArray("apiKey")->getElement<std::string>(0), "publish");
  EXPECT_EQ(security->getObject(2)->getArray("apiKeyBearer")->getElement<std::string>(0), "publish");
  EXPECT_EQ(security->getObject(3)->getArray("apiKeyAxonpush")->getElement<std::string>(0), "publish");
  auto body = publish->getObject("requestBody")->getObject("content")->getObject("application/json");
  EXPECT_EQ(body->getObject("schema")->getValue<std::string>("$ref"), "#/components/schemas/EventInput");

  auto stream = paths->getObject("/channel/{id}/subscribe")->getObject("get");
  EXPECT_TRUE(stream->getObject("responses")->getObject("2XX")->getObject("content")->has("text/event-stream"));
  EXPECT_FALSE(stream->has("requestBody"));

  auto anyKey = paths->getObject("/auth/whoami")->getObject("get")->getArray("security");
  ASSERT_EQ(anyKey->size(), 4u);
  EXPECT_EQ(anyKey->getObject(1)->getArray("apiKey")->size(), 0u);

  auto bearerOnly = paths->getObject("/apps")->getObject("get")->getArray("security");
  ASSERT_EQ(bearerOnly->size(), 1u);
  EXPECT_TRUE(bearerOnly->getObject(0)->has("bearer"));
}

// Collects every "$ref" under a JSON value.
void refsIn(const Poco::Dynamic::Var& node, std::vector<std::string>& out) {
  if (node.type() == typeid(Poco::JSON::Object::Ptr)) {
    auto o = node.extract<Poco::JSON::Object::Ptr>();
    for (const auto& [k, v] : *o) {
      if (k == "$ref" && v.isString()) out.push_back(v.convert<std::string>());
      refsIn(v, out);
    }
  } else if (node.type() == typeid(Poco::JSON::Array::Ptr)) {
    for (const auto& v : *node.extract<Poco::JSON::Array::Ptr>()) refsIn(v, out);
  }
}

TEST(OpenApi, EveryReferenceIsLocalAndResolves) {
  std::vector<RouteDoc> routes = {{"GET", "/apps/{appId}", "App", "apps", false, {}, "App"}};
  auto doc = parse(openApiDocument(routes, "http://x"));
  auto components = doc->getObject("components");
  std::vector<std::string> refs;
  refsIn(Poco::Dynamic::Var(doc), refs);
  ASSERT_FALSE(refs.empty());
  for (const auto& r : refs) {
    ASSERT_EQ(r.rfind("#/components/", 0), 0u) << r;
    // #/components/<kind>/<name>
    const auto rest = r.substr(13);
    const auto slash = rest.find('/');
    ASSERT_NE(slash, std::string::npos) << r;
    auto kind = components->getObject(rest.substr(0, slash));
    ASSERT_TRUE(kind) << r;
    EXPECT_TRUE(kind->has(rest.substr(slash + 1))) << r;
  }
  // A component is not a separate resource: no $id re-basing its references.
  for (const auto& [name, schema] : *components->getObject("schemas"))
    EXPECT_FALSE(schema.extract<Poco::JSON::Object::Ptr>()->has("$id")) << name;
}

TEST(OpenApi, OperationIdsFollowOneRule) {
  EXPECT_EQ(operationIdOf("GET", "/apps/{appId}"), "getAppsByAppId");
  EXPECT_EQ(operationIdOf("POST", "/apps/{appId}/channels"), "postAppsByAppIdChannels");
  EXPECT_EQ(operationIdOf("PATCH", "/v2/users/me/active-org"), "patchV2UsersMeActiveOrg");
  EXPECT_EQ(operationIdOf("GET", "/openapi.json"), "getOpenapiJson");
  EXPECT_EQ(operationIdOf("GET", "/api-keys"), "getApiKeys");
  EXPECT_EQ(operationIdOf("GET", "/console/{path*}"), "getConsoleByPath");
  EXPECT_EQ(operationIdOf("GET", "/"), "get");
  std::vector<RouteDoc> routes = {{"DELETE", "/api-keys/{id}", "Revoke", "api-keys", false, {}, ""}};
  auto op =
      parse(openApiDocument(routes, "http://x"))->getObject("paths")->getObject("/api-keys/{id}")->getObject("delete");
  EXPECT_EQ(op->getValue<std::string>("operationId"), "deleteApiKeysById");
}

TEST(OpenApi, ErrorsFollowTheRouteProtocol) {
  std::vector<RouteDoc> routes = {{"GET", "/apps", "Apps", "apps", false, {}, ""},
                                  {"POST", "/v1/traces", "OTLP", "otlp", false, {}, "", "publish"},
                                  {"POST", "/mcp", "MCP", "mcp", false, {}, "", "read"}};
  routes[1].basicAccepted = true;
  routes[2].bearerAccepted = false;
  auto paths = parse(openApiDocument(routes, "http://x"))->getObject("paths");
  auto errorSchema = [&](const char* path, const char* method, const char* status, const char* media) {
    return paths->getObject(path)
        ->getObject(method)
        ->getObject("responses")
        ->getObject(status)
        ->getObject("content")
        ->getObject(media)
        ->getObject("schema")
        ->getValue<std::string>("$ref");
  };
  EXPECT_EQ(errorSchema("/apps", "get", "4XX", "application/problem+json"), "#/components/schemas/Problem");
  EXPECT_EQ(errorSchema("/apps", "get", "default", "application/problem+json"), "#/components/schemas/Problem");
  EXPECT_EQ(errorSchema("/v1/traces", "post", "4XX", "application/json"), "#/components/schemas/RpcStatus");
  EXPECT_EQ(errorSchema("/mcp", "post", "401", "application/json"), "#/components/schemas/JsonRpcError");
  auto unauthorized = paths->getObject("/apps")->getObject("get")->getObject("responses")->getObject("401");
  EXPECT_TRUE(unauthorized->getObject("headers")->has("WWW-Authenticate"));
  auto limited = paths->getObject("/apps")->getObject("get")->getObject("responses")->getObject("429");
  EXPECT_TRUE(limited->getObject("headers")->has("Retry-After"));

  auto otlp = paths->getObject("/v1/traces")->getObject("post")->getArray("security");
  EXPECT_TRUE(otlp->getObject(otlp->size() - 1)->has("otlpBasic"));
  auto mcp = paths->getObject("/mcp")->getObject("post")->getArray("security");
  for (std::size_t i = 0; i < mcp->size(); ++i) EXPECT_FALSE(mcp->getObject(i)->has("bearer"));
}

// Every schema an answer or a request names is in the catalog, so no $ref dangles.
TEST(Schemas, EventAndSessionSchemasExist) {
  std::set<std::string> names;
  for (const auto& n : schemaNames()) names.insert(n);
  for (const char* expected : {"Event", "EventInput", "EventPage", "PageMeta", "EventBatchInput", "EventBatchResult",
                               "StreamToken", "StreamTokenInput", "TraceList", "TraceSummary", "RegisterInput",
                               "LoginInput", "RefreshInput", "TokenPair", "WhoAmI"})
    EXPECT_TRUE(names.count(expected)) << expected;
}

}  // namespace
}  // namespace aev::ops

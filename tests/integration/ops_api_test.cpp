// Public operational endpoints, cross-cutting HTTP behaviour (request ids, problem
// responses, body rules) and process lifecycle (SIGTERM, restart).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include "support/api_fixture.h"
#include "support/backend.h"
#include "support/jwt_tools.h"

namespace aev::testing {
namespace {

class OpsApi : public ApiTest {};

TEST_F(OpsApi, HealthzAndReadyzArePublic) {
  auto h = anon().get("/healthz");
  ASSERT_STATUS(h, 200);
  EXPECT_EQ(strField(h.object(), "status"), "ok");
  auto r = anon().get("/readyz");
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(strField(r.object(), "status"), "ok");
}

TEST_F(OpsApi, EveryResponseHasARequestId) {
  auto r = anon().get("/healthz");
  EXPECT_FALSE(r.header("X-Request-Id").empty());
  auto r2 = anon().get("/healthz");
  EXPECT_NE(r.header("X-Request-Id"), r2.header("X-Request-Id"));
  auto notFound = anon().get("/no/such/path");
  EXPECT_FALSE(notFound.header("X-Request-Id").empty());
  auto unauth = anon().get("/users/me");
  EXPECT_FALSE(unauth.header("X-Request-Id").empty());
}

TEST_F(OpsApi, RequestIdIsEchoed) {
  auto r = anon().get("/healthz", {{"X-Request-Id", "test-req-12345"}});
  EXPECT_EQ(r.header("X-Request-Id"), "test-req-12345");
  auto e = anon().get("/users/me", {{"X-Request-Id", "test-req-401"}});
  EXPECT_EQ(e.header("X-Request-Id"), "test-req-401");
}

TEST_F(OpsApi, UnknownPathIs404Problem) { EXPECT_TRUE(IsProblem(anon().get("/definitely/not/here"), 404)); }

TEST_F(OpsApi, WrongMethodIs405WithAllow) {
  auto r = anon().request("DELETE", "/healthz");
  EXPECT_EQ(r.status, 405) << r.describe();
  EXPECT_NE(r.header("Allow").find("GET"), std::string::npos) << r.describe();
  EXPECT_EQ(r.contentType().rfind("application/problem+json", 0), 0u);
}

TEST_F(OpsApi, OpenApiDocumentListsEveryIdentityRoute) {
  auto r = anon().get("/openapi.json");
  ASSERT_STATUS(r, 200);
  auto doc = r.object();
  EXPECT_EQ(strField(doc, "openapi").rfind("3.1", 0), 0u) << strField(doc, "openapi");
  ASSERT_TRUE(doc->getObject("paths")) << r.describe();
  auto paths = doc->getObject("paths");
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"/auth/register", "post"},
      {"/auth/login", "post"},
      {"/auth/refresh", "post"},
      {"/auth/logout", "post"},
      {"/auth/whoami", "get"},
      {"/users/me", "get"},
      {"/users/me", "patch"},
      {"/users/me/organizations", "get"},
      {"/v2/users/me/organizations", "get"},
      {"/users/me/active-org", "patch"},
      {"/v2/users/me/active-org", "patch"},
      {"/users", "get"},
      {"/users/{id}", "put"},
      {"/users/{id}", "delete"},
      {"/admin/users", "get"},
      {"/admin/access-requests", "get"},
      {"/admin/access-requests/{requestId}/status", "post"},
      {"/organizations", "post"},
      {"/organizations/{id}", "get"},
      {"/organizations/{id}", "patch"},
      {"/organizations/{id}", "delete"},
      {"/organizations/{id}/contents", "get"},
      {"/organization", "patch"},
      {"/organizations/{id}/invitations", "post"},
      {"/organizations/{id}/invitations", "get"},
      {"/organizations/{id}/members", "get"},
      {"/organizations/{orgId}/members/{userId}", "patch"},
      {"/invitations/{code}/accept", "post"},
      {"/api-keys", "post"},
      {"/api-keys", "get"},
      {"/api-keys/{id}", "delete"},
      {"/healthz", "get"},
      {"/readyz", "get"},
      {"/openapi.json", "get"},
  };
  // Path parameter names may differ ({id} vs {orgId}); compare with parameters blanked.
  auto shape = [](const std::string& p) { return std::regex_replace(p, std::regex(R"(\{[^}]*\})"), "{}"); };
  std::map<std::string, Poco::JSON::Object::Ptr> byShape;
  for (const auto& name : paths->getNames()) byShape[shape(name)] = paths->getObject(name);
  for (const auto& [path, method] : expected) {
    auto it = byShape.find(shape(path));
    if (it == byShape.end()) {
      ADD_FAILURE() << "openapi.json has no path " << path;
      continue;
    }
    EXPECT_TRUE(it->second && it->second->has(method)) << "openapi.json has no " << method << " " << path;
  }
}

// The routes an API key may call say so, with the scope, and every schema the document
// names is in its components: a client generated from /openapi.json can publish, list and
// stream with a key.
TEST_F(OpsApi, OpenApiDocumentDescribesApiKeyRoutesAndResolvesEverySchema) {
  auto r = anon().get("/openapi.json");
  ASSERT_STATUS(r, 200);
  auto doc = r.object();
  auto paths = doc->getObject("paths");
  const std::vector<std::tuple<std::string, std::string, std::string>> keyRoutes = {
      {"/event", "post", "publish"},
      {"/events/batch", "post", "publish"},
      {"/event/{channelId}/list", "get", "read"},
      {"/channel/{channelId}/subscribe", "get", "subscribe"},
      {"/stream-tokens", "post", "subscribe"},
      {"/traces", "get", "read"},
      {"/analytics/breakdown", "get", "read"},
      {"/v1/traces", "post", "publish"},
  };
  for (const auto& [path, method, scope] : keyRoutes) {
    auto item = paths->getObject(path);
    ASSERT_TRUE(item && item->getObject(method)) << method << " " << path;
    // A Bearer token, or the key as X-API-Key, as a Bearer aes_... or as
    // x-axonpush-api-key (and Basic on OTLP), each requirement naming the scope.
    auto security = item->getObject(method)->getArray("security");
    ASSERT_TRUE(security && security->size() >= 4) << path;
    EXPECT_TRUE(security->getObject(0)->has("bearer")) << path;
    for (const char* scheme : {"apiKey", "apiKeyBearer", "apiKeyAxonpush"}) {
      Poco::JSON::Array::Ptr key;
      for (std::size_t i = 0; i < security->size() && !key; ++i) key = security->getObject(i)->getArray(scheme);
      ASSERT_TRUE(key && key->size() == 1) << path << " " << scheme;
      EXPECT_EQ(key->getElement<std::string>(0), scope) << path << " " << scheme;
    }
  }
  EXPECT_TRUE(paths->getObject("/event")->getObject("post")->has("requestBody"));
  // Second-shape answers name the schema their `$schema` points to.
  auto app = paths->getObject("/apps/{appId}")->getObject("get")->getObject("responses")->getObject("2XX");
  ASSERT_TRUE(app->getObject("content")) << "GET /apps/{appId} has no documented body";

  // Every "#/components/schemas/X" anywhere in the document names a component.
  auto components = doc->getObject("components")->getObject("schemas");
  std::string text = r.body;
  // (A JSON writer may escape the slashes: "#\/components\/schemas\/X".)
  std::regex ref(R"re("#\\?/components\\?/schemas\\?/([A-Za-z0-9]+)")re");
  std::size_t refs = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), ref); it != std::sregex_iterator(); ++it, ++refs)
    EXPECT_TRUE(components->has((*it)[1].str())) << "dangling $ref " << (*it)[1].str();
  EXPECT_GT(refs, 20u);
  // Relative refs between schemas ("Event.json") name served schemas too.
  std::regex relative(R"re("\$ref":"([A-Za-z0-9]+)\.json")re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), relative); it != std::sregex_iterator(); ++it)
    EXPECT_TRUE(components->has((*it)[1].str())) << "dangling $ref " << (*it)[1].str() << ".json";
}

// Every operation says what a success looks like: a body with its schema or media type,
// or 204 with none. And the schemas say what the daemon sends: each required field of the
// documented schema is in a real answer.
TEST_F(OpsApi, EveryOperationDocumentsItsAnswer) {
  auto r = anon().get("/openapi.json");
  ASSERT_STATUS(r, 200);
  auto doc = r.object();
  auto paths = doc->getObject("paths");
  std::size_t operations = 0;
  for (const auto& [path, itemVar] : *paths) {
    auto item = itemVar.extract<Poco::JSON::Object::Ptr>();
    for (const auto& [method, opVar] : *item) {
      ++operations;
      auto responses = opVar.extract<Poco::JSON::Object::Ptr>()->getObject("responses");
      ASSERT_TRUE(responses) << method << " " << path;
      const bool noContent = responses->has("204") && !responses->has("2XX");
      auto success = responses->getObject("2XX");
      EXPECT_TRUE(noContent || (success && success->getObject("content")))
          << method << " " << path << " documents no success body and no 204";
      if (method == "delete") {
        EXPECT_TRUE(noContent) << method << " " << path;
      }
    }
  }
  EXPECT_GT(operations, 100u);

  auto components = doc->getObject("components")->getObject("schemas");
  auto requiredOf = [&](const std::string& schema) {
    std::vector<std::string> names;
    auto s = components->getObject(schema);
    if (s && s->getArray("required"))
      for (const auto& v : *s->getArray("required")) names.push_back(v.toString());
    return names;
  };
  auto documented = [&](const std::string& path, const std::string& method) {
    auto content =
        paths->getObject(path)->getObject(method)->getObject("responses")->getObject("2XX")->getObject("content");
    auto ref = content->getObject("application/json")->getObject("schema")->getValue<std::string>("$ref");
    return ref.substr(ref.rfind('/') + 1);
  };
  auto user = registerUser("documented");
  const std::vector<std::tuple<std::string, std::string, HttpResult>> answers = {
      {"/healthz", "get", anon().get("/healthz")},
      {"/readyz", "get", anon().get("/readyz")},
      {"/users/me", "get", user.http.get("/users/me")},
  };
  for (const auto& [path, method, answer] : answers) {
    ASSERT_STATUS(answer, 200);
    const auto schema = documented(path, method);
    const auto required = requiredOf(schema);
    EXPECT_FALSE(required.empty()) << schema;
    for (const auto& field : required) EXPECT_TRUE(answer.object()->has(field)) << path << " lacks " << field;
  }
  // A list: its items' schema.
  ASSERT_STATUS(user.http.post("/api-keys", obj({{"name", "documented"}, {"scopes", arr({"publish"})}})), 201);
  auto keys = user.http.get("/api-keys");
  ASSERT_STATUS(keys, 200);
  EXPECT_EQ(documented("/api-keys", "get"), "ApiKeyList");
  auto list = keys.array();
  ASSERT_GT(list->size(), 0u);
  for (const auto& field : requiredOf("ApiKey"))
    EXPECT_TRUE(list->getObject(0)->has(field)) << "ApiKey lacks " << field;
}

TEST_F(OpsApi, SchemasAreServedForSecondShapeBodies) {
  // Collect $schema links from a few second-shape responses and fetch each.
  std::set<std::string> links;
  auto collect = [&](const HttpResult& r) {
    ASSERT_TRUE(r.status >= 200 && r.status < 300) << r.describe();
    auto o = r.object();
    ASSERT_TRUE(o->has("$schema")) << r.describe();
    links.insert(strField(o, "$schema"));
  };
  collect(admin().http.get("/v2/users/me/organizations"));
  collect(admin().http.get("/admin/users"));
  collect(admin().http.get("/admin/access-requests"));
  collect(admin().http.patch("/organization", obj({{"description", "schema check"}})));
  collect(admin().http.patch("/v2/users/me/active-org", obj({{"orgId", std::to_string(admin().personalOrgId)}})));
  auto member = registerUser("schemamember");
  addMember(admin(), admin().personalOrgId, member);
  collect(admin().http.patch(
      "/organizations/" + std::to_string(admin().personalOrgId) + "/members/" + std::to_string(member.id),
      obj({{"role", "user"}})));
  ASSERT_FALSE(links.empty());
  const std::string base = daemon().baseUrl();
  for (const auto& link : links) {
    ASSERT_EQ(link.rfind(base + "/schemas/", 0), 0u) << link;
    EXPECT_TRUE(std::regex_match(link, std::regex(R"(.*/schemas/[A-Za-z0-9_]+\.json)"))) << link;
    auto r = anon().get(link.substr(base.size()));
    ASSERT_STATUS(r, 200);
    EXPECT_TRUE(r.isObject()) << r.describe();
    EXPECT_NE(r.contentType().find("json"), std::string::npos) << r.contentType();
  }
}

TEST_F(OpsApi, SchemasAreJsonSchemas) {
  auto r = anon().get("/v2/users/me/organizations", {{"Authorization", "Bearer " + admin().accessToken}});
  ASSERT_STATUS(r, 200);
  const auto link = strField(r.object(), "$schema");
  auto schema = anon().get(link.substr(daemon().baseUrl().size()));
  ASSERT_STATUS(schema, 200);
  auto o = schema.object();
  // A JSON Schema document: declares its dialect or at least its type/properties.
  EXPECT_TRUE(o->has("$schema") || o->has("type") || o->has("properties")) << schema.describe();
  if (o->has("properties")) {
    auto props = o->getObject("properties");
    ASSERT_TRUE(props);
    EXPECT_TRUE(props->has("organizations")) << schema.describe();
  }
}

TEST_F(OpsApi, MetricsArePublicOnLoopback) {
  auto r = anon().get("/metrics");
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(r.contentType().rfind("text/plain", 0), 0u) << r.contentType();
  EXPECT_FALSE(r.body.empty());
}

TEST_F(OpsApi, UnknownSchemaIs404) { EXPECT_TRUE(IsProblem(anon().get("/schemas/NoSuchThing.json"), 404)); }

TEST_F(OpsApi, ProtectedEndpointsNeedCredentials) {
  for (const auto& path : {"/users/me", "/users/me/organizations", "/users", "/api-keys", "/admin/users",
                           "/organizations/1", "/auth/whoami"}) {
    auto r = anon().get(path);
    EXPECT_TRUE(IsProblem(r, 401)) << path;
  }
}

TEST_F(OpsApi, BodyThatIsNotJsonIs400) {
  auto r = anon().post("/auth/register", "{this is not json");
  EXPECT_TRUE(IsProblem(r, 400));
  auto arr = anon().post("/auth/login", "[1,2,3]");
  EXPECT_TRUE(IsProblem(arr, 400));
  auto authed = admin().http.patch("/users/me", "{\"first_name\":");
  EXPECT_TRUE(IsProblem(authed, 400));
}

TEST_F(OpsApi, WrongContentTypeIs415) {
  auto r = anon().post("/auth/login", R"({"login":"x","password":"y"})", {{"Content-Type", "text/plain"}});
  EXPECT_TRUE(IsProblem(r, 415));
  auto form = admin().http.post("/api-keys", "name=x", {{"Content-Type", "application/x-www-form-urlencoded"}});
  EXPECT_TRUE(IsProblem(form, 415));
}

TEST_F(OpsApi, BodyOverTheLimitIs413) {
  // Declared by Content-Length: refused without reading it all (raw socket, because the
  // server may close before the body is sent).
  std::string big = R"({"login":")" + std::string(1024 * 1024 + 10, 'a') + R"(","password":"x"})";
  auto r = anon().rawExchange("POST", "/auth/login", {"Content-Type: application/json"}, big);
  EXPECT_TRUE(IsProblem(r, 413));
  // Just under the limit is not a 413 (it is an ordinary validation or auth failure).
  std::string fits = R"({"login":")" + std::string(1000, 'a') + R"(","password":"x"})";
  EXPECT_NE(anon().post("/auth/login", fits).status, 413);
  // The daemon is still fine afterwards.
  EXPECT_STATUS(anon().get("/healthz"), 200);
}

TEST_F(OpsApi, ChunkedBodyOverTheLimitIs413) {
  // No Content-Length: the limit must hold while reading.
  std::string big = R"({"name":")" + std::string(1024 * 1024 + 10, 'a') + R"(","scopes":["read"]})";
  auto r = anon().rawExchange("POST", "/api-keys",
                              {"Content-Type: application/json", "Authorization: Bearer " + admin().accessToken}, big,
                              /*chunked=*/true);
  EXPECT_TRUE(IsProblem(r, 413));
  EXPECT_STATUS(anon().get("/healthz"), 200);
}

TEST_F(OpsApi, ConfiguredBodyLimit) {
  // http.max_body_bytes is honoured (a daemon of its own with a 1 KiB limit).
  DaemonProcess small(options({{"http.max_body_bytes", "1024"}}));
  ASSERT_NO_THROW(small.start());
  std::string body = R"({"login":")" + std::string(2000, 'a') + R"(","password":"x"})";
  EXPECT_TRUE(
      IsProblem(small.client().rawExchange("POST", "/auth/login", {"Content-Type: application/json"}, body), 413));
  EXPECT_EQ(small.client().post("/auth/login", R"({"login":"a","password":"b"})").status, 401);
  auto status = small.stop();
  EXPECT_TRUE(status.exited && status.code == 0) << status.describe();
}

// ---------------------------------------------------------------- lifecycle

class LifecycleApi : public ApiTest {
 public:
  static void SetUpTestSuite() {}
  static void TearDownTestSuite() {}
  void SetUp() override {}
};

TEST_F(LifecycleApi, SigtermExitsZero) {
  DaemonProcess d;
  ASSERT_NO_THROW(d.start());
  ASSERT_STATUS(d.client().get("/healthz"), 200);
  auto status = d.stop();
  EXPECT_TRUE(status.exited) << status.describe() << "\n" << d.logTail();
  EXPECT_EQ(status.code, 0) << status.describe() << "\n" << d.logTail();
}

// A SIGTERM sent the moment the daemon answers reaches the main thread, even when it
// has not yet begun to wait for it: every thread is started with the signal blocked,
// so no other thread can take its default action (exit by signal 15, nothing drained).
TEST_F(LifecycleApi, SigtermRightAfterStartUpExitsZero) {
  for (int attempt = 0; attempt < 5; ++attempt) {
    DaemonProcess d;
    ASSERT_NO_THROW(d.start());
    auto status = d.stop();
    EXPECT_TRUE(status.exited && status.code == 0) << "attempt " << attempt << ": " << status.describe() << "\n"
                                                   << d.logTail();
  }
}

TEST_F(LifecycleApi, DataAndSessionsSurviveARestart) {
  DaemonProcess d;
  ASSERT_NO_THROW(d.start());
  auto http = d.client();
  const auto id = unique();
  const std::string email = "restart-" + id + "@example.test", username = "restart_" + id, password = "pw-" + id + "!x";
  ASSERT_STATUS(http.post("/auth/register", obj({{"email", email}, {"username", username}, {"password", password}})),
                201);
  auto login = http.post("/auth/login", obj({{"login", email}, {"password", password}}));
  ASSERT_STATUS(login, 200);
  const auto access = strField(login.object(), "access_token");
  const auto refresh = strField(login.object(), "refresh_token");

  auto status = d.restart();
  EXPECT_TRUE(status.exited && status.code == 0) << status.describe();

  // The generated JWT secret persisted in the data dir: the old access token still works.
  auto me = http.withBearer(access).get("/users/me");
  ASSERT_STATUS(me, 200);
  EXPECT_EQ(strField(me.object(), "email"), email);
  // The refresh token persisted too.
  EXPECT_STATUS(http.post("/auth/refresh", obj({{"refresh_token", refresh}})), 200);
  EXPECT_STATUS(http.post("/auth/login", obj({{"login", username}, {"password", password}})), 200);
  // Registering the same e-mail again is still a conflict.
  EXPECT_TRUE(IsProblem(
      http.post("/auth/register", obj({{"email", email}, {"username", username + "2"}, {"password", password}})), 409));
  auto final = d.stop();
  EXPECT_TRUE(final.exited && final.code == 0) << final.describe();
}

TEST_F(LifecycleApi, GeneratedSecretIsPrivateToTheDataDir) {
  DaemonProcess d;
  ASSERT_NO_THROW(d.start());
  const std::string path = d.dataDir() + "/jwt.secret";
  if (currentBackend() == Backend::PostgreSQL) {
    // Several nodes share one PostgreSQL: the secret is configured, never generated.
    EXPECT_FALSE(std::filesystem::exists(path)) << path;
    EXPECT_TRUE(d.stop().exited);
    return;
  }
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0) << "no " << path;
  EXPECT_EQ(st.st_mode & 077, 0u) << "jwt.secret is readable by group/others";
  EXPECT_TRUE(d.stop().exited);
}

}  // namespace
}  // namespace aev::testing

// Environments (docs/api.md: /environments[/{environmentId}], fields name and slug;
// second shape; problem+json errors): create, list, get, patch, delete; slugs derived from names;
// every 422; 409 for a slug taken in the organization; another organization's
// environment is a 404 and stays unchanged; a Bearer session is required.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <thread>

#include "integration/events/events_support.h"

namespace aev::testing {
namespace {

const std::regex kRfc3339Micros(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)");

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

class EnvironmentsApi : public EventsTest {
 protected:
  static std::string path(const std::string& id) { return "/environments/" + id; }

  // POST /environments; throws unless 201.
  static Poco::JSON::Object::Ptr create(const HttpClient& http, Poco::JSON::Object::Ptr body) {
    auto r = http.post("/environments", body);
    if (r.status != 201) throw std::runtime_error("create environment failed: " + r.describe());
    return r.object();
  }

  // The `data` of GET /environments as (id, slug) pairs, in answer order.
  static std::vector<std::pair<std::string, std::string>> listed(const HttpClient& http) {
    auto r = http.get("/environments");
    if (r.status != 200) throw std::runtime_error("list environments failed: " + r.describe());
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& e : objects(r.object()->getArray("data")))
      out.emplace_back(strField(e, "id"), strField(e, "slug"));
    return out;
  }
};

TEST_F(EnvironmentsApi, CreateGetPatchDeleteInTheSecondShape) {
  auto t = newTenant("env");
  // No x-tenant-id: the second shape acts on the active (here: personal) organization.
  auto created = t.user.http.post("/environments", obj({{"name", "Production"}, {"slug", "prod"}}));
  ASSERT_STATUS(created, 201);
  auto e = created.object();
  const auto id = strField(e, "id");
  EXPECT_EQ(strField(e, "$schema"), schemaBase() + "Environment.json");
  EXPECT_TRUE(std::regex_match(id, std::regex("[1-9][0-9]*"))) << created.body;
  EXPECT_EQ(strField(e, "environmentId"), id);
  EXPECT_EQ(strField(e, "orgId"), std::to_string(t.orgId));
  EXPECT_EQ(strField(e, "name"), "Production");
  EXPECT_EQ(strField(e, "slug"), "prod");
  EXPECT_TRUE(std::regex_match(strField(e, "createdAt"), kRfc3339Micros)) << created.body;
  EXPECT_EQ(strField(e, "updatedAt"), strField(e, "createdAt"));

  auto fetched = t.user.http.get(path(id));
  ASSERT_STATUS(fetched, 200);
  EXPECT_EQ(fetched.body, created.body);  // the same record, byte for byte

  auto renamed = t.user.http.patch(path(id), obj({{"name", "Production EU"}}));
  ASSERT_STATUS(renamed, 200);
  EXPECT_EQ(strField(renamed.object(), "$schema"), schemaBase() + "Environment.json");
  EXPECT_EQ(strField(renamed.object(), "name"), "Production EU");
  EXPECT_EQ(strField(renamed.object(), "slug"), "prod");  // a rename keeps the slug
  EXPECT_EQ(strField(renamed.object(), "createdAt"), strField(e, "createdAt"));
  EXPECT_GT(strField(renamed.object(), "updatedAt"), strField(e, "createdAt"));

  auto reslugged = t.http.patch(path(id), obj({{"slug", "prod-eu"}, {"name", "  EU  "}}));
  ASSERT_STATUS(reslugged, 200);
  EXPECT_EQ(strField(reslugged.object(), "slug"), "prod-eu");
  EXPECT_EQ(strField(reslugged.object(), "name"), "EU");  // trimmed
  EXPECT_EQ(t.user.http.get(path(id)).body, reslugged.body);

  // An empty patch changes nothing, not even updatedAt.
  auto unchanged = t.user.http.patch(path(id), obj({}));
  ASSERT_STATUS(unchanged, 200);
  EXPECT_EQ(unchanged.body, reslugged.body);

  auto list = t.user.http.get("/environments");
  ASSERT_STATUS(list, 200);
  EXPECT_EQ(strField(list.object(), "$schema"), schemaBase() + "EnvironmentList.json");
  auto items = objects(list.object()->getArray("data"));
  ASSERT_EQ(items.size(), 1u) << list.body;
  EXPECT_FALSE(items[0]->has("$schema")) << list.body;
  for (const char* field : {"id", "environmentId", "orgId", "name", "slug", "createdAt", "updatedAt"})
    EXPECT_EQ(toJson(items[0]->get(field)), toJson(reslugged.object()->get(field))) << field;

  auto deleted = t.user.http.del(path(id));
  EXPECT_STATUS(deleted, 204);
  EXPECT_TRUE(deleted.body.empty());
  EXPECT_TRUE(IsProblem(t.user.http.get(path(id)), 404));
  EXPECT_TRUE(IsProblem(t.user.http.patch(path(id), obj({{"name", "again"}})), 404));
  EXPECT_TRUE(IsProblem(t.user.http.del(path(id)), 404));
  EXPECT_TRUE(listed(t.user.http).empty());
  // Its slug is free again.
  EXPECT_STATUS(t.user.http.post("/environments", obj({{"name", "Production"}, {"slug", "prod-eu"}})), 201);
}

TEST_F(EnvironmentsApi, SchemasAndOpenApiDocumentEnvironments) {
  for (const char* name : {"Environment", "EnvironmentList"}) {
    auto r = anon().get(std::string("/schemas/") + name + ".json");
    ASSERT_STATUS(r, 200);
    EXPECT_EQ(strField(r.object(), "$id"), schemaBase() + name + ".json");
    EXPECT_EQ(strField(r.object(), "title"), name);
  }
  auto required = anon().get("/schemas/Environment.json").object()->getArray("required");
  std::set<std::string> fields;
  for (std::size_t i = 0; i < required->size(); ++i) fields.insert(required->getElement<std::string>(i));
  EXPECT_EQ(fields, (std::set<std::string>{"id", "environmentId", "orgId", "name", "slug", "createdAt", "updatedAt"}));

  auto doc = anon().get("/openapi.json");
  ASSERT_STATUS(doc, 200);
  auto paths = doc.object()->getObject("paths");
  ASSERT_TRUE(paths->has("/environments")) << "no /environments in openapi.json";
  ASSERT_TRUE(paths->has("/environments/{environmentId}")) << "no /environments/{environmentId} in openapi.json";
  for (const char* m : {"get", "post"}) EXPECT_TRUE(paths->getObject("/environments")->has(m)) << m;
  for (const char* m : {"get", "patch", "delete"})
    EXPECT_TRUE(paths->getObject("/environments/{environmentId}")->has(m)) << m;
  EXPECT_TRUE(doc.object()->getObject("components")->getObject("schemas")->has("Environment"));
}

TEST_F(EnvironmentsApi, SlugIsDerivedFromTheNameWhenAbsent) {
  auto t = newTenant("envslug");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Production", "production"},
      {"  EU West / Staging!! ", "eu-west-staging"},
      {"Caf\xC3\xA9 Prod 2", "caf-prod-2"},
      {"QA__Team--B", "qa-team-b"},
      {"2024", "2024"},
      {repeat("Ab", 60), repeat("ab", 32)},  // 120 characters → the first 64
  };
  for (const auto& [name, slug] : cases) {
    auto e = create(t.http, obj({{"name", name}}));
    EXPECT_EQ(strField(e, "slug"), slug) << name;
  }
  // The name is stored trimmed, the slug as derived.
  EXPECT_EQ(listed(t.http).at(1).second, "eu-west-staging");
  auto second = t.http.get("/environments").object()->getArray("data")->getObject(1);
  EXPECT_EQ(strField(second, "name"), "EU West / Staging!!");

  // A name with no ASCII letter or digit needs an explicit slug.
  auto underivable = t.http.post("/environments", obj({{"name", "\xC3\xA9\xC3\xA9 !!"}}));
  ASSERT_TRUE(IsProblem(underivable, 422));
  EXPECT_EQ(errorLocations(underivable), std::vector<std::string>{"body.slug"}) << underivable.body;
  auto explicitSlug = create(t.http, obj({{"name", "\xC3\xA9\xC3\xA9 !!"}, {"slug", "accents"}}));
  EXPECT_EQ(strField(explicitSlug, "name"), "\xC3\xA9\xC3\xA9 !!");
  EXPECT_EQ(strField(explicitSlug, "slug"), "accents");

  // A derived slug that is taken is a conflict like an explicit one.
  EXPECT_TRUE(IsProblem(t.http.post("/environments", obj({{"name", "PRODUCTION"}})), 409));
  EXPECT_EQ(listed(t.http).size(), cases.size() + 1);
}

TEST_F(EnvironmentsApi, EveryInvalidCreateIs422NamingTheField) {
  auto t = newTenant("envbad");
  const std::vector<std::pair<Poco::JSON::Object::Ptr, std::vector<std::string>>> cases = {
      {obj({}), {"body.name"}},
      {obj({{"slug", "prod"}}), {"body.name"}},
      {obj({{"name", ""}}), {"body.name"}},
      {obj({{"name", " \t "}}), {"body.name"}},  // empty once trimmed
      {obj({{"name", repeat("\xC3\xA9", 121)}}), {"body.name"}},
      {obj({{"name", repeat("a", 121)}}), {"body.name"}},
      {obj({{"name", 42}}), {"body.name"}},
      {obj({{"name", Poco::Dynamic::Var()}}), {"body.name"}},
      {obj({{"name", arr({"a"})}}), {"body.name"}},
      {obj({{"name", "ok"}, {"slug", ""}}), {"body.slug"}},
      {obj({{"name", "ok"}, {"slug", "-prod"}}), {"body.slug"}},
      {obj({{"name", "ok"}, {"slug", "prod-"}}), {"body.slug"}},
      {obj({{"name", "ok"}, {"slug", "-"}}), {"body.slug"}},
      {obj({{"name", "ok"}, {"slug", "Prod"}}), {"body.slug"}},
      {obj({{"name", "ok"}, {"slug", "pro_d"}}), {"body.slug"}},
      {obj({{"name", "ok"}, {"slug", "pro d"}}), {"body.slug"}},
      {obj({{"name", "ok"}, {"slug", "prod.eu"}}), {"body.slug"}},
      {obj({{"name", "ok"}, {"slug", "caf\xC3\xA9"}}), {"body.slug"}},
      {obj({{"name", "ok"}, {"slug", repeat("a", 65)}}), {"body.slug"}},
      {obj({{"name", "ok"}, {"slug", 7}}), {"body.slug"}},
      {obj({{"name", "ok"}, {"slug", Poco::Dynamic::Var()}}), {"body.slug"}},
      {obj({{"name", "ok"}, {"colour", "red"}}), {"body.colour"}},
      {obj({{"name", "ok"}, {"environmentId", "5"}}), {"body.environmentId"}},
      {obj({{"name", ""}, {"slug", "-x-"}}), {"body.name", "body.slug"}},  // every problem at once
  };
  for (const auto& [body, locations] : cases) {
    auto r = t.http.post("/environments", body);
    EXPECT_TRUE(IsProblem(r, 422)) << toJson(body);
    EXPECT_EQ(errorLocations(r), locations) << toJson(body) << " → " << r.body;
  }
  EXPECT_TRUE(IsProblem(t.http.post("/environments", "{not json"), 400));
  EXPECT_TRUE(IsProblem(t.http.post("/environments", "[1]"), 400));
  EXPECT_TRUE(
      IsProblem(t.http.post("/environments", "name=x", {{"Content-Type", "application/x-www-form-urlencoded"}}), 415));
  EXPECT_TRUE(listed(t.http).empty());

  // The limits themselves are accepted: 120 two-byte characters, a 64-character slug.
  auto atLimit = create(t.http, obj({{"name", repeat("\xC3\xA9", 120)}, {"slug", repeat("a", 64)}}));
  EXPECT_EQ(strField(atLimit, "name"), repeat("\xC3\xA9", 120));
  EXPECT_EQ(strField(atLimit, "slug"), repeat("a", 64));
  EXPECT_EQ(strField(create(t.http, obj({{"name", "x"}, {"slug", "0"}})), "slug"), "0");
  EXPECT_EQ(listed(t.http).size(), 2u);
}

TEST_F(EnvironmentsApi, EveryInvalidPatchIs422AndChangesNothing) {
  auto t = newTenant("envpatch");
  auto e = create(t.http, obj({{"name", "Staging"}, {"slug", "staging"}}));
  const auto id = strField(e, "id");
  const auto before = t.http.get(path(id)).body;
  const std::vector<std::pair<Poco::JSON::Object::Ptr, std::vector<std::string>>> cases = {
      {obj({{"name", ""}}), {"body.name"}},
      {obj({{"name", "   "}}), {"body.name"}},
      {obj({{"name", repeat("b", 121)}}), {"body.name"}},
      {obj({{"name", Poco::Dynamic::Var()}}), {"body.name"}},  // cannot be cleared
      {obj({{"name", false}}), {"body.name"}},
      {obj({{"slug", "Staging"}}), {"body.slug"}},
      {obj({{"slug", "stag-"}}), {"body.slug"}},
      {obj({{"slug", Poco::Dynamic::Var()}}), {"body.slug"}},
      {obj({{"slug", 1}}), {"body.slug"}},
      {obj({{"name", "fine"}, {"orgId", "1"}}), {"body.orgId"}},
      {obj({{"name", "fine"}, {"slug", "also-fine"}, {"extra", true}}), {"body.extra"}},
  };
  for (const auto& [body, locations] : cases) {
    auto r = t.http.patch(path(id), body);
    EXPECT_TRUE(IsProblem(r, 422)) << toJson(body);
    EXPECT_EQ(errorLocations(r), locations) << toJson(body) << " → " << r.body;
  }
  EXPECT_TRUE(IsProblem(t.http.patch(path(id), "{"), 400));
  EXPECT_TRUE(IsProblem(t.http.patch(path(id), "slug=x", {{"Content-Type", "text/plain"}}), 415));
  EXPECT_EQ(t.http.get(path(id)).body, before);
}

TEST_F(EnvironmentsApi, ADuplicateSlugInTheOrganizationIs409) {
  auto t = newTenant("envdup");
  auto prod = create(t.http, obj({{"name", "Production"}, {"slug", "prod"}}));
  auto stage = create(t.http, obj({{"name", "Staging"}, {"slug", "stage"}}));

  auto again = t.http.post("/environments", obj({{"name", "Another"}, {"slug", "prod"}}));
  EXPECT_TRUE(IsProblem(again, 409));
  auto taken = t.http.patch(path(strField(stage, "id")), obj({{"slug", "prod"}}));
  EXPECT_TRUE(IsProblem(taken, 409));
  EXPECT_EQ(strField(t.http.get(path(strField(stage, "id"))).object(), "slug"), "stage");
  // Its own slug again, or the same name as another environment, is no conflict.
  EXPECT_STATUS(t.http.patch(path(strField(prod, "id")), obj({{"slug", "prod"}, {"name", "Staging"}})), 200);
  EXPECT_EQ(listed(t.http).size(), 2u);

  // Slugs are unique per organization: another one may use "prod".
  auto other = newTenant("envdup-other");
  auto theirs = create(other.http, obj({{"name", "Production"}, {"slug", "prod"}}));
  EXPECT_EQ(strField(theirs, "orgId"), std::to_string(other.orgId));
  EXPECT_NE(strField(theirs, "id"), strField(prod, "id"));

  // Concurrent creates of one slug: exactly one wins, the others are 409 (not 500).
  std::vector<std::thread> threads;
  std::vector<int> statuses(6);
  for (std::size_t i = 0; i < statuses.size(); ++i)
    threads.emplace_back([&, i] {
      statuses[i] = t.http.post("/environments", obj({{"name", "Race " + std::to_string(i)}, {"slug", "race"}})).status;
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(std::count(statuses.begin(), statuses.end(), 201), 1);
  EXPECT_EQ(std::count(statuses.begin(), statuses.end(), 409), static_cast<long>(statuses.size()) - 1);
}

TEST_F(EnvironmentsApi, AnotherOrganizationsEnvironmentIs404AndStaysUnchanged) {
  auto owner = newTenant("envown");
  auto stranger = newTenant("envstranger");
  auto e = create(owner.http, obj({{"name", "Production"}, {"slug", "prod"}}));
  const auto id = strField(e, "id");
  const auto before = owner.http.get(path(id)).body;

  for (const auto& http : {stranger.http, stranger.user.http}) {
    EXPECT_TRUE(IsProblem(http.get(path(id)), 404));
    EXPECT_TRUE(IsProblem(http.patch(path(id), obj({{"name", "Mine now"}, {"slug", "mine"}})), 404));
    EXPECT_TRUE(IsProblem(http.del(path(id)), 404));
  }
  EXPECT_TRUE(listed(stranger.http).empty());
  EXPECT_EQ(owner.http.get(path(id)).body, before);
  ASSERT_EQ(listed(owner.http).size(), 1u);

  // Ids that are not positive decimal integers are 404s too (docs/api.md#the-two-shapes).
  for (const char* bad : {"abc", "0", "-1", "1.5", "99999999999999999999", "prod"})
    EXPECT_TRUE(IsProblem(owner.http.get(path(bad)), 404)) << bad;

  // x-tenant-id of an organization the caller is not a member of: 403, nothing created.
  auto foreign = stranger.user.http.withHeader("x-tenant-id", std::to_string(owner.orgId));
  EXPECT_TRUE(IsProblem(foreign.get("/environments"), 403));
  EXPECT_TRUE(IsProblem(foreign.post("/environments", obj({{"name", "Sneaky"}})), 403));
  EXPECT_TRUE(IsProblem(foreign.get(path(id)), 403));
  EXPECT_EQ(listed(owner.http).size(), 1u);
}

TEST_F(EnvironmentsApi, TenantHeaderSelectsTheOrganizationAndMembersMayWrite) {
  auto owner = newTenant("envtenant");
  const auto teamOrg = intField(createOrg(owner.user), "id");
  auto inTeam = owner.user.http.withHeader("x-tenant-id", std::to_string(teamOrg));
  auto teamEnv = create(inTeam, obj({{"name", "Team prod"}, {"slug", "prod"}}));
  EXPECT_EQ(strField(teamEnv, "orgId"), std::to_string(teamOrg));
  auto personalEnv = create(owner.http, obj({{"name", "Personal prod"}, {"slug", "prod"}}));
  EXPECT_EQ(strField(personalEnv, "orgId"), std::to_string(owner.orgId));
  EXPECT_EQ(listed(inTeam), (std::vector<std::pair<std::string, std::string>>{{strField(teamEnv, "id"), "prod"}}));
  EXPECT_TRUE(IsProblem(inTeam.get(path(strField(personalEnv, "id"))), 404));

  // A plain member (role user) of the team reads and writes its environments, as with apps.
  auto member = registerUser("envmember");
  addMember(owner.user, teamOrg, member, "user");
  auto asMember = member.http.withHeader("x-tenant-id", std::to_string(teamOrg));
  EXPECT_EQ(listed(asMember).size(), 1u);
  auto created = create(asMember, obj({{"name", "QA"}}));
  EXPECT_EQ(strField(created, "orgId"), std::to_string(teamOrg));
  EXPECT_STATUS(asMember.patch(path(strField(teamEnv, "id")), obj({{"name", "Team production"}})), 200);
  EXPECT_STATUS(asMember.del(path(strField(created, "id"))), 204);
  EXPECT_EQ(strField(owner.user.http.withHeader("x-tenant-id", std::to_string(teamOrg))
                         .get(path(strField(teamEnv, "id")))
                         .object(),
                     "name"),
            "Team production");
}

TEST_F(EnvironmentsApi, ABearerSessionIsRequired) {
  auto t = newTenant("envauth");
  auto e = create(t.http, obj({{"name", "Production"}}));
  const auto id = strField(e, "id");
  const Headers tenant = {{"x-tenant-id", std::to_string(t.orgId)}};
  EXPECT_TRUE(IsProblem(anon().get("/environments", tenant), 401));
  EXPECT_TRUE(IsProblem(anon().post("/environments", obj({{"name", "x"}}), tenant), 401));
  EXPECT_TRUE(IsProblem(anon().get(path(id)), 401));
  EXPECT_TRUE(IsProblem(anon().patch(path(id), obj({{"name", "x"}})), 401));
  EXPECT_TRUE(IsProblem(anon().del(path(id)), 401));
  EXPECT_TRUE(IsProblem(anon().withBearer("not.a.jwt").get("/environments"), 401));
  // An API key, whatever its scopes, is not a user session.
  auto key = createKey(t, {"publish", "subscribe", "read"});
  EXPECT_TRUE(IsProblem(anon().withApiKey(key.key).get("/environments"), 403));
  EXPECT_TRUE(IsProblem(anon().withApiKey(key.key).post("/environments", obj({{"name", "x"}})), 403));
  EXPECT_EQ(listed(t.http).size(), 1u);
}

TEST_F(EnvironmentsApi, ListIsInCreationOrder) {
  auto t = newTenant("envorder");
  std::vector<std::string> ids;
  for (const char* slug : {"zeta", "alpha", "mid", "beta"})
    ids.push_back(strField(create(t.http, obj({{"name", std::string("Env ") + slug}, {"slug", slug}})), "id"));
  using Listing = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(listed(t.http), (Listing{{ids[0], "zeta"}, {ids[1], "alpha"}, {ids[2], "mid"}, {ids[3], "beta"}}));
  // Neither a rename nor a new slug moves an environment; deleting one keeps the others' order.
  ASSERT_STATUS(t.http.patch(path(ids[0]), obj({{"name", "AAA"}, {"slug", "aaa"}})), 200);
  ASSERT_STATUS(t.http.del(path(ids[2])), 204);
  EXPECT_EQ(listed(t.http), (Listing{{ids[0], "aaa"}, {ids[1], "alpha"}, {ids[3], "beta"}}));
  // Ids grow with creation.
  EXPECT_LT(std::stoll(ids[0]), std::stoll(ids[1]));
  EXPECT_LT(std::stoll(ids[2]), std::stoll(ids[3]));
}

}  // namespace
}  // namespace aev::testing

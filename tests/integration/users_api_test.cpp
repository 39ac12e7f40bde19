// /users/me, memberships, active organization, org-admin user management and the
// instance-admin search (docs/api.md#the-two-shapes, docs/api.md#authentication).
#include <gtest/gtest.h>

#include "support/api_fixture.h"
#include "support/jwt_tools.h"

namespace aev::testing {
namespace {

class UsersApi : public ApiTest {
 protected:
  // The members of an org as seen by GET /users (acting on that org via x-tenant-id).
  std::vector<std::int64_t> userIdsOf(const TestUser& orgAdmin, std::int64_t orgId) {
    auto r = orgAdmin.http.get("/users", {{"x-tenant-id", std::to_string(orgId)}});
    EXPECT_STATUS(r, 200);
    std::vector<std::int64_t> ids;
    if (r.status != 200) return ids;
    for (const auto& u : objects(listOf(r, {"data", "users", "items"}))) ids.push_back(intField(u, "id"));
    return ids;
  }
};

TEST_F(UsersApi, GetMeAnswersTheFirstShapeUser) {
  auto u = registerUser("me");
  auto r = u.http.get("/users/me");
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  EXPECT_EQ(intField(o, "id"), u.id);
  EXPECT_EQ(strField(o, "email"), u.email);
  EXPECT_EQ(strField(o, "username"), u.username);
  EXPECT_TRUE(o->has("first_name"));
  EXPECT_TRUE(o->has("last_name"));
  EXPECT_EQ(intField(o, "organizationId"), u.personalOrgId);
  ASSERT_TRUE(o->getArray("roles")) << r.describe();
}

TEST_F(UsersApi, PatchMeUpdatesTheProfile) {
  auto u = registerUser("patchme");
  auto r = u.http.patch("/users/me", obj({{"first_name", "Grace"}, {"last_name", "Hopper"}}));
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(strField(r.object(), "first_name"), "Grace");
  EXPECT_EQ(strField(r.object(), "last_name"), "Hopper");
  auto me = u.http.get("/users/me");
  EXPECT_EQ(strField(me.object(), "first_name"), "Grace");
  EXPECT_EQ(strField(me.object(), "last_name"), "Hopper");
  // Only the sent field changes.
  ASSERT_STATUS(u.http.patch("/users/me", obj({{"last_name", "Murray Hopper"}})), 200);
  me = u.http.get("/users/me");
  EXPECT_EQ(strField(me.object(), "first_name"), "Grace");
  EXPECT_EQ(strField(me.object(), "last_name"), "Murray Hopper");
  // E-mail and id are not changed through this endpoint.
  EXPECT_EQ(strField(me.object(), "email"), u.email);
}

TEST_F(UsersApi, PatchMeValidation) {
  auto u = registerUser("patchval");
  EXPECT_TRUE(IsProblem(u.http.patch("/users/me", obj({{"first_name", 5}})), 422));
  EXPECT_TRUE(IsProblem(u.http.patch("/users/me", obj({{"last_name", std::string(1000, 'x')}})), 422));
  EXPECT_TRUE(IsProblem(u.http.patch("/users/me", "not json"), 400));
  auto me = u.http.get("/users/me");
  EXPECT_NE(strField(me.object(), "last_name"), std::string(1000, 'x'));
}

TEST_F(UsersApi, MyOrganizationsFirstShape) {
  auto u = registerUser("orgs1");
  auto org = createOrg(u, "Second Org", "second-" + unique());
  auto r = u.http.get("/users/me/organizations");
  ASSERT_STATUS(r, 200);
  auto list = objects(r.array());
  ASSERT_EQ(list.size(), 2u) << r.describe();
  bool sawNew = false;
  for (const auto& m : list) {
    EXPECT_GT(intField(m, "id"), 0);
    EXPECT_EQ(intField(m, "userId"), u.id);
    EXPECT_EQ(strField(m, "role"), "admin");
    EXPECT_FALSE(strField(m, "joinedAt").empty());
    auto o = m->getObject("organization");
    ASSERT_TRUE(o) << r.describe();
    EXPECT_EQ(intField(o, "id"), intField(m, "organizationId"));
    EXPECT_FALSE(strField(o, "name").empty());
    EXPECT_FALSE(strField(o, "slug").empty());
    if (intField(m, "organizationId") == intField(org, "id")) {
      sawNew = true;
      EXPECT_EQ(strField(o, "name"), "Second Org");
    }
  }
  EXPECT_TRUE(sawNew);
}

TEST_F(UsersApi, MyOrganizationsSecondShape) {
  auto u = registerUser("orgs2");
  auto org = createOrg(u);
  auto r = u.http.get("/v2/users/me/organizations");
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  EXPECT_EQ(strField(o, "$schema").rfind(schemaBase(), 0), 0u) << r.describe();
  auto list = objects(o->getArray("organizations"));
  ASSERT_EQ(list.size(), 2u) << r.describe();
  bool sawNew = false;
  for (const auto& item : list) {
    EXPECT_EQ(strField(item, "role"), "admin");
    auto org2 = item->getObject("organization");
    ASSERT_TRUE(org2);
    const auto orgId = strField(org2, "orgId");  // a decimal string
    EXPECT_FALSE(strField(org2, "name").empty());
    EXPECT_FALSE(strField(org2, "slug").empty());
    if (orgId == std::to_string(intField(org, "id"))) sawNew = true;
  }
  EXPECT_TRUE(sawNew);
}

TEST_F(UsersApi, SwitchActiveOrgFirstShape) {
  auto u = registerUser("switch1");
  auto org = createOrg(u);
  const auto orgId = intField(org, "id");
  auto r = u.http.patch("/users/me/active-org", obj({{"organizationId", orgId}}));
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  const auto access = strField(o, "access_token");
  EXPECT_FALSE(strField(o, "refresh_token").empty());
  EXPECT_EQ(intField(decodeJwt(access).payload, "org"), orgId);
  auto who = anon().withBearer(access).get("/auth/whoami");
  ASSERT_STATUS(who, 200);
  EXPECT_EQ(intField(who.object(), "orgId"), orgId);
  auto me = anon().withBearer(access).get("/users/me");
  EXPECT_EQ(intField(me.object(), "organizationId"), orgId);
  // Back to the personal organization.
  auto back = u.http.patch("/users/me/active-org", obj({{"organizationId", u.personalOrgId}}));
  ASSERT_STATUS(back, 200);
  EXPECT_EQ(intField(decodeJwt(strField(back.object(), "access_token")).payload, "org"), u.personalOrgId);
}

TEST_F(UsersApi, SwitchActiveOrgWithStringOrgId) {
  auto u = registerUser("switch2");
  auto org = createOrg(u);
  const auto orgId = intField(org, "id");
  auto r = u.http.patch("/users/me/active-org", obj({{"orgId", std::to_string(orgId)}}));
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  EXPECT_EQ(o->getValue<bool>("ok"), true) << r.describe();
  EXPECT_EQ(intField(decodeJwt(strField(o, "access_token")).payload, "org"), orgId);
  EXPECT_FALSE(strField(o, "refresh_token").empty());
}

TEST_F(UsersApi, SwitchActiveOrgSecondShape) {
  auto u = registerUser("switch3");
  auto org = createOrg(u);
  const auto orgId = intField(org, "id");
  auto r = u.http.patch("/v2/users/me/active-org", obj({{"orgId", std::to_string(orgId)}}));
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  EXPECT_EQ(strField(o, "$schema").rfind(schemaBase(), 0), 0u) << r.describe();
  EXPECT_EQ(o->getValue<bool>("ok"), true);
  const auto access = strField(o, "access_token");
  EXPECT_EQ(intField(decodeJwt(access).payload, "org"), orgId);
  // The new refresh token keeps the new organization.
  auto refreshed = anon().post("/auth/refresh", obj({{"refresh_token", strField(o, "refresh_token")}}));
  ASSERT_STATUS(refreshed, 200);
  EXPECT_EQ(intField(decodeJwt(strField(refreshed.object(), "access_token")).payload, "org"), orgId);
}

TEST_F(UsersApi, SwitchToAnOrgYouAreNotIn) {
  auto u = registerUser("switch4");
  auto other = registerUser("switch4other");
  EXPECT_TRUE(IsProblem(u.http.patch("/users/me/active-org", obj({{"organizationId", other.personalOrgId}})), 404));
  EXPECT_TRUE(
      IsProblem(u.http.patch("/v2/users/me/active-org", obj({{"orgId", std::to_string(other.personalOrgId)}})), 404));
  EXPECT_TRUE(IsProblem(u.http.patch("/users/me/active-org", obj({{"organizationId", 99999999}})), 404));
  EXPECT_TRUE(IsProblem(u.http.patch("/users/me/active-org", "{}"), 422));
  EXPECT_TRUE(IsProblem(u.http.patch("/users/me/active-org", obj({{"organizationId", "abc"}})), 422));
  EXPECT_TRUE(IsProblem(u.http.patch("/v2/users/me/active-org", obj({{"orgId", "abc"}})), 422));
}

TEST_F(UsersApi, OrgAdminListsUsersOfTheActiveOrg) {
  auto owner = registerUser("listowner");
  auto member = registerUser("listmember");
  auto outsider = registerUser("listoutsider");
  addMember(owner, owner.personalOrgId, member);
  auto r = owner.http.get("/users");
  ASSERT_STATUS(r, 200);
  std::vector<std::string> emails;
  for (const auto& u : objects(listOf(r, {"data", "users", "items"}))) {
    EXPECT_GT(intField(u, "id"), 0);
    emails.push_back(strField(u, "email"));
  }
  EXPECT_NE(std::find(emails.begin(), emails.end(), owner.email), emails.end()) << r.describe();
  EXPECT_NE(std::find(emails.begin(), emails.end(), member.email), emails.end()) << r.describe();
  EXPECT_EQ(std::find(emails.begin(), emails.end(), outsider.email), emails.end()) << r.describe();
  // A plain member (role user) of that org is not an admin there.
  EXPECT_TRUE(IsProblem(member.http.get("/users", {{"x-tenant-id", std::to_string(owner.personalOrgId)}}), 403));
}

TEST_F(UsersApi, OrgAdminUpdatesAUserOfTheOrg) {
  auto owner = registerUser("putowner");
  auto member = registerUser("putmember");
  addMember(owner, owner.personalOrgId, member);
  auto r = owner.http.put("/users/" + std::to_string(member.id), obj({{"first_name", "Renamed"}, {"last_name", "ByAdmin"}}));
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(intField(r.object(), "id"), member.id);
  EXPECT_EQ(strField(r.object(), "first_name"), "Renamed");
  auto me = member.http.get("/users/me");
  EXPECT_EQ(strField(me.object(), "first_name"), "Renamed");
  EXPECT_EQ(strField(me.object(), "last_name"), "ByAdmin");

  // Role in the organization.
  ASSERT_STATUS(owner.http.put("/users/" + std::to_string(member.id), obj({{"role", "admin"}})), 200);
  auto orgs = member.http.get("/users/me/organizations");
  bool isAdmin = false;
  for (const auto& m : objects(orgs.array()))
    if (intField(m, "organizationId") == owner.personalOrgId) isAdmin = strField(m, "role") == "admin";
  EXPECT_TRUE(isAdmin) << orgs.describe();

  EXPECT_TRUE(IsProblem(owner.http.put("/users/" + std::to_string(member.id), obj({{"role", "superuser"}})), 422));
  EXPECT_TRUE(IsProblem(owner.http.put("/users/abc", obj({{"first_name", "x"}})), 404));
}

TEST_F(UsersApi, PlainMemberCannotManageUsers) {
  auto owner = registerUser("plainowner");
  auto member = registerUser("plainmember");
  addMember(owner, owner.personalOrgId, member);
  const Headers tenant = {{"x-tenant-id", std::to_string(owner.personalOrgId)}};
  EXPECT_TRUE(IsProblem(member.http.put("/users/" + std::to_string(owner.id), obj({{"first_name", "Hacked"}}), tenant), 403));
  EXPECT_TRUE(IsProblem(member.http.del("/users/" + std::to_string(owner.id), tenant), 403));
  auto me = owner.http.get("/users/me");
  EXPECT_NE(strField(me.object(), "first_name"), "Hacked");
}

TEST_F(UsersApi, OrgAdminDeletesAUserOfTheOrg) {
  auto owner = registerUser("delowner");
  auto member = registerUser("delmember");
  addMember(owner, owner.personalOrgId, member);
  auto r = owner.http.del("/users/" + std::to_string(member.id));
  ASSERT_STATUS(r, 204);
  auto ids = userIdsOf(owner, owner.personalOrgId);
  EXPECT_EQ(std::find(ids.begin(), ids.end(), member.id), ids.end());
  // The deleted user no longer reaches the organization.
  auto after = member.http.get("/organizations/" + std::to_string(owner.personalOrgId));
  EXPECT_TRUE(after.status == 404 || after.status == 401) << after.describe();
  EXPECT_TRUE(IsProblem(owner.http.del("/users/" + std::to_string(member.id)), 404));
}

TEST_F(UsersApi, UsersOfAnotherOrgAre404AndUnchanged) {
  auto alice = registerUser("xalice");
  auto bob = registerUser("xbob");
  const auto path = "/users/" + std::to_string(alice.id);
  EXPECT_TRUE(IsProblem(bob.http.put(path, obj({{"first_name", "Mallory"}})), 404));
  EXPECT_TRUE(IsProblem(bob.http.del(path), 404));
  auto me = alice.http.get("/users/me");
  ASSERT_STATUS(me, 200);
  EXPECT_NE(strField(me.object(), "first_name"), "Mallory");
  EXPECT_EQ(strField(me.object(), "email"), alice.email);
  auto ids = userIdsOf(alice, alice.personalOrgId);
  EXPECT_NE(std::find(ids.begin(), ids.end(), alice.id), ids.end());
}

TEST_F(UsersApi, AdminSearchSecondShape) {
  auto u = registerUser("searchme");
  auto r = admin().http.get("/admin/users?q=" + u.username);
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  EXPECT_EQ(strField(o, "$schema").rfind(schemaBase(), 0), 0u) << r.describe();
  auto users = objects(o->getArray("users"));
  ASSERT_EQ(users.size(), 1u) << r.describe();
  const auto& found = users[0];
  EXPECT_EQ(strField(found, "id"), std::to_string(u.id));
  EXPECT_EQ(strField(found, "email"), u.email);
  EXPECT_EQ(strField(found, "username"), u.username);
  EXPECT_TRUE(found->has("firstName"));
  EXPECT_TRUE(found->has("lastName"));
  EXPECT_EQ(strField(found, "organizationId"), std::to_string(u.personalOrgId));
  EXPECT_TRUE(found->has("disabledAt"));
  EXPECT_FALSE(hasNonNull(found, "disabledAt"));

  // By e-mail, case-insensitively.
  std::string upper = u.email;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto byEmail = admin().http.get("/admin/users?q=" + upper);
  ASSERT_STATUS(byEmail, 200);
  EXPECT_EQ(objects(byEmail.object()->getArray("users")).size(), 1u) << byEmail.describe();

  auto none = admin().http.get("/admin/users?q=no-such-user-" + unique());
  ASSERT_STATUS(none, 200);
  EXPECT_EQ(none.object()->getArray("users")->size(), 0u);

  auto all = admin().http.get("/admin/users");
  ASSERT_STATUS(all, 200);
  EXPECT_GE(all.object()->getArray("users")->size(), 2u);
}

TEST_F(UsersApi, AdminSearchTreatsQueryAsText) {
  // LIKE wildcards in q match literally, not everything.
  auto r = admin().http.get("/admin/users?q=%25");
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(r.object()->getArray("users")->size(), 0u) << r.describe();
  auto underscore = admin().http.get("/admin/users?q=____________________");
  ASSERT_STATUS(underscore, 200);
  EXPECT_EQ(underscore.object()->getArray("users")->size(), 0u) << underscore.describe();
}

}  // namespace
}  // namespace aev::testing

// Organizations, members and invitations (docs/api.md, docs/features.md#plans-and-quotas):
// shapes, roles, validation, cross-organization isolation and the seat limit.
#include <gtest/gtest.h>

#include "support/api_fixture.h"
#include "support/jwt_tools.h"

namespace aev::testing {
namespace {

std::string orgPath(std::int64_t id, const std::string& rest = "") { return "/organizations/" + std::to_string(id) + rest; }

class OrganizationsApi : public ApiTest {
 protected:
  // Members of an org as {userId → role}.
  std::map<std::int64_t, std::string> membersOf(const TestUser& viewer, std::int64_t orgId) {
    auto r = viewer.http.get(orgPath(orgId, "/members"));
    EXPECT_STATUS(r, 200);
    std::map<std::int64_t, std::string> out;
    if (r.status != 200) return out;
    for (const auto& m : objects(listOf(r, {"data", "members", "items"}))) out[intField(m, "userId")] = strField(m, "role");
    return out;
  }
  HttpClient orgClient(const Poco::JSON::Object::Ptr& created) {
    return anon().withBearer(strField(created, "access_token"));
  }
};

TEST_F(OrganizationsApi, CreateAnswersTheSupersetWithTokens) {
  auto u = registerUser("creator");
  const auto slug = "acme-" + unique();
  auto r = u.http.post("/organizations", obj({{"name", "Acme"}, {"slug", slug}, {"description", "Rockets"}}));
  ASSERT_STATUS(r, 201);
  auto o = r.object();
  const auto id = intField(o, "id");
  EXPECT_GT(id, 0);
  EXPECT_EQ(strField(o, "orgId"), std::to_string(id));
  EXPECT_EQ(strField(o, "name"), "Acme");
  EXPECT_EQ(strField(o, "slug"), slug);
  EXPECT_EQ(strField(o, "description"), "Rockets");
  EXPECT_EQ(strField(o, "plan"), "free");
  EXPECT_FALSE(strField(o, "subscriptionStatus").empty());
  EXPECT_EQ(intField(o, "eventsQuotaMonthly"), 100000);
  EXPECT_EQ(intField(o, "retentionDays"), 30);
  EXPECT_EQ(intField(o, "seatLimit"), 5);
  EXPECT_FALSE(strField(o, "createdAt").empty());
  EXPECT_FALSE(strField(o, "updatedAt").empty());
  // The tokens act on the new organization.
  const auto access = strField(o, "access_token");
  EXPECT_FALSE(strField(o, "refresh_token").empty());
  EXPECT_EQ(intField(decodeJwt(access).payload, "org"), id);
  auto who = anon().withBearer(access).get("/auth/whoami");
  ASSERT_STATUS(who, 200);
  EXPECT_EQ(intField(who.object(), "orgId"), id);
  EXPECT_EQ(strField(who.object(), "role"), "admin");
  // The creator is its admin.
  EXPECT_EQ(membersOf(u, id)[u.id], "admin");
}

TEST_F(OrganizationsApi, DescriptionIsOptional) {
  auto u = registerUser("nodesc");
  auto r = u.http.post("/organizations", obj({{"name", "No Description"}, {"slug", "nodesc-" + unique()}}));
  ASSERT_STATUS(r, 201);
}

TEST_F(OrganizationsApi, CreateValidation) {
  auto u = registerUser("orgval");
  for (const char* bad : {"Bad Slug", "-leading", "UPPER", "under_score", "", "dot.ted"}) {
    auto r = u.http.post("/organizations", obj({{"name", "X"}, {"slug", bad}}));
    ASSERT_TRUE(IsProblem(r, 422)) << bad;
    EXPECT_EQ(errorLocations(r), std::vector<std::string>{"body.slug"}) << bad;
  }
  EXPECT_TRUE(IsProblem(u.http.post("/organizations", obj({{"name", "X"}, {"slug", std::string(64, 'a')}})), 422));
  EXPECT_STATUS(u.http.post("/organizations", obj({{"name", "X"}, {"slug", "a" + unique() + std::string(40, 'b')}})),
                201);  // long but within 63
  auto missing = u.http.post("/organizations", "{}");
  ASSERT_TRUE(IsProblem(missing, 422));
  auto locations = errorLocations(missing);
  EXPECT_NE(std::find(locations.begin(), locations.end(), "body.name"), locations.end()) << missing.body;
  EXPECT_NE(std::find(locations.begin(), locations.end(), "body.slug"), locations.end()) << missing.body;
  EXPECT_TRUE(IsProblem(u.http.post("/organizations", obj({{"name", std::string(121, 'n')}, {"slug", "n-" + unique()}})),
                        422));
}

TEST_F(OrganizationsApi, SlugTakenIs409) {
  auto a = registerUser("sluga");
  auto b = registerUser("slugb");
  const auto slug = "taken-" + unique();
  ASSERT_STATUS(a.http.post("/organizations", obj({{"name", "A"}, {"slug", slug}})), 201);
  EXPECT_TRUE(IsProblem(b.http.post("/organizations", obj({{"name", "B"}, {"slug", slug}})), 409));
  EXPECT_TRUE(IsProblem(a.http.post("/organizations", obj({{"name", "A2"}, {"slug", slug}})), 409));
}

TEST_F(OrganizationsApi, GetByIdForMembers) {
  auto u = registerUser("getorg");
  auto created = createOrg(u, "Readable", "readable-" + unique());
  const auto id = intField(created, "id");
  auto r = u.http.get(orgPath(id));
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  EXPECT_EQ(intField(o, "id"), id);
  EXPECT_EQ(strField(o, "name"), "Readable");
  EXPECT_EQ(strField(o, "slug"), strField(created, "slug"));
  EXPECT_FALSE(o->has("access_token"));
}

TEST_F(OrganizationsApi, GetByIdEdgeCasesAre404) {
  auto u = registerUser("org404");
  auto other = registerUser("org404other");
  for (const std::string& id : {std::to_string(other.personalOrgId), std::string("99999999"), std::string("abc"),
                                std::string("0"), std::string("-1"), std::string("1.5"), std::string("1e3")})
    EXPECT_TRUE(IsProblem(u.http.get("/organizations/" + id), 404)) << id;
  // The answer for someone else's organization is the same as for a missing one.
  auto foreign = u.http.get(orgPath(other.personalOrgId));
  auto missing = u.http.get(orgPath(99999999));
  EXPECT_EQ(strField(foreign.object(), "title"), strField(missing.object(), "title"));
  EXPECT_TRUE(IsProblem(anon().get(orgPath(u.personalOrgId)), 401));
}

TEST_F(OrganizationsApi, PatchByIdForMembers) {
  auto owner = registerUser("patchowner");
  auto member = registerUser("patchmember");
  auto created = createOrg(owner);
  const auto id = intField(created, "id");
  addMember(owner, id, member);
  auto r = owner.http.patch(orgPath(id), obj({{"name", "Renamed"}, {"description", "New text"}}));
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(strField(r.object(), "name"), "Renamed");
  EXPECT_EQ(strField(r.object(), "description"), "New text");
  // "caller must be a member": a plain member may update too.
  ASSERT_STATUS(member.http.patch(orgPath(id), obj({{"description", "By member"}})), 200);
  auto now = owner.http.get(orgPath(id));
  EXPECT_EQ(strField(now.object(), "name"), "Renamed");
  EXPECT_EQ(strField(now.object(), "description"), "By member");

  // Limits: name ≤ 120, description ≤ 500 (characters, not bytes).
  EXPECT_TRUE(IsProblem(owner.http.patch(orgPath(id), obj({{"name", std::string(121, 'n')}})), 422));
  EXPECT_TRUE(IsProblem(owner.http.patch(orgPath(id), obj({{"description", std::string(501, 'd')}})), 422));
  std::string e120;
  for (int i = 0; i < 120; ++i) e120 += "\xC3\xA9";
  EXPECT_STATUS(owner.http.patch(orgPath(id), obj({{"name", e120}})), 200);
  std::string d500(500, 'd');
  EXPECT_STATUS(owner.http.patch(orgPath(id), obj({{"description", d500}})), 200);

  // Slug changes follow the same rules.
  EXPECT_TRUE(IsProblem(owner.http.patch(orgPath(id), obj({{"slug", "Not Valid"}})), 422));
  const auto personalSlug = strField(owner.http.get(orgPath(owner.personalOrgId)).object(), "slug");
  EXPECT_TRUE(IsProblem(owner.http.patch(orgPath(id), obj({{"slug", personalSlug}})), 409));
  const auto newSlug = "moved-" + unique();
  auto moved = owner.http.patch(orgPath(id), obj({{"slug", newSlug}}));
  ASSERT_STATUS(moved, 200);
  EXPECT_EQ(strField(moved.object(), "slug"), newSlug);
}

TEST_F(OrganizationsApi, DeleteNeedsOrgAdmin) {
  auto owner = registerUser("delowner");
  auto member = registerUser("delmember");
  auto created = createOrg(owner);
  const auto id = intField(created, "id");
  addMember(owner, id, member);
  EXPECT_TRUE(IsProblem(member.http.del(orgPath(id)), 403));
  EXPECT_STATUS(owner.http.get(orgPath(id)), 200);
  auto r = owner.http.del(orgPath(id));
  ASSERT_STATUS(r, 204);
  EXPECT_TRUE(r.body.empty());
  EXPECT_TRUE(IsProblem(owner.http.get(orgPath(id)), 404));
  EXPECT_TRUE(IsProblem(member.http.get(orgPath(id)), 404));
  EXPECT_TRUE(IsProblem(owner.http.del(orgPath(id)), 404));
  // Gone from the memberships list.
  for (const auto& m : objects(owner.http.get("/users/me/organizations").array()))
    EXPECT_NE(intField(m, "organizationId"), id);
}

// GET /organizations/:id/contents counts what a deletion takes with it; the deletion
// then takes all of it.
TEST_F(OrganizationsApi, ContentsCountWhatADeletionTakes) {
  auto owner = registerUser("contowner");
  auto member = registerUser("contmember");
  auto stranger = registerUser("contstranger");
  auto created = createOrg(owner);
  const auto id = intField(created, "id");
  addMember(owner, id, member);
  auto http = orgClient(created);
  auto app = http.post("/apps", obj({{"name", "billing"}}));
  ASSERT_STATUS(app, 201);
  const auto appId = std::to_string(intField(app.object(), "id"));
  std::vector<std::int64_t> channels;
  for (const char* name : {"invoices", "refunds"}) {
    auto ch = http.post("/apps/" + appId + "/channels", obj({{"name", name}}));
    ASSERT_STATUS(ch, 201);
    channels.push_back(intField(ch.object(), "id"));
  }
  auto key = http.post("/api-keys", obj({{"name", "publisher"}, {"scopes", arr({"publish", "read"})}}));
  ASSERT_STATUS(key, 201);
  auto keyed = anon().withApiKey(strField(key.object(), "key"));
  for (int i = 0; i < 3; ++i)
    ASSERT_STATUS(
        keyed.post(
            "/event",
            obj({{"identifier", "e" + std::to_string(i)}, {"payload", obj({{"i", i}})}, {"channel_id", channels[0]}})),
        201);

  auto r = owner.http.get(orgPath(id, "/contents"));
  ASSERT_STATUS(r, 200);
  const std::map<std::string, std::int64_t> expected = {{"organizationId", id},
                                                        {"apps", 1},
                                                        {"channels", 2},
                                                        {"events", 3},
                                                        {"apiKeys", 1},
                                                        {"members", 2},
                                                        {"pendingInvitations", 0},
                                                        {"environments", 0},
                                                        {"webhookEndpoints", 0},
                                                        {"exportDestinations", 0},
                                                        {"moderationRules", 0},
                                                        {"spendPolicies", 0},
                                                        {"alertRules", 0}};
  std::map<std::string, std::int64_t> got;
  const auto counted = r.object();
  for (const auto& [name, value] : *counted) got[name] = value.convert<std::int64_t>();
  EXPECT_EQ(got, expected) << r.body;
  // Any member may read it; someone else's organization does not exist.
  EXPECT_STATUS(member.http.get(orgPath(id, "/contents")), 200);
  EXPECT_TRUE(IsProblem(stranger.http.get(orgPath(id, "/contents")), 404));
  auto theirs = stranger.http.get(orgPath(stranger.personalOrgId, "/contents"));
  ASSERT_STATUS(theirs, 200);
  EXPECT_EQ(intField(theirs.object(), "events"), 0);
  EXPECT_EQ(intField(theirs.object(), "apps"), 0);
  EXPECT_EQ(intField(theirs.object(), "members"), 1);

  // A member without the admin role may not delete it; the admin may, and it all goes.
  EXPECT_TRUE(IsProblem(member.http.del(orgPath(id)), 403));
  ASSERT_STATUS(owner.http.del(orgPath(id)), 204);
  EXPECT_TRUE(IsProblem(owner.http.get(orgPath(id, "/contents")), 404));
  EXPECT_TRUE(IsProblem(keyed.get("/event/" + std::to_string(channels[0]) + "/list"), 401));
  EXPECT_EQ(intField(owner.http.get(orgPath(owner.personalOrgId, "/contents")).object(), "members"), 1);
}

TEST_F(OrganizationsApi, PatchOrganizationSecondShape) {
  auto u = registerUser("patch2");
  auto created = createOrg(u);
  const auto id = intField(created, "id");
  auto http = orgClient(created);  // active org = the new one
  auto r = http.patch("/organization", obj({{"name", "Second Shape"}, {"description", "via /organization"}}));
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  EXPECT_EQ(strField(o, "$schema").rfind(schemaBase(), 0), 0u) << r.describe();
  EXPECT_EQ(strField(o, "orgId"), std::to_string(id));
  EXPECT_EQ(strField(o, "name"), "Second Shape");
  EXPECT_EQ(strField(o, "description"), "via /organization");
  for (const char* f : {"slug", "plan", "subscriptionStatus", "createdAt", "updatedAt"}) EXPECT_TRUE(o->has(f)) << f;
  for (const char* f : {"eventsQuotaMonthly", "retentionDays", "seatLimit"}) EXPECT_GT(intField(o, f), 0) << f;
  // The personal org was not touched.
  auto personal = u.http.get(orgPath(u.personalOrgId));
  EXPECT_NE(strField(personal.object(), "name"), "Second Shape");

  EXPECT_TRUE(IsProblem(http.patch("/organization", obj({{"name", std::string(121, 'x')}})), 422));
  EXPECT_TRUE(IsProblem(http.patch("/organization", obj({{"description", std::string(501, 'x')}})), 422));
  EXPECT_TRUE(IsProblem(http.patch("/organization", obj({{"name", 12}})), 422));
  auto after = u.http.get(orgPath(id));
  EXPECT_EQ(strField(after.object(), "name"), "Second Shape");
}

TEST_F(OrganizationsApi, TenantHeaderSelectsTheOrganization) {
  auto u = registerUser("tenant");
  auto created = createOrg(u);
  const auto id = intField(created, "id");
  // u.http acts on the personal org; x-tenant-id switches this request to the new one.
  auto r = u.http.patch("/organization", obj({{"name", "Picked By Header"}}), {{"x-tenant-id", std::to_string(id)}});
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(strField(r.object(), "orgId"), std::to_string(id));
  EXPECT_EQ(strField(u.http.get(orgPath(id)).object(), "name"), "Picked By Header");
  auto who = u.http.get("/auth/whoami", {{"x-tenant-id", std::to_string(id)}});
  EXPECT_EQ(intField(who.object(), "orgId"), id);
}

TEST_F(OrganizationsApi, TenantHeaderOfANonMemberOrgIs403) {
  auto u = registerUser("tenant403");
  auto other = registerUser("tenant403other");
  const Headers foreign = {{"x-tenant-id", std::to_string(other.personalOrgId)}};
  EXPECT_TRUE(IsProblem(u.http.get("/auth/whoami", foreign), 403));
  EXPECT_TRUE(IsProblem(u.http.patch("/organization", obj({{"name", "Hijacked"}}), foreign), 403));
  EXPECT_TRUE(IsProblem(u.http.get("/users", foreign), 403));
  EXPECT_NE(strField(other.http.get(orgPath(other.personalOrgId)).object(), "name"), "Hijacked");
}

TEST_F(OrganizationsApi, MembersList) {
  auto owner = registerUser("mlowner");
  auto member = registerUser("mlmember");
  addMember(owner, owner.personalOrgId, member);
  auto r = owner.http.get(orgPath(owner.personalOrgId, "/members"));
  ASSERT_STATUS(r, 200);
  auto list = objects(listOf(r, {"data", "members", "items"}));
  ASSERT_EQ(list.size(), 2u) << r.describe();
  for (const auto& m : list) {
    const auto uid = intField(m, "userId");
    EXPECT_TRUE(uid == owner.id || uid == member.id);
    EXPECT_EQ(strField(m, "email"), uid == owner.id ? owner.email : member.email);
    EXPECT_EQ(strField(m, "username"), uid == owner.id ? owner.username : member.username);
    EXPECT_EQ(strField(m, "role"), uid == owner.id ? "admin" : "user");
    EXPECT_FALSE(strField(m, "joinedAt").empty());
  }
  // Members (not only admins) may list.
  EXPECT_STATUS(member.http.get(orgPath(owner.personalOrgId, "/members")), 200);
}

TEST_F(OrganizationsApi, ChangeMemberRole) {
  auto owner = registerUser("roleowner");
  auto member = registerUser("rolemember");
  addMember(owner, owner.personalOrgId, member);
  const auto path = orgPath(owner.personalOrgId, "/members/" + std::to_string(member.id));
  // A plain member cannot promote itself.
  EXPECT_TRUE(IsProblem(member.http.patch(path, obj({{"role", "admin"}})), 403));
  EXPECT_EQ(membersOf(owner, owner.personalOrgId)[member.id], "user");

  auto r = owner.http.patch(path, obj({{"role", "admin"}}));
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(r.object()->getValue<bool>("ok"), true);
  EXPECT_EQ(strField(r.object(), "$schema").rfind(schemaBase(), 0), 0u) << r.describe();
  EXPECT_EQ(membersOf(owner, owner.personalOrgId)[member.id], "admin");
  // The new role applies at once, with the token the member already holds.
  EXPECT_STATUS(member.http.get("/users", {{"x-tenant-id", std::to_string(owner.personalOrgId)}}), 200);

  ASSERT_STATUS(owner.http.patch(path, obj({{"role", "user"}})), 200);
  EXPECT_EQ(membersOf(owner, owner.personalOrgId)[member.id], "user");
  EXPECT_TRUE(IsProblem(member.http.get("/users", {{"x-tenant-id", std::to_string(owner.personalOrgId)}}), 403));

  EXPECT_TRUE(IsProblem(owner.http.patch(path, obj({{"role", "owner"}})), 422));
  EXPECT_TRUE(IsProblem(owner.http.patch(path, "{}"), 422));
  EXPECT_TRUE(IsProblem(owner.http.patch(orgPath(owner.personalOrgId, "/members/99999999"), obj({{"role", "user"}})), 404));
  EXPECT_TRUE(IsProblem(owner.http.patch(orgPath(owner.personalOrgId, "/members/abc"), obj({{"role", "user"}})), 404));
}

TEST_F(OrganizationsApi, RemovedMemberIsRefusedAtOnce) {
  auto owner = registerUser("rmowner");
  auto member = registerUser("rmmember");
  addMember(owner, owner.personalOrgId, member);
  const auto orgId = owner.personalOrgId;
  // The member makes the organization its active one: its token now names it.
  auto sw = member.http.patch("/users/me/active-org", obj({{"organizationId", orgId}}));
  ASSERT_STATUS(sw, 200);
  auto active = anon().withBearer(strField(sw.object(), "access_token"));
  ASSERT_STATUS(active.get(orgPath(orgId)), 200);
  ASSERT_STATUS(member.http.get("/auth/whoami", {{"x-tenant-id", std::to_string(orgId)}}), 200);

  auto r = owner.http.del(orgPath(orgId, "/members/" + std::to_string(member.id)));
  ASSERT_STATUS(r, 204);
  EXPECT_EQ(membersOf(owner, orgId).count(member.id), 0u);

  // Same, still unexpired tokens: refused for that organization immediately.
  EXPECT_TRUE(IsProblem(member.http.get("/auth/whoami", {{"x-tenant-id", std::to_string(orgId)}}), 403));
  EXPECT_TRUE(IsProblem(active.get(orgPath(orgId)), 404));
  auto implicit = active.patch("/organization", obj({{"name", "After Removal"}}));
  EXPECT_TRUE(implicit.status == 403 || implicit.status == 401) << implicit.describe();
  EXPECT_NE(strField(owner.http.get(orgPath(orgId)).object(), "name"), "After Removal");
  // Its own organization still works.
  EXPECT_STATUS(member.http.get(orgPath(member.personalOrgId)), 200);
  // Removing again: not a member any more.
  EXPECT_TRUE(IsProblem(owner.http.del(orgPath(orgId, "/members/" + std::to_string(member.id))), 404));
}

TEST_F(OrganizationsApi, PlainMemberCannotRemoveOthers) {
  auto owner = registerUser("prowner");
  auto a = registerUser("pra");
  auto b = registerUser("prb");
  addMember(owner, owner.personalOrgId, a);
  addMember(owner, owner.personalOrgId, b);
  EXPECT_TRUE(IsProblem(a.http.del(orgPath(owner.personalOrgId, "/members/" + std::to_string(b.id))), 403));
  EXPECT_TRUE(IsProblem(a.http.del(orgPath(owner.personalOrgId, "/members/" + std::to_string(owner.id))), 403));
  auto members = membersOf(owner, owner.personalOrgId);
  EXPECT_EQ(members.size(), 3u);
}

TEST_F(OrganizationsApi, InvitationLifecycle) {
  auto owner = registerUser("invowner");
  auto invitee = registerUser("invitee");
  const auto orgId = owner.personalOrgId;
  auto r = owner.http.post(orgPath(orgId, "/invitations"), obj({{"invitedEmail", invitee.email}, {"desired_role", "user"}}));
  ASSERT_STATUS(r, 201);
  auto inv = r.object();
  EXPECT_GT(intField(inv, "id"), 0);
  const auto code = strField(inv, "code");
  EXPECT_GE(code.size(), 16u) << "invitation codes must not be guessable";
  EXPECT_EQ(strField(inv, "invitedEmail"), invitee.email);
  EXPECT_EQ(strField(inv, "invite_role"), "user");
  EXPECT_EQ(strField(inv, "status"), "pending");

  auto list = owner.http.get(orgPath(orgId, "/invitations"));
  ASSERT_STATUS(list, 200);
  bool found = false;
  for (const auto& item : objects(listOf(list, {"data", "invitations", "items"})))
    if (intField(item, "id") == intField(inv, "id")) {
      found = true;
      EXPECT_EQ(strField(item, "status"), "pending");
      EXPECT_EQ(strField(item, "invitedEmail"), invitee.email);
    }
  EXPECT_TRUE(found) << list.describe();
  EXPECT_EQ(list.body.find(code), std::string::npos) << "the full code is shown in the list";

  // Someone else cannot use the code.
  auto stranger = registerUser("stranger");
  EXPECT_TRUE(IsProblem(stranger.http.post("/invitations/" + code + "/accept", "{}"), 403));
  EXPECT_TRUE(IsProblem(anon().post("/invitations/" + code + "/accept", "{}"), 401));

  auto accept = invitee.http.post("/invitations/" + code + "/accept", "{}");
  ASSERT_TRUE(accept.status == 200 || accept.status == 201) << accept.describe();
  bool member = false;
  for (const auto& m : objects(invitee.http.get("/users/me/organizations").array()))
    if (intField(m, "organizationId") == orgId) {
      member = true;
      EXPECT_EQ(strField(m, "role"), "user");
    }
  EXPECT_TRUE(member);
  EXPECT_EQ(membersOf(owner, orgId)[invitee.id], "user");
  // A used code does not work twice.
  auto again = invitee.http.post("/invitations/" + code + "/accept", "{}");
  EXPECT_TRUE(again.status == 404 || again.status == 409) << again.describe();
  EXPECT_TRUE(IsProblem(invitee.http.post("/invitations/no-such-code-" + unique() + "/accept", "{}"), 404));
}

TEST_F(OrganizationsApi, InvitationAsAdminGrantsAdmin) {
  auto owner = registerUser("invadminowner");
  auto invitee = registerUser("invadmin");
  addMember(owner, owner.personalOrgId, invitee, "admin");
  EXPECT_EQ(membersOf(owner, owner.personalOrgId)[invitee.id], "admin");
}

TEST_F(OrganizationsApi, InvitationEmailMatchIgnoresCase) {
  auto owner = registerUser("invcaseowner");
  auto invitee = registerUser("invcase");
  std::string upper = invitee.email;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto r = owner.http.post(orgPath(owner.personalOrgId, "/invitations"),
                           obj({{"invitedEmail", upper}, {"desired_role", "user"}}));
  ASSERT_STATUS(r, 201);
  auto accept = invitee.http.post("/invitations/" + strField(r.object(), "code") + "/accept", "{}");
  EXPECT_TRUE(accept.status == 200 || accept.status == 201) << accept.describe();
}

TEST_F(OrganizationsApi, InvitationValidationAndRoles) {
  auto owner = registerUser("invvalowner");
  auto member = registerUser("invvalmember");
  addMember(owner, owner.personalOrgId, member);
  const auto path = orgPath(owner.personalOrgId, "/invitations");
  EXPECT_TRUE(IsProblem(owner.http.post(path, obj({{"invitedEmail", "not-an-email"}, {"desired_role", "user"}})), 422));
  EXPECT_TRUE(IsProblem(owner.http.post(path, obj({{"invitedEmail", "x-" + unique() + "@example.test"}, {"desired_role", "god"}})), 422));
  EXPECT_TRUE(IsProblem(owner.http.post(path, "{}"), 422));
  // Inviting needs the admin role in that organization.
  EXPECT_TRUE(IsProblem(member.http.post(path, obj({{"invitedEmail", "y-" + unique() + "@example.test"}, {"desired_role", "user"}})), 403));
}

TEST_F(OrganizationsApi, AnotherOrganizationIs404AndNothingChanges) {
  auto alice = registerUser("isoalice");
  auto bob = registerUser("isobob");
  auto helper = registerUser("isohelper");
  auto created = createOrg(alice, "Alice Corp", "alice-corp-" + unique());
  const auto orgId = intField(created, "id");
  addMember(alice, orgId, helper);
  auto pending = alice.http.post(orgPath(orgId, "/invitations"),
                                 obj({{"invitedEmail", "pending-" + unique() + "@example.test"}, {"desired_role", "user"}}));
  ASSERT_STATUS(pending, 201);

  auto invitationsBefore = alice.http.get(orgPath(orgId, "/invitations"));
  ASSERT_STATUS(invitationsBefore, 200);

  const auto memberPath = orgPath(orgId, "/members/" + std::to_string(helper.id));
  EXPECT_TRUE(IsProblem(bob.http.get(orgPath(orgId)), 404));
  EXPECT_TRUE(IsProblem(bob.http.patch(orgPath(orgId), obj({{"name", "Bob Corp"}})), 404));
  EXPECT_TRUE(IsProblem(bob.http.del(orgPath(orgId)), 404));
  EXPECT_TRUE(IsProblem(bob.http.get(orgPath(orgId, "/members")), 404));
  EXPECT_TRUE(IsProblem(bob.http.patch(memberPath, obj({{"role", "admin"}})), 404));
  EXPECT_TRUE(IsProblem(bob.http.del(memberPath), 404));
  EXPECT_TRUE(IsProblem(bob.http.get(orgPath(orgId, "/invitations")), 404));
  EXPECT_TRUE(IsProblem(bob.http.post(orgPath(orgId, "/invitations"), obj({{"invitedEmail", bob.email}, {"desired_role", "admin"}})), 404));

  // Nothing changed, as seen by the owner.
  auto org = alice.http.get(orgPath(orgId));
  ASSERT_STATUS(org, 200);
  EXPECT_EQ(strField(org.object(), "name"), "Alice Corp");
  auto members = membersOf(alice, orgId);
  EXPECT_EQ(members.size(), 2u);
  EXPECT_EQ(members[helper.id], "user");
  EXPECT_EQ(members.count(bob.id), 0u);
  auto invitations = alice.http.get(orgPath(orgId, "/invitations"));
  ASSERT_STATUS(invitations, 200);
  EXPECT_EQ(objects(listOf(invitations, {"data", "invitations", "items"})).size(),
            objects(listOf(invitationsBefore, {"data", "invitations", "items"})).size())
      << invitations.describe();
  EXPECT_EQ(invitations.body.find(bob.email), std::string::npos) << invitations.describe();
}

// Seat limit from configuration: members plus pending invitations.
class SeatLimitApi : public ApiTest {
 public:
  static void SetUpTestSuite() { startDaemon(options({{"plans.free.seat_limit", "3"}})); }
};

TEST_F(SeatLimitApi, InvitationsPastTheSeatLimitAre409) {
  auto owner = registerUser("seatowner");
  auto a = registerUser("seata");
  const auto orgId = owner.personalOrgId;
  auto org = owner.http.get(orgPath(orgId));
  ASSERT_STATUS(org, 200);
  EXPECT_EQ(intField(org.object(), "seatLimit"), 3);
  const auto path = orgPath(orgId, "/invitations");

  addMember(owner, orgId, a);  // seats: owner + a = 2
  auto pending = owner.http.post(path, obj({{"invitedEmail", "p-" + unique() + "@example.test"}, {"desired_role", "user"}}));
  ASSERT_STATUS(pending, 201);  // 3: the pending invitation holds a seat
  auto usage = owner.http.get(orgPath(orgId)).object()->getObject("usage");
  ASSERT_TRUE(usage);
  EXPECT_EQ(intField(usage, "members"), 2);
  EXPECT_EQ(intField(usage, "pendingInvitations"), 1);
  EXPECT_EQ(intField(usage, "events"), 0);
  auto over = owner.http.post(path, obj({{"invitedEmail", "q-" + unique() + "@example.test"}, {"desired_role", "user"}}));
  EXPECT_TRUE(IsProblem(over, 409));

  // Freeing a seat makes room again.
  ASSERT_STATUS(owner.http.del(orgPath(orgId, "/members/" + std::to_string(a.id))), 204);
  EXPECT_STATUS(owner.http.post(path, obj({{"invitedEmail", "r-" + unique() + "@example.test"}, {"desired_role", "user"}})),
                201);
}

}  // namespace
}  // namespace aev::testing

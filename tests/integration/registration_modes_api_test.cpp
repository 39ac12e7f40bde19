// auth.registration = approval | closed (docs/api.md#authentication), and the access-request admin API.
#include <gtest/gtest.h>

#include "support/api_fixture.h"

namespace aev::testing {
namespace {

class ApprovalApi : public ApiTest {
 public:
  static void SetUpTestSuite() { startDaemon(options({{"auth.registration", "approval"}})); }

 protected:
  struct Pending {
    std::int64_t id;
    std::string email, username, password;
  };
  Pending registerPending(const std::string& tag) {
    const auto id = unique();
    Pending p{0, tag + "-" + id + "@example.test", tag + "_" + id, "pw-" + id + "-long"};
    auto r = registerRaw(p.email, p.username, p.password);
    EXPECT_STATUS(r, 201);
    if (r.status == 201) {
      p.id = intField(r.object(), "id");
      EXPECT_TRUE(hasNonNull(r.object(), "disabledAt")) << "a user awaiting approval is disabled: " << r.describe();
    }
    return p;
  }
  // The access request of a user, from GET /admin/access-requests.
  Poco::JSON::Object::Ptr requestOf(std::int64_t userId) {
    auto r = admin().http.get("/admin/access-requests");
    EXPECT_STATUS(r, 200);
    if (r.status != 200) return nullptr;
    auto o = r.object();
    EXPECT_EQ(strField(o, "$schema").rfind(schemaBase(), 0), 0u) << r.describe();
    for (const auto& item : objects(o->getArray("data"))) {
      auto uid = item->get("userId");
      if (uid.convert<std::string>() == std::to_string(userId)) return item;
    }
    ADD_FAILURE() << "no access request for user " << userId << " in " << r.describe();
    return nullptr;
  }
  std::string requestIdOf(const Poco::JSON::Object::Ptr& item) { return item->get("requestId").convert<std::string>(); }
};

TEST_F(ApprovalApi, FirstUserIsActiveAdmin) {
  EXPECT_STATUS(admin().http.get("/users/me"), 200);
  EXPECT_STATUS(admin().http.get("/admin/access-requests"), 200);
}

TEST_F(ApprovalApi, NewUserWaitsForApprovalThenLogsIn) {
  auto p = registerPending("approve");
  ASSERT_GT(p.id, 0);
  // Disabled until approved: the right password gets 403, not 401.
  EXPECT_TRUE(IsProblem(loginRaw(p.email, p.password), 403));
  // ...and a wrong password still 401 (a disabled account is not an oracle for passwords).
  EXPECT_TRUE(IsProblem(loginRaw(p.email, p.password + "x"), 401));

  auto item = requestOf(p.id);
  ASSERT_TRUE(item);
  EXPECT_EQ(strField(item, "email"), p.email);
  EXPECT_EQ(strField(item, "status"), "pending");
  EXPECT_FALSE(strField(item, "createdAt").empty());
  const auto requestId = requestIdOf(item);

  // The admin search shows the user as disabled.
  auto search = admin().http.get("/admin/users?q=" + p.username);
  ASSERT_STATUS(search, 200);
  auto users = objects(search.object()->getArray("users"));
  ASSERT_EQ(users.size(), 1u) << search.describe();
  EXPECT_TRUE(hasNonNull(users[0], "disabledAt")) << search.describe();

  auto approve = admin().http.post("/admin/access-requests/" + requestId + "/status", obj({{"status", "approved"}}));
  ASSERT_STATUS(approve, 200);
  EXPECT_EQ(approve.object()->getValue<bool>("ok"), true);
  EXPECT_EQ(strField(approve.object(), "$schema").rfind(schemaBase(), 0), 0u);

  auto login = loginRaw(p.username, p.password);
  ASSERT_STATUS(login, 200);
  auto me = anon().withBearer(strField(login.object(), "access_token")).get("/users/me");
  ASSERT_STATUS(me, 200);
  EXPECT_FALSE(hasNonNull(me.object(), "disabledAt")) << me.describe();

  auto after = requestOf(p.id);
  ASSERT_TRUE(after);
  EXPECT_EQ(strField(after, "status"), "approved");
}

TEST_F(ApprovalApi, RejectedUserStaysDisabled) {
  auto p = registerPending("reject");
  auto item = requestOf(p.id);
  ASSERT_TRUE(item);
  auto reject =
      admin().http.post("/admin/access-requests/" + requestIdOf(item) + "/status", obj({{"status", "rejected"}}));
  ASSERT_STATUS(reject, 200);
  EXPECT_EQ(reject.object()->getValue<bool>("ok"), true);
  EXPECT_TRUE(IsProblem(loginRaw(p.email, p.password), 403));
  auto after = requestOf(p.id);
  ASSERT_TRUE(after);
  EXPECT_EQ(strField(after, "status"), "rejected");
}

TEST_F(ApprovalApi, StatusValidationAndUnknownRequests) {
  auto p = registerPending("badstatus");
  auto item = requestOf(p.id);
  ASSERT_TRUE(item);
  const auto path = "/admin/access-requests/" + requestIdOf(item) + "/status";
  EXPECT_TRUE(IsProblem(admin().http.post(path, obj({{"status", "maybe"}})), 422));
  EXPECT_TRUE(IsProblem(admin().http.post(path, "{}"), 422));
  EXPECT_TRUE(IsProblem(admin().http.post("/admin/access-requests/999999/status", obj({{"status", "approved"}})), 404));
  EXPECT_TRUE(IsProblem(admin().http.post("/admin/access-requests/abc/status", obj({{"status", "approved"}})), 404));
  // Still pending after all that.
  auto again = requestOf(p.id);
  ASSERT_TRUE(again);
  EXPECT_EQ(strField(again, "status"), "pending");
}

TEST_F(ApprovalApi, OnlyTheInstanceAdminDecides) {
  auto p = registerPending("approved-user");
  auto item = requestOf(p.id);
  ASSERT_TRUE(item);
  ASSERT_STATUS(
      admin().http.post("/admin/access-requests/" + requestIdOf(item) + "/status", obj({{"status", "approved"}})), 200);
  auto tokens = login(p.email, p.password);
  auto user = anon().withBearer(tokens.accessToken);

  auto q = registerPending("victim");
  auto qItem = requestOf(q.id);
  ASSERT_TRUE(qItem);
  EXPECT_TRUE(IsProblem(user.get("/admin/access-requests"), 403));
  EXPECT_TRUE(IsProblem(
      user.post("/admin/access-requests/" + requestIdOf(qItem) + "/status", obj({{"status", "approved"}})), 403));
  EXPECT_TRUE(IsProblem(anon().get("/admin/access-requests"), 401));
  EXPECT_TRUE(IsProblem(loginRaw(q.email, q.password), 403));
}

class ClosedRegistrationApi : public ApiTest {
 public:
  static void SetUpTestSuite() { startDaemon(options({{"auth.registration", "closed"}})); }
};

TEST_F(ClosedRegistrationApi, OnlyTheFirstUserMayRegister) {
  // The fixture registered the first user (the instance admin) successfully.
  EXPECT_STATUS(admin().http.get("/admin/users"), 200);
  const auto id = unique();
  auto r = registerRaw("closed-" + id + "@example.test", "closed_" + id, "long-enough-pw");
  EXPECT_TRUE(IsProblem(r, 403));
  EXPECT_TRUE(IsProblem(loginRaw("closed-" + id + "@example.test", "long-enough-pw"), 401));
}

TEST_F(ClosedRegistrationApi, InvitedUsersStillNeedAnAccount) {
  // Closed registration does not stop the admin from inviting; it only stops sign-up.
  auto inv = admin().http.post("/organizations/" + std::to_string(admin().personalOrgId) + "/invitations",
                               obj({{"invitedEmail", "invitee-" + unique() + "@example.test"}, {"desired_role", "user"}}));
  EXPECT_STATUS(inv, 201);
}

}  // namespace
}  // namespace aev::testing

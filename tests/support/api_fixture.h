#pragma once
// GoogleTest fixture for black-box API suites: one daemon per test suite (started in
// SetUpTestSuite, stopped in TearDownTestSuite with exit status 0 asserted), helpers to
// register users and log in, and an RFC 9457 problem checker (docs/api.md#errors).
//
//   class OrgsApi : public aev::testing::ApiTest {};          // default daemon
//   class ApprovalApi : public aev::testing::ApiTest {
//    public:
//     static void SetUpTestSuite() { startDaemon(options({{"auth.registration", "approval"}})); }
//   };
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "support/daemon_process.h"
#include "support/http_client.h"

namespace aev::testing {

struct TestUser {
  std::int64_t id = 0;
  std::string email;
  std::string username;
  std::string password;
  std::int64_t personalOrgId = 0;  // organizationId of the registration response
  std::string accessToken;
  std::string refreshToken;
  HttpClient http;                       // authenticated with accessToken
  Poco::JSON::Object::Ptr registration;  // the 201 body
};

struct TokenPair {
  std::string accessToken;
  std::string refreshToken;
};

class ApiTest : public ::testing::Test {
 public:
  static void SetUpTestSuite() { startDaemon(); }
  static void TearDownTestSuite() { stopDaemon(); }

 protected:
  void SetUp() override;
  void TearDown() override;

  // Starts this suite's daemon and registers its instance admin (the first user).
  // Failures are recorded and make every test of the suite fail in SetUp.
  static void startDaemon(DaemonOptions options = {});
  static void stopDaemon();
  static DaemonOptions options(std::map<std::string, std::string> set);
  static DaemonProcess& daemon();
  static bool daemonUp() { return daemon_ != nullptr; }
  static HttpClient anon();
  static TestUser& admin();  // the instance admin of this suite's daemon

  // A unique token for names: "<pid>x<counter><random>".
  static std::string unique();
  // Registers a user with unique e-mail/username and logs in. Throws
  // std::runtime_error (quoting the response) when either step does not succeed.
  static TestUser registerUser(const std::string& tag = "user");
  // Registers without logging in; returns the raw response.
  static HttpResult registerRaw(const std::string& email, const std::string& username, const std::string& password,
                                const std::string& firstName = "", const std::string& lastName = "");
  static TokenPair login(const std::string& login, const std::string& password);
  static HttpResult loginRaw(const std::string& login, const std::string& password);

  // Creates an organization as `user` (POST /organizations) and returns the body. The
  // body's tokens act on the new organization.
  static Poco::JSON::Object::Ptr createOrg(const TestUser& user, const std::string& name = "",
                                           const std::string& slug = "");

  // Makes `member` a member of organization `orgId` (owned by `orgAdmin`) through an
  // invitation and its acceptance, with the given role.
  static void addMember(const TestUser& orgAdmin, std::int64_t orgId, const TestUser& member,
                        const std::string& role = "user");

  static std::string schemaBase() { return daemon().baseUrl() + "/schemas/"; }

  // A test that provokes 5xx answers on purpose (a fault it injects) says how many
  // (between min and max when the number depends on timing); by default no request of a
  // test may end in a 5xx.
  void expectServerErrors(int min, int max = -1) {
    minServerErrors_ = min;
    maxServerErrors_ = max < 0 ? min : max;
  }

 private:
  std::size_t logOffset_ = 0;  // daemon log size when the test started
  int minServerErrors_ = 0;
  int maxServerErrors_ = 0;
  static std::unique_ptr<DaemonProcess> daemon_;
  static std::unique_ptr<TestUser> admin_;
  static std::string startError_;
};

// Checks an RFC 9457 problem response with the given status: content type, `type` under
// https://agent-events.dev/problems/, `title`, `status`, `detail`, `instance` (= the
// request path), `errors[]` for 422, WWW-Authenticate for 401, Retry-After for 429.
// Returns the body (an empty object when it is not JSON).
::testing::AssertionResult IsProblem(const HttpResult& r, int status);
// The `location`s of a 422's errors[].
std::vector<std::string> errorLocations(const HttpResult& r);

// Field access that fails readably.
std::int64_t intField(const Poco::JSON::Object::Ptr& o, const std::string& key);
std::string strField(const Poco::JSON::Object::Ptr& o, const std::string& key);
bool hasNonNull(const Poco::JSON::Object::Ptr& o, const std::string& key);
std::vector<Poco::JSON::Object::Ptr> objects(const Poco::JSON::Array::Ptr& a);
// An array that is either the body itself or the first array-valued field among
// `keys` ("data", "members", ...).
Poco::JSON::Array::Ptr listOf(const HttpResult& r, std::initializer_list<const char*> keys = {"data", "items"});

}  // namespace aev::testing

// ASSERT that an HTTP result has an expected status, printing the response otherwise.
#define ASSERT_STATUS(result, expected)                        \
  do {                                                         \
    const auto& aev_r_ = (result);                             \
    ASSERT_EQ(aev_r_.status, (expected)) << aev_r_.describe(); \
  } while (0)
#define EXPECT_STATUS(result, expected)                        \
  do {                                                         \
    const auto& aev_r_ = (result);                             \
    EXPECT_EQ(aev_r_.status, (expected)) << aev_r_.describe(); \
  } while (0)

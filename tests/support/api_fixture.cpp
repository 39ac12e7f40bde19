#include "support/api_fixture.h"

#include <unistd.h>

#include <atomic>
#include <iostream>
#include <random>
#include <regex>
#include <sstream>

namespace aev::testing {

std::unique_ptr<DaemonProcess> ApiTest::daemon_;
std::unique_ptr<TestUser> ApiTest::admin_;
std::string ApiTest::startError_;

namespace {
std::string describeProblemFailure(const HttpResult& r, const std::string& what) {
  return what + "\n  response: " + r.describe() + "\n  content-type: " + r.contentType();
}
}  // namespace

// ---------------------------------------------------------------- suite lifecycle

DaemonOptions ApiTest::options(std::map<std::string, std::string> set) {
  DaemonOptions o;
  o.set = std::move(set);
  return o;
}

void ApiTest::startDaemon(DaemonOptions options) {
  daemon_.reset();
  admin_.reset();
  startError_.clear();
  try {
    auto d = std::make_unique<DaemonProcess>(std::move(options));
    d->start();
    daemon_ = std::move(d);
  } catch (const std::exception& e) {
    startError_ = std::string("daemon did not start: ") + e.what();
    ADD_FAILURE() << startError_;
    return;
  }
  try {
    admin_ = std::make_unique<TestUser>(registerUser("admin"));
  } catch (const std::exception& e) {
    startError_ = std::string("registering the instance admin failed: ") + e.what() + "\n--- daemon log ---\n" +
                  daemon_->logTail(40);
    ADD_FAILURE() << startError_;
  }
}

void ApiTest::stopDaemon() {
  admin_.reset();
  if (!daemon_) return;
  if (daemon_->running()) {
    auto status = daemon_->stop();
    if (!status.exited || status.code != 0)
      ADD_FAILURE() << "agent-eventsd did not exit cleanly on SIGTERM: " << status.describe() << "\n--- log tail ---\n"
                    << daemon_->logTail(40);
  } else {
    ADD_FAILURE() << "agent-eventsd was no longer running at the end of the suite\n--- log tail ---\n"
                  << daemon_->logTail(40);
  }
  daemon_.reset();
}

void ApiTest::SetUp() {
  if (!daemon_) GTEST_FAIL() << (startError_.empty() ? "no daemon" : startError_);
  if (!admin_) GTEST_FAIL() << startError_;
  if (!daemon_->running()) GTEST_FAIL() << "agent-eventsd is not running\n" << daemon_->logTail(40);
  logOffset_ = daemon_->log().size();
}

void ApiTest::TearDown() {
  // No request of this test may have ended in a 5xx (the access log names each status),
  // but for the ones it said it provokes.
  if (daemon_) {
    const auto log = daemon_->log();
    if (logOffset_ <= log.size()) {
      static const std::regex serverError(R"(status=5\d\d)");
      std::istringstream lines(log.substr(logOffset_));
      std::string line, seen;
      int count = 0;
      while (std::getline(lines, line))
        if (std::regex_search(line, serverError)) {
          ++count;
          seen += line + "\n";
        }
      if (count < minServerErrors_ || count > maxServerErrors_)
        ADD_FAILURE() << "the daemon answered " << count << " 5xx (expected " << minServerErrors_
                      << (maxServerErrors_ != minServerErrors_ ? " to " + std::to_string(maxServerErrors_) : "")
                      << "):\n"
                      << seen;
    }
  }
  if (HasFailure() && daemon_) {
    std::cerr << "--- agent-eventsd log tail (" << daemon_->logPath() << ") ---\n"
              << daemon_->logTail(25) << "---" << std::endl;
  }
}

DaemonProcess& ApiTest::daemon() {
  if (!daemon_) throw std::runtime_error("no daemon for this suite: " + startError_);
  return *daemon_;
}

HttpClient ApiTest::anon() { return daemon().client(); }

TestUser& ApiTest::admin() {
  if (!admin_) throw std::runtime_error("no instance admin for this suite: " + startError_);
  return *admin_;
}

// ---------------------------------------------------------------- users

std::string ApiTest::unique() {
  static std::atomic<int> counter{0};
  static const std::string seed = [] {
    std::random_device rd;
    static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::string s;
    for (int i = 0; i < 4; ++i) s += kChars[rd() % 36];
    return s;
  }();
  return std::to_string(::getpid()) + "x" + std::to_string(++counter) + seed;
}

HttpResult ApiTest::registerRaw(const std::string& email, const std::string& username, const std::string& password,
                                const std::string& firstName, const std::string& lastName) {
  auto body = obj({{"email", email}, {"username", username}, {"password", password}});
  if (!firstName.empty()) body->set("first_name", firstName);
  if (!lastName.empty()) body->set("last_name", lastName);
  return anon().post("/auth/register", body);
}

HttpResult ApiTest::loginRaw(const std::string& login, const std::string& password) {
  return anon().post("/auth/login", obj({{"login", login}, {"password", password}}));
}

TokenPair ApiTest::login(const std::string& loginName, const std::string& password) {
  auto r = loginRaw(loginName, password);
  if (r.status != 200) throw std::runtime_error("login failed: " + r.describe());
  auto o = r.object();
  return {o->getValue<std::string>("access_token"), o->getValue<std::string>("refresh_token")};
}

TestUser ApiTest::registerUser(const std::string& tag) {
  TestUser u;
  const auto id = unique();
  u.email = tag + "-" + id + "@example.test";
  u.username = tag + "_" + id;
  u.password = "pw-" + id + "-Secret!";
  auto r = registerRaw(u.email, u.username, u.password, "First" + id, "Last");
  if (r.status != 201) throw std::runtime_error("register failed: " + r.describe());
  u.registration = r.object();
  u.id = u.registration->getValue<Poco::Int64>("id");
  if (u.registration->has("organizationId") && !u.registration->isNull("organizationId"))
    u.personalOrgId = u.registration->getValue<Poco::Int64>("organizationId");
  auto tokens = login(u.username, u.password);
  u.accessToken = tokens.accessToken;
  u.refreshToken = tokens.refreshToken;
  u.http = daemon().client().withBearer(u.accessToken);
  return u;
}

Poco::JSON::Object::Ptr ApiTest::createOrg(const TestUser& user, const std::string& name, const std::string& slug) {
  const auto id = unique();
  auto body = obj({{"name", name.empty() ? "Org " + id : name}, {"slug", slug.empty() ? "org-" + id : slug}});
  auto r = user.http.post("/organizations", body);
  if (r.status != 201) throw std::runtime_error("create organization failed: " + r.describe());
  return r.object();
}

void ApiTest::addMember(const TestUser& orgAdmin, std::int64_t orgId, const TestUser& member, const std::string& role) {
  auto inv = orgAdmin.http.post("/organizations/" + std::to_string(orgId) + "/invitations",
                                obj({{"invitedEmail", member.email}, {"desired_role", role}}));
  if (inv.status != 201) throw std::runtime_error("invite failed: " + inv.describe());
  auto code = inv.object()->getValue<std::string>("code");
  auto acc = member.http.post("/invitations/" + code + "/accept", "{}");
  if (acc.status != 200 && acc.status != 201) throw std::runtime_error("accept failed: " + acc.describe());
}

// ---------------------------------------------------------------- assertions

::testing::AssertionResult IsProblem(const HttpResult& r, int status) {
  if (r.status != status)
    return ::testing::AssertionFailure() << describeProblemFailure(r, "expected status " + std::to_string(status));
  const auto type = r.contentType();
  if (type.rfind("application/problem+json", 0) != 0)
    return ::testing::AssertionFailure() << describeProblemFailure(r, "content type is not application/problem+json");
  if (!r.hasHeader("X-Request-Id"))
    return ::testing::AssertionFailure() << describeProblemFailure(r, "no X-Request-Id header");
  Poco::JSON::Object::Ptr o;
  try {
    o = r.object();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << describeProblemFailure(r, "body is not a JSON object");
  }
  auto str = [&](const char* k) { return o->has(k) && o->get(k).isString() ? o->getValue<std::string>(k) : "\x01"; };
  if (str("type").rfind("https://agent-events.dev/problems/", 0) != 0)
    return ::testing::AssertionFailure() << describeProblemFailure(r,
                                                                   "type is not https://agent-events.dev/problems/...");
  if (str("title") == "\x01" || str("title").empty())
    return ::testing::AssertionFailure() << describeProblemFailure(r, "no title");
  if (!o->has("status") || !o->get("status").isInteger() || o->getValue<int>("status") != status)
    return ::testing::AssertionFailure() << describeProblemFailure(r, "status field differs from the HTTP status");
  if (str("detail") == "\x01") return ::testing::AssertionFailure() << describeProblemFailure(r, "no detail");
  const std::string path = r.path.substr(0, r.path.find('?'));
  if (str("instance") != path)
    return ::testing::AssertionFailure() << describeProblemFailure(r, "instance is not the request path " + path);
  if (status == 422) {
    auto errors = o->getArray("errors");
    if (!errors || errors->size() == 0)
      return ::testing::AssertionFailure() << describeProblemFailure(r, "a 422 without errors[]");
    for (std::size_t i = 0; i < errors->size(); ++i) {
      auto e = errors->getObject(i);
      if (!e || !e->has("location") || !e->has("message") || !e->has("value"))
        return ::testing::AssertionFailure()
               << describeProblemFailure(r, "errors[] item without location/message/value");
    }
  }
  if (status == 401 && r.header("WWW-Authenticate").empty())
    return ::testing::AssertionFailure() << describeProblemFailure(r, "a 401 without WWW-Authenticate");
  if (status == 429 && r.header("Retry-After").empty())
    return ::testing::AssertionFailure() << describeProblemFailure(r, "a 429 without Retry-After");
  if (r.body.find("SQL") != std::string::npos || r.body.find("sqlite") != std::string::npos ||
      r.body.find("Poco::") != std::string::npos || r.body.find("constraint failed") != std::string::npos ||
      r.body.find("duplicate key") != std::string::npos)
    return ::testing::AssertionFailure() << describeProblemFailure(r, "problem leaks internals");
  return ::testing::AssertionSuccess();
}

std::vector<std::string> errorLocations(const HttpResult& r) {
  std::vector<std::string> out;
  try {
    auto errors = r.object()->getArray("errors");
    if (!errors) return out;
    for (std::size_t i = 0; i < errors->size(); ++i) {
      auto e = errors->getObject(i);
      if (e && e->has("location")) out.push_back(e->getValue<std::string>("location"));
    }
  } catch (...) {
  }
  return out;
}

std::int64_t intField(const Poco::JSON::Object::Ptr& o, const std::string& key) {
  if (!o) throw std::runtime_error("no object (looking for '" + key + "')");
  if (!o->has(key)) throw std::runtime_error("no field '" + key + "' in " + toJson(o));
  auto v = o->get(key);
  if (!v.isInteger()) throw std::runtime_error("field '" + key + "' is not an integer in " + toJson(o));
  return v.convert<Poco::Int64>();
}

std::string strField(const Poco::JSON::Object::Ptr& o, const std::string& key) {
  if (!o) throw std::runtime_error("no object (looking for '" + key + "')");
  if (!o->has(key)) throw std::runtime_error("no field '" + key + "' in " + toJson(o));
  auto v = o->get(key);
  if (!v.isString()) throw std::runtime_error("field '" + key + "' is not a string in " + toJson(o));
  return v.convert<std::string>();
}

bool hasNonNull(const Poco::JSON::Object::Ptr& o, const std::string& key) {
  return o && o->has(key) && !o->isNull(key);
}

std::vector<Poco::JSON::Object::Ptr> objects(const Poco::JSON::Array::Ptr& a) {
  std::vector<Poco::JSON::Object::Ptr> out;
  if (!a) return out;
  for (std::size_t i = 0; i < a->size(); ++i) {
    auto o = a->getObject(i);
    if (!o) throw std::runtime_error("array item " + std::to_string(i) + " is not an object: " + toJson(a));
    out.push_back(o);
  }
  return out;
}

Poco::JSON::Array::Ptr listOf(const HttpResult& r, std::initializer_list<const char*> keys) {
  auto v = r.json();
  if (v.type() == typeid(Poco::JSON::Array::Ptr)) return v.extract<Poco::JSON::Array::Ptr>();
  auto o = r.object();
  for (const char* k : keys)
    if (auto a = o->getArray(k)) return a;
  throw std::runtime_error("no list in " + r.describe());
}

}  // namespace aev::testing

// The web console as the daemon serves it (/console/: headers, ETag/304, gzip, deep
// links, console.enabled, console.dir) and the credentials it relies on: the HttpOnly
// refresh cookie (flags, same-origin only, rotation and reuse detection, logout) and
// stream tokens kept out of the access log.
#include <Poco/InflatingStream.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include <unistd.h>
#include <sstream>

#include "support/api_fixture.h"

namespace aev::testing {
namespace {

class ConsoleApi : public ApiTest {
 protected:
  static HttpResult page(const std::string& path, const Headers& headers = {}) { return anon().get(path, headers); }
  // The asset folder the page names: "/console/a/<build id>/".
  static std::string assetBase() {
    auto r = page("/console/");
    std::smatch m;
    std::regex re("/console/a/[0-9a-f]{16}/");
    if (!std::regex_search(r.body, m, re)) throw std::runtime_error("no asset folder in " + r.body);
    return m.str();
  }
  static std::string origin() { return daemon().baseUrl(); }
};

void expectStrictHeaders(const HttpResult& r) {
  const auto csp = r.header("Content-Security-Policy");
  EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << r.describe();
  EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("require-trusted-types-for 'script'"), std::string::npos) << csp;
  EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos) << csp;
  EXPECT_EQ(r.header("X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(r.header("Referrer-Policy"), "no-referrer");
}

std::string gunzip(const std::string& bytes) {
  std::istringstream in(bytes);
  Poco::InflatingInputStream inflater(in, Poco::InflatingStreamBuf::STREAM_GZIP);
  std::ostringstream out;
  out << inflater.rdbuf();
  return out.str();
}

TEST_F(ConsoleApi, PageIsServedWithStrictHeadersAndNoCache) {
  auto r = page("/console/");
  ASSERT_STATUS(r, 200);
  EXPECT_EQ(r.contentType(), "text/html; charset=utf-8");
  EXPECT_EQ(r.header("Cache-Control"), "no-cache");
  EXPECT_FALSE(r.header("ETag").empty());
  expectStrictHeaders(r);
  EXPECT_EQ(r.body.find("<script>"), std::string::npos) << "no inline script";
  EXPECT_EQ(r.body.find("<style"), std::string::npos) << "no inline style";
  EXPECT_EQ(r.body.find("http"), std::string::npos) << "nothing from another origin";

  auto bare = page("/console");
  ASSERT_STATUS(bare, 308);
  EXPECT_EQ(bare.header("Location"), "/console/");
}

TEST_F(ConsoleApi, AssetsAreImmutableGzippedAndRevalidatedWith304) {
  const auto base = assetBase();
  auto raw = page(base + "js/main.js", {{"Accept-Encoding", "identity"}});
  ASSERT_STATUS(raw, 200);
  EXPECT_EQ(raw.contentType(), "text/javascript; charset=utf-8");
  EXPECT_EQ(raw.header("Cache-Control"), "public, max-age=31536000, immutable");
  EXPECT_EQ(raw.header("Content-Encoding"), "");
  expectStrictHeaders(raw);

  auto gz = page(base + "js/main.js", {{"Accept-Encoding", "gzip, deflate"}});
  ASSERT_STATUS(gz, 200);
  EXPECT_EQ(gz.header("Content-Encoding"), "gzip");
  EXPECT_EQ(gz.header("Vary"), "Accept-Encoding");
  EXPECT_LT(gz.body.size(), raw.body.size());
  EXPECT_EQ(gunzip(gz.body), raw.body);
  EXPECT_NE(gz.header("ETag"), raw.header("ETag"));

  auto again = page(base + "js/main.js", {{"Accept-Encoding", "gzip"}, {"If-None-Match", gz.header("ETag")}});
  ASSERT_STATUS(again, 304);
  EXPECT_TRUE(again.body.empty());
  EXPECT_EQ(again.header("ETag"), gz.header("ETag"));
  expectStrictHeaders(again);

  auto css = page(base + "console.css");
  ASSERT_STATUS(css, 200);
  EXPECT_EQ(css.contentType(), "text/css; charset=utf-8");
  EXPECT_STATUS(page("/console/a/0000000000000000/js/main.js"), 404);
  EXPECT_STATUS(page(base + "nope.js"), 404);
  EXPECT_STATUS(page(base + "vendor/VENDOR.md"), 404);
  auto licences = page(base + "vendor/licenses.txt");
  ASSERT_STATUS(licences, 200);
  EXPECT_NE(licences.body.find("preact"), std::string::npos);
}

// HEAD answers with GET's status and headers (Content-Length included) and no body.
TEST_F(ConsoleApi, HeadAnswersLikeGetWithoutABody) {
  const auto base = assetBase();
  const std::vector<std::pair<std::string, Headers>> cases = {
      {"/console/", {}},
      {"/console/traces/some-trace?org=1", {{"Accept", "text/html"}}},
      {base + "js/main.js", {{"Accept-Encoding", "identity"}}},
      {base + "js/main.js", {{"Accept-Encoding", "gzip"}}},
      {base + "nope.js", {}},
      {"/console", {}}};
  for (const auto& [path, headers] : cases) {
    SCOPED_TRACE(path);
    auto get = page(path, headers);
    auto head = anon().request("HEAD", path, std::nullopt, headers);
    EXPECT_EQ(head.status, get.status) << head.describe();
    EXPECT_TRUE(head.body.empty());
    for (const char* name : {"Content-Type", "Content-Encoding", "ETag", "Cache-Control", "Content-Security-Policy",
                             "X-Content-Type-Options", "Location"})
      EXPECT_EQ(head.header(name), get.header(name)) << name;
    EXPECT_EQ(head.header("Content-Length"), std::to_string(get.body.size()));
  }
  // On the wire: the head of the answer and not one byte after it.
  auto raw = anon().rawExchange("HEAD", "/console/", {}, "");
  ASSERT_STATUS(raw, 200);
  EXPECT_TRUE(raw.body.empty()) << raw.body.size() << " body bytes";
  EXPECT_NE(raw.header("Content-Length"), "0");
}

TEST_F(ConsoleApi, DeepLinksLoadThePageOnlyForHtml) {
  auto html = page("/console/traces/abc?range=24h", {{"Accept", "text/html,application/xhtml+xml"}});
  ASSERT_STATUS(html, 200);
  EXPECT_EQ(html.contentType(), "text/html; charset=utf-8");
  auto other = page("/console/traces/abc", {{"Accept", "application/json"}});
  EXPECT_STATUS(other, 404);
  expectStrictHeaders(other);
  // The API and its documentation are unchanged.
  auto doc = anon().get("/openapi.json");
  ASSERT_STATUS(doc, 200);
  EXPECT_EQ(doc.body.find("/console"), std::string::npos);
}

// ---------------------------------------------------------------- the refresh cookie

struct CookieLogin {
  std::string accessToken;
  std::string cookie;  // "aev_refresh=..."
  std::string setCookie;
};

std::string cookiePair(const std::string& setCookie) { return setCookie.substr(0, setCookie.find(';')); }

TEST_F(ConsoleApi, LoginWithRefreshCookieSetsAnHttpOnlyStrictCookieAndNoBodyToken) {
  auto u = registerUser("cookie");
  auto body = obj({{"login", u.username}, {"password", u.password}, {"refresh_cookie", true}});
  auto r = anon().post("/auth/login", body, {{"Origin", origin()}});
  ASSERT_STATUS(r, 200);
  auto o = r.object();
  EXPECT_FALSE(strField(o, "access_token").empty());
  EXPECT_FALSE(o->has("refresh_token")) << r.describe();
  const auto set = r.header("Set-Cookie");
  EXPECT_TRUE(set.starts_with("aev_refresh=")) << set;
  EXPECT_NE(set.find("; HttpOnly"), std::string::npos) << set;
  EXPECT_NE(set.find("; SameSite=Strict"), std::string::npos) << set;
  EXPECT_NE(set.find("; Path=/auth"), std::string::npos) << set;
  EXPECT_EQ(set.find("Secure"), std::string::npos) << "plain http: no Secure flag " << set;
  EXPECT_EQ(r.header("Cache-Control"), "no-store");
  // Next to it, a marker the page may read (no credential in it): "a session exists".
  std::vector<std::string> cookies;
  for (const auto& [k, v] : r.headers)
    if (k == "Set-Cookie" || k == "set-cookie") cookies.push_back(v);
  ASSERT_EQ(cookies.size(), 2u);
  EXPECT_EQ(cookies[1], "aev_session=1; Path=/; SameSite=Strict");
  // The access token works.
  EXPECT_STATUS(anon().withBearer(strField(o, "access_token")).get("/auth/whoami"), 200);

  // Only from the daemon's own origin.
  EXPECT_TRUE(IsProblem(anon().post("/auth/login", body), 403));
  EXPECT_TRUE(IsProblem(anon().post("/auth/login", body, {{"Origin", "http://evil.example"}}), 403));
  EXPECT_TRUE(
      IsProblem(anon().post("/auth/login", body, {{"Sec-Fetch-Site", "same-site"}, {"Origin", origin()}}), 403));
  EXPECT_STATUS(anon().post("/auth/login", body, {{"Sec-Fetch-Site", "same-origin"}}), 200);
  // Without the flag the answer is the usual pair, no cookie.
  auto plain = anon().post("/auth/login", obj({{"login", u.username}, {"password", u.password}}));
  ASSERT_STATUS(plain, 200);
  EXPECT_TRUE(plain.object()->has("refresh_token"));
  EXPECT_FALSE(plain.hasHeader("Set-Cookie"));
}

TEST_F(ConsoleApi, RefreshCookieRotatesAndReuseRevokesTheSession) {
  auto u = registerUser("rotate");
  auto login =
      anon().post("/auth/login", obj({{"login", u.username}, {"password", u.password}, {"refresh_cookie", true}}),
                  {{"Origin", origin()}});
  ASSERT_STATUS(login, 200);
  const auto first = cookiePair(login.header("Set-Cookie"));

  // A cross-site request with the cookie is refused and consumes nothing.
  EXPECT_TRUE(
      IsProblem(anon().post("/auth/refresh", "{}", {{"Cookie", first}, {"Sec-Fetch-Site", "cross-site"}}), 403));
  EXPECT_TRUE(
      IsProblem(anon().post("/auth/refresh", "{}", {{"Cookie", first}, {"Origin", "http://evil.example"}}), 403));
  EXPECT_TRUE(IsProblem(anon().post("/auth/refresh", "{}", {{"Cookie", first}}), 403));

  auto r = anon().post("/auth/refresh", "{}", {{"Cookie", "theme=dark; " + first}, {"Sec-Fetch-Site", "same-origin"}});
  ASSERT_STATUS(r, 200);
  EXPECT_FALSE(r.object()->has("refresh_token"));
  const auto access = strField(r.object(), "access_token");
  EXPECT_STATUS(anon().withBearer(access).get("/auth/whoami"), 200);
  const auto second = cookiePair(r.header("Set-Cookie"));
  EXPECT_NE(second, first);
  EXPECT_NE(r.header("Set-Cookie").find("HttpOnly"), std::string::npos);

  // The rotated cookie presented again (a stolen copy): 401, and the session is gone.
  EXPECT_TRUE(IsProblem(anon().post("/auth/refresh", "{}", {{"Cookie", first}, {"Origin", origin()}}), 401));
  EXPECT_TRUE(IsProblem(anon().post("/auth/refresh", "{}", {{"Cookie", second}, {"Origin", origin()}}), 401));

  // A body token still wins over a cookie, and {} without either is the usual 422.
  EXPECT_TRUE(IsProblem(anon().post("/auth/refresh", "{}"), 422));
}

TEST_F(ConsoleApi, LogoutWithTheCookieRevokesAndClearsIt) {
  auto u = registerUser("logout");
  auto login =
      anon().post("/auth/login", obj({{"login", u.username}, {"password", u.password}, {"refresh_cookie", true}}),
                  {{"Origin", origin()}});
  ASSERT_STATUS(login, 200);
  const auto cookie = cookiePair(login.header("Set-Cookie"));
  EXPECT_TRUE(
      IsProblem(anon().post("/auth/logout", "{}", {{"Cookie", cookie}, {"Sec-Fetch-Site", "cross-site"}}), 403));
  auto out = anon().post("/auth/logout", "{}", {{"Cookie", cookie}, {"Origin", origin()}});
  ASSERT_STATUS(out, 204);
  EXPECT_NE(out.header("Set-Cookie").find("Max-Age=0"), std::string::npos) << out.header("Set-Cookie");
  EXPECT_TRUE(IsProblem(anon().post("/auth/refresh", "{}", {{"Cookie", cookie}, {"Origin", origin()}}), 401));
  // Logging out again with a dead cookie still clears it.
  EXPECT_STATUS(anon().post("/auth/logout", "{}", {{"Cookie", cookie}, {"Origin", origin()}}), 204);
}

TEST_F(ConsoleApi, StreamTokensNeverReachTheAccessLog) {
  auto u = registerUser("streamlog");
  auto app = u.http.post("/apps", R"({"name":"console-log"})");
  ASSERT_STATUS(app, 201);
  auto ch = u.http.post("/apps/" + std::to_string(intField(app.object(), "id")) + "/channels", R"({"name":"c"})");
  ASSERT_STATUS(ch, 201);
  auto tok = u.http.post("/stream-tokens", obj({{"channelId", intField(ch.object(), "id")}}));
  ASSERT_STATUS(tok, 201);
  const auto token = strField(tok.object(), "token");
  // Another channel's stream with this token: refused at once (no stream opens).
  auto r = anon().get("/channel/999999999/subscribe?stream_token=" + token + "&last_event_id=5");
  EXPECT_EQ(r.status, 403) << r.describe();
  const auto log = daemon().log();
  EXPECT_NE(log.find("path=/channel/999999999/subscribe"), std::string::npos);
  EXPECT_EQ(log.find(token), std::string::npos) << "the stream token is in the log";
  EXPECT_EQ(log.find("stream_token="), std::string::npos);
}

// ---------------------------------------------------------------- switches

class ConsoleDisabledApi : public ApiTest {
 public:
  static void SetUpTestSuite() { startDaemon(options({{"console.enabled", "false"}})); }
};

TEST_F(ConsoleDisabledApi, NoConsoleRoutes) {
  EXPECT_TRUE(IsProblem(anon().get("/console/"), 404));
  EXPECT_TRUE(IsProblem(anon().get("/console/traces", {{"Accept", "text/html"}}), 404));
  EXPECT_STATUS(anon().get("/healthz"), 200);
}

class ConsoleFromDiskApi : public ApiTest {
 public:
  static std::string dir() {
    return (std::filesystem::temp_directory_path() / ("aev-console-dir-" + std::to_string(::getpid()))).string();
  }
  static void SetUpTestSuite() {
    std::filesystem::create_directories(dir() + "/js");
    std::ofstream(dir() + "/index.html") << "<script type=module src=\"@ASSET_BASE@js/main.js\"></script>";
    std::ofstream(dir() + "/js/main.js") << "// from disk\n";
    startDaemon(options({{"console.dir", dir()}}));
  }
  static void TearDownTestSuite() {
    stopDaemon();
    std::filesystem::remove_all(dir());
  }
};

TEST_F(ConsoleFromDiskApi, FilesComeFromTheFolderUncached) {
  auto p = anon().get("/console/");
  ASSERT_STATUS(p, 200);
  EXPECT_EQ(p.body, "<script type=module src=\"/console/a/dev/js/main.js\"></script>");
  auto js = anon().get("/console/a/dev/js/main.js");
  ASSERT_STATUS(js, 200);
  EXPECT_EQ(js.body, "// from disk\n");
  EXPECT_EQ(js.header("Cache-Control"), "no-cache");
  expectStrictHeaders(js);
}

}  // namespace
}  // namespace aev::testing

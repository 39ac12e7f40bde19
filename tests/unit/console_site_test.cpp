// console/site.h: what the console's files are answered with (paths, headers, ETag and
// 304, gzip, the disk folder), against a small table, the built-in one and a folder.
#include "console/site.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "common/crypto.h"

namespace aev::console {
namespace {

const std::string kPage = "<!doctype html><script type=module src=\"/console/a/b1d/js/main.js\"></script>";
const std::string kScript = "export const x = 1;\n";
const std::string kScriptGz = "\x1f\x8b-pretend-gzip";
const std::string kScriptSha = crypto::sha256Hex(kScript);
const std::string kPageSha = crypto::sha256Hex(kPage);

const Asset kTestAssets[] = {
    {"index.html", "text/html; charset=utf-8", kPageSha, kPage, {}},
    {"js/main.js", "text/javascript; charset=utf-8", kScriptSha, kScript, kScriptGz},
};
const AssetTable kTestTable{"b1d", kTestAssets, 2};

std::string header(const Reply& r, const std::string& name) {
  for (const auto& [k, v] : r.headers)
    if (k == name) return v;
  return "";
}

Fetch fetchOf(std::string path) {
  Fetch f;
  f.path = std::move(path);
  return f;
}

void expectStrictHeaders(const Reply& r) {
  const auto csp = header(r, "Content-Security-Policy");
  EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("style-src 'self'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("require-trusted-types-for 'script'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << csp;
  EXPECT_EQ(csp.find("unsafe"), std::string::npos) << csp;
  EXPECT_EQ(header(r, "X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(header(r, "Referrer-Policy"), "no-referrer");
}

TEST(ConsoleSite, PageIsNoCacheWithStrictHeaders) {
  Site site("", kTestTable);
  for (const auto* path : {"", "index.html"}) {
    auto r = site.get(fetchOf(path));
    EXPECT_EQ(r.status, 200) << path;
    EXPECT_EQ(r.body, kPage);
    EXPECT_EQ(r.contentType, "text/html; charset=utf-8");
    EXPECT_EQ(header(r, "Cache-Control"), "no-cache");
    EXPECT_EQ(header(r, "ETag"), "\"" + kPageSha.substr(0, 32) + "\"");
    expectStrictHeaders(r);
  }
  EXPECT_EQ(site.assetBase(), "/console/a/b1d/");
}

TEST(ConsoleSite, HashedAssetsAreImmutableAndOnlyUnderTheCurrentBuild) {
  Site site("", kTestTable);
  auto r = site.get(fetchOf("a/b1d/js/main.js"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, kScript);
  EXPECT_EQ(r.contentType, "text/javascript; charset=utf-8");
  EXPECT_EQ(header(r, "Cache-Control"), "public, max-age=31536000, immutable");
  EXPECT_EQ(header(r, "Vary"), "Accept-Encoding");
  expectStrictHeaders(r);

  EXPECT_EQ(site.get(fetchOf("a/0ld/js/main.js")).status, 404);  // another build's folder
  EXPECT_EQ(site.get(fetchOf("a/b1d/js/missing.js")).status, 404);
  EXPECT_EQ(site.get(fetchOf("a/b1d/index.html")).status, 404);  // the page is never immutable
  EXPECT_EQ(site.get(fetchOf("a/b1d/../index.html")).status, 404);
  auto missing = site.get(fetchOf("js/main.js"));  // not under a/<build>/
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(header(missing, "Cache-Control"), "no-store");
  expectStrictHeaders(missing);
}

TEST(ConsoleSite, ClientRoutesGetThePageOnlyWhenHtmlIsAsked) {
  Site site("", kTestTable);
  auto deep = fetchOf("traces/abc");
  EXPECT_EQ(site.get(deep).status, 404);
  deep.wantsHtml = true;
  auto r = site.get(deep);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, kPage);
}

TEST(ConsoleSite, GzipWhenAcceptedWithItsOwnStrongTag) {
  Site site("", kTestTable);
  auto f = fetchOf("a/b1d/js/main.js");
  f.acceptsGzip = true;
  auto r = site.get(f);
  EXPECT_EQ(r.body, kScriptGz);
  EXPECT_EQ(header(r, "Content-Encoding"), "gzip");
  EXPECT_EQ(header(r, "ETag"), "\"" + kScriptSha.substr(0, 32) + "-gz\"");
  // The page has no gzip bytes in this table: served as is.
  auto page = fetchOf("");
  page.acceptsGzip = true;
  EXPECT_EQ(header(site.get(page), "Content-Encoding"), "");
}

TEST(ConsoleSite, IfNoneMatchGivesA304WithoutBody) {
  Site site("", kTestTable);
  auto f = fetchOf("a/b1d/js/main.js");
  const auto etag = header(site.get(f), "ETag");
  f.ifNoneMatch = "\"other\", W/" + etag;
  auto r = site.get(f);
  EXPECT_EQ(r.status, 304);
  EXPECT_TRUE(r.body.empty());
  EXPECT_EQ(header(r, "ETag"), etag);
  expectStrictHeaders(r);
  f.ifNoneMatch = "\"other\"";
  EXPECT_EQ(site.get(f).status, 200);
  // The raw representation's tag does not validate the gzip one.
  f.ifNoneMatch = etag;
  f.acceptsGzip = true;
  EXPECT_EQ(site.get(f).status, 200);
}

TEST(ConsoleSite, AcceptEncodingAndEtagParsing) {
  EXPECT_TRUE(Site::acceptsGzip("gzip, deflate, br"));
  EXPECT_TRUE(Site::acceptsGzip("br;q=1.0, GZIP;q=0.5"));
  EXPECT_FALSE(Site::acceptsGzip("gzip;q=0"));
  EXPECT_FALSE(Site::acceptsGzip("identity"));
  EXPECT_FALSE(Site::acceptsGzip(""));
  EXPECT_TRUE(Site::etagMatches("*", "\"a\""));
  EXPECT_TRUE(Site::etagMatches(" \"b\" , \"a\"", "\"a\""));
  EXPECT_FALSE(Site::etagMatches("\"ab\"", "\"a\""));
}

TEST(ConsoleSite, BuiltInTableHoldsTheConsoleWithGzipAndSortedPaths) {
  const auto& table = builtInAssets();
  ASSERT_GT(table.count, 3u);
  EXPECT_EQ(table.buildId.size(), 16u);
  for (std::size_t i = 0; i < table.count; ++i) {
    const auto& a = table.assets[i];
    if (i > 0) {
      EXPECT_LT(table.assets[i - 1].path, a.path);
    }
    EXPECT_EQ(crypto::sha256Hex(a.raw), a.sha256) << a.path;
    EXPECT_FALSE(a.contentType.empty()) << a.path;
    if (!a.gzip.empty()) {
      EXPECT_LT(a.gzip.size(), a.raw.size()) << a.path;
      EXPECT_EQ(a.gzip.substr(0, 2), "\x1f\x8b") << a.path;
    }
  }
  Site site;
  auto page = site.get(fetchOf(""));
  ASSERT_EQ(page.status, 200);
  // The page names exactly this build's folder, and every file it names is there.
  EXPECT_EQ(page.body.find(kAssetBasePlaceholder), std::string::npos);
  EXPECT_NE(page.body.find(site.assetBase() + "js/main.js"), std::string::npos);
  EXPECT_EQ(site.get(fetchOf("a/" + std::string(table.buildId) + "/js/main.js")).status, 200);
  EXPECT_EQ(site.get(fetchOf("a/" + std::string(table.buildId) + "/vendor/preact.mjs")).status, 200);
}

TEST(ConsoleSite, DiskFolderIsReadPerRequestAndNeverLeftBehind) {
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / ("aev-console-" + std::to_string(::getpid()));
  fs::create_directories(dir / "js");
  fs::create_directories(dir.string() + "-secret");
  std::ofstream(dir / "index.html") << "<script src=\"@ASSET_BASE@js/main.js\"></script>";
  std::ofstream(dir / "js" / "main.js") << "one";
  std::ofstream(dir / "notes.md") << "not served";
  std::ofstream(dir.string() + "-secret/key.txt") << "secret";
  fs::create_symlink(dir.string() + "-secret/key.txt", dir / "js" / "link.txt");

  Site site(dir.string());
  EXPECT_TRUE(site.fromDisk());
  auto page = site.get(fetchOf(""));
  EXPECT_EQ(page.body, "<script src=\"/console/a/dev/js/main.js\"></script>");
  auto js = site.get(fetchOf("a/dev/js/main.js"));
  EXPECT_EQ(js.body, "one");
  EXPECT_EQ(header(js, "Cache-Control"), "no-cache");  // edits show on reload
  std::ofstream(dir / "js" / "main.js") << "two";
  EXPECT_EQ(site.get(fetchOf("a/dev/js/main.js")).body, "two");
  EXPECT_EQ(site.get(fetchOf("a/dev/notes.md")).status, 404);
  EXPECT_EQ(site.get(fetchOf("a/dev/js/link.txt")).status, 404);
  EXPECT_EQ(site.get(fetchOf("a/dev/../" + dir.filename().string() + "-secret/key.txt")).status, 404);
  EXPECT_EQ(site.get(fetchOf("a/dev/.hidden.js")).status, 404);
  fs::remove_all(dir);
  fs::remove_all(dir.string() + "-secret");
}

}  // namespace
}  // namespace aev::console

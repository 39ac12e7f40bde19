#include "console/site.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "common/crypto.h"

namespace aev::console {

namespace {

// No inline script or style anywhere (Preact and uPlot style through CSSOM, which CSP
// does not restrict); no innerHTML sink may take a string (Trusted Types with no policy).
constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; "
    "require-trusted-types-for 'script'; trusted-types 'none'";

bool safeRelativePath(const std::string& rel) {
  if (rel.empty() || rel.size() > 256 || rel.front() == '/') return false;
  std::size_t start = 0;
  while (start <= rel.size()) {
    auto slash = rel.find('/', start);
    if (slash == std::string::npos) slash = rel.size();
    const auto part = std::string_view(rel).substr(start, slash - start);
    if (part.empty() || part == "." || part == ".." || part.front() == '.') return false;
    start = slash + 1;
  }
  return std::all_of(rel.begin(), rel.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '.' ||
           c == '-' || c == '_' || c == '@';
  });
}

std::string lowerCase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

Site::Site(std::string dir, const AssetTable& table) : dir_(std::move(dir)), table_(table) {
  buildId_ = fromDisk() ? "dev" : std::string(table_.buildId);
}

std::vector<std::pair<std::string, std::string>> Site::securityHeaders() {
  return {{"Content-Security-Policy", kContentSecurityPolicy},
          {"X-Content-Type-Options", "nosniff"},
          {"Referrer-Policy", "no-referrer"},
          {"Cross-Origin-Opener-Policy", "same-origin"},
          {"Cross-Origin-Resource-Policy", "same-origin"},
          {"X-Frame-Options", "DENY"},
          {"Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()"}};
}

std::string Site::contentTypeOf(const std::string& path) {
  const auto dot = path.rfind('.');
  const auto ext = dot == std::string::npos ? std::string() : lowerCase(path.substr(dot + 1));
  if (ext == "html") return "text/html; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "ico") return "image/x-icon";
  if (ext == "json") return "application/json";
  if (ext == "txt") return "text/plain; charset=utf-8";
  return "";
}

bool Site::acceptsGzip(const std::string& acceptEncoding) {
  std::stringstream in(lowerCase(acceptEncoding));
  std::string item;
  while (std::getline(in, item, ',')) {
    auto semi = item.find(';');
    const auto coding = trim(std::string_view(item).substr(0, semi));
    if (coding != "gzip" && coding != "x-gzip") continue;
    if (semi == std::string::npos) return true;
    auto params = item.substr(semi + 1);
    auto q = params.find("q=");
    if (q == std::string::npos) return true;
    try {
      return std::stod(params.substr(q + 2)) > 0.0;
    } catch (const std::exception&) {
      return false;
    }
  }
  return false;
}

bool Site::etagMatches(const std::string& ifNoneMatch, const std::string& etag) {
  std::stringstream in(ifNoneMatch);
  std::string item;
  while (std::getline(in, item, ',')) {
    auto tag = trim(item);
    if (tag == "*") return true;
    if (tag.starts_with("W/")) tag = tag.substr(2);
    if (tag == etag) return true;
  }
  return false;
}

std::optional<Site::File> Site::readFromDisk(const std::string& rel) const {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto root = fs::canonical(dir_, ec);
  if (ec) return std::nullopt;
  const auto path = fs::weakly_canonical(root / rel, ec);
  if (ec || !fs::is_regular_file(path, ec)) return std::nullopt;
  // A symbolic link out of the folder is not served either.
  const auto relative = path.lexically_relative(root).string();
  if (relative.empty() || relative.starts_with("..")) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  File f;
  f.owned.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (rel == "index.html") {
    const std::string placeholder(kAssetBasePlaceholder);
    for (auto at = f.owned.find(placeholder); at != std::string::npos; at = f.owned.find(placeholder, at))
      f.owned.replace(at, placeholder.size(), assetBase());
  }
  f.contentType = contentTypeOf(rel);
  f.sha256 = crypto::sha256Hex(f.owned);
  return f;
}

std::optional<Site::File> Site::find(const std::string& rel) const {
  if (!safeRelativePath(rel) || contentTypeOf(rel).empty()) return std::nullopt;
  if (fromDisk()) return readFromDisk(rel);
  const Asset* begin = table_.assets;
  const Asset* end = table_.assets + table_.count;
  const Asset* it = std::lower_bound(begin, end, rel, [](const Asset& a, const std::string& p) { return a.path < p; });
  if (it == end || it->path != rel) return std::nullopt;
  File f;
  f.contentType = std::string(it->contentType);
  f.sha256 = std::string(it->sha256);
  f.raw = it->raw;
  f.gzip = it->gzip;
  return f;
}

Reply Site::notFound() {
  Reply r;
  r.status = 404;
  r.contentType = "text/plain; charset=utf-8";
  r.body = "Not found.\n";
  r.headers = securityHeaders();
  r.headers.emplace_back("Cache-Control", "no-store");
  return r;
}

Reply Site::answer(const File& file, const Fetch& fetch, bool immutable) const {
  const std::string_view raw = file.owned.empty() ? file.raw : std::string_view(file.owned);
  const bool gzip = fetch.acceptsGzip && !file.gzip.empty();
  // A strong tag per representation: the gzip bytes are not the raw bytes.
  const std::string etag = "\"" + file.sha256.substr(0, 32) + (gzip ? "-gz" : "") + "\"";
  Reply r;
  r.headers = securityHeaders();
  r.headers.emplace_back("ETag", etag);
  r.headers.emplace_back("Vary", "Accept-Encoding");
  r.headers.emplace_back("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
  if (!fetch.ifNoneMatch.empty() && etagMatches(fetch.ifNoneMatch, etag)) {
    r.status = 304;
    return r;
  }
  r.status = 200;
  r.contentType = file.contentType;
  if (gzip) {
    r.headers.emplace_back("Content-Encoding", "gzip");
    r.body.assign(file.gzip);
  } else {
    r.body.assign(raw);
  }
  return r;
}

Reply Site::get(const Fetch& fetch) const {
  const auto& path = fetch.path;
  if (path.starts_with("a/")) {
    const auto slash = path.find('/', 2);
    if (slash == std::string::npos || path.substr(2, slash - 2) != buildId_) return notFound();
    const auto rel = path.substr(slash + 1);
    if (rel == "index.html") return notFound();  // the page is never cached as an asset
    auto file = find(rel);
    // Hashed names never change content, except in the folder on disk (development).
    return file ? answer(*file, fetch, !fromDisk()) : notFound();
  }
  if (path.empty() || path == "index.html" || fetch.wantsHtml) {
    auto page = find("index.html");
    return page ? answer(*page, fetch, false) : notFound();
  }
  return notFound();
}

}  // namespace aev::console

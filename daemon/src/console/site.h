#pragma once
// The console's web files, answered with the headers a strict single-page app needs:
// a CSP without inline script or style and with Trusted Types, nosniff, no referrer,
// strong ETags (If-None-Match → 304), gzip when accepted, immutable caching of the
// hashed asset folder and no-cache on the page. Files come from the table compiled into
// the binary, or from a folder on disk while developing (`console.dir`), read per
// request so an edit shows on reload.
//
// URL layout under /console/:
//   /console/                      the page (index.html)
//   /console/a/<buildId>/<file>    every other file; <buildId> changes with any file
//   /console/<anything else>       the page again when the browser asks for HTML (the
//                                  console routes on the client side), else 404
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "console/asset_table.h"

namespace aev::console {

struct Fetch {
  std::string path;        // after "/console/", decoded, e.g. "a/1f2e/js/main.js"
  bool wantsHtml = false;  // the Accept header names text/html
  bool acceptsGzip = false;
  std::string ifNoneMatch;  // the header as sent
};

struct Reply {
  int status = 200;
  std::string contentType;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

class Site {
 public:
  // dir empty: the built-in table; else the console folder on disk.
  explicit Site(std::string dir = "", const AssetTable& table = builtInAssets());

  Reply get(const Fetch& fetch) const;
  // "/console/a/<buildId>/": where the page loads its files from.
  std::string assetBase() const { return "/console/a/" + buildId_ + "/"; }
  bool fromDisk() const { return !dir_.empty(); }

  // The headers every console answer carries (also errors and 304s).
  static std::vector<std::pair<std::string, std::string>> securityHeaders();
  static bool acceptsGzip(const std::string& acceptEncoding);
  // RFC 9110 §13.1.2: weak comparison, a list of tags or "*".
  static bool etagMatches(const std::string& ifNoneMatch, const std::string& etag);
  static std::string contentTypeOf(const std::string& path);  // "" for a type we do not serve

 private:
  struct File {
    std::string contentType;
    std::string sha256;
    std::string_view raw;
    std::string_view gzip;
    std::string owned;  // the bytes read from disk (raw points here)
  };
  std::optional<File> find(const std::string& rel) const;
  std::optional<File> readFromDisk(const std::string& rel) const;
  Reply answer(const File& file, const Fetch& fetch, bool immutable) const;
  static Reply notFound();

  std::string dir_;
  const AssetTable& table_;
  std::string buildId_;
};

// The token index.html names the asset folder with; replaced by Site::assetBase().
inline constexpr std::string_view kAssetBasePlaceholder = "@ASSET_BASE@";

}  // namespace aev::console

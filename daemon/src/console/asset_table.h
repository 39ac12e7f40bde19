#pragma once
// The console's files as compiled into the daemon: a table generated at build time by
// daemon/embed_console.cmake from daemon/console/ (raw bytes, gzip -9 -n bytes, SHA-256
// and content type per file). index.html already names the hashed asset folder.
#include <cstddef>
#include <string_view>

namespace aev::console {

struct Asset {
  std::string_view path;         // relative to daemon/console/, e.g. "js/main.js"
  std::string_view contentType;  // with charset for text
  std::string_view sha256;       // hex digest of `raw`
  std::string_view raw;
  std::string_view gzip;  // empty when gzip would not be smaller than raw
};

struct AssetTable {
  std::string_view buildId;  // names /console/a/<buildId>/: changes whenever any file does
  const Asset* assets;       // sorted by path
  std::size_t count;
};

const AssetTable& builtInAssets();

}  // namespace aev::console

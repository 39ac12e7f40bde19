#include "mcp/protocol.h"

#include <algorithm>

namespace aev::mcp {

const std::vector<std::string>& supportedVersions() {
  static const std::vector<std::string> versions = {"2025-11-25", "2025-06-18", "2025-03-26"};
  return versions;
}

bool isSupported(const std::string& version) {
  const auto& all = supportedVersions();
  return std::find(all.begin(), all.end(), version) != all.end();
}

std::string supportedList() {
  std::string out;
  for (const auto& v : supportedVersions()) out += (out.empty() ? "" : ", ") + v;
  return out;
}

std::string negotiate(const std::optional<std::string>& requested) {
  return requested && isSupported(*requested) ? *requested : kLatestVersion;
}

}  // namespace aev::mcp

#include "mcp/protocol.h"

#include <algorithm>

#include "common/text.h"

namespace aev::mcp {

const std::vector<std::string>& supportedVersions() {
  static const std::vector<std::string> versions = {kModernVersion, "2025-11-25", "2025-06-18", "2025-03-26"};
  return versions;
}

bool isSupported(const std::string& version) {
  const auto& all = supportedVersions();
  return std::find(all.begin(), all.end(), version) != all.end();
}

// Revision identifiers are dates, so they compare as strings.
bool isModern(const std::string& version) { return version >= kModernVersion; }

std::string supportedList() { return joinWithCommas(supportedVersions()); }

std::string negotiateLegacy(const std::optional<std::string>& requested) {
  return requested && isSupported(*requested) && !isModern(*requested) ? *requested : kLatestLegacyVersion;
}

}  // namespace aev::mcp

#include "app/config_keys.h"

#include <algorithm>
#include <set>

#include "app/config_defaults.h"

namespace aev::app {

namespace {

const std::set<std::string>& knownKeys() {
  static const std::set<std::string> keys = [] {
    std::set<std::string> out;
    for (const auto& [key, value] : configDefaults()) out.insert(key);
    return out;
  }();
  return keys;
}

// plugins.<plugin>.<setting>: both parts non-empty.
bool isPluginSetting(const std::string& key) {
  static const std::string prefix = "plugins.";
  if (key.rfind(prefix, 0) != 0) return false;
  const auto dot = key.find('.', prefix.size());
  return dot != std::string::npos && dot > prefix.size() && dot + 1 < key.size();
}

std::size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The nearest of `candidates` within a quarter of the name's length (at least 2 edits).
std::optional<std::string> nearest(const std::string& name, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t bestDistance = std::max<std::size_t>(2, name.size() / 4) + 1;
  for (const auto& c : candidates) {
    const auto d = editDistance(name, c);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

std::string unknownLine(const std::string& what, const std::string& name, const std::string& where,
                        const std::optional<std::string>& suggestion) {
  std::string line = "unknown configuration " + what + " " + name + " (" + where;
  if (suggestion) line += "; did you mean " + *suggestion + "?";
  return line + ")";
}

}  // namespace

bool isKnownConfigKey(const std::string& key) { return knownKeys().count(key) > 0 || isPluginSetting(key); }

std::optional<std::string> nearestConfigKey(const std::string& key) {
  return nearest(key, std::vector<std::string>(knownKeys().begin(), knownKeys().end()));
}

std::vector<std::string> unknownKeysIn(const std::vector<std::string>& keys, const std::string& where) {
  std::vector<std::string> out;
  for (const auto& key : keys)
    if (!isKnownConfigKey(key)) out.push_back(unknownLine("key", key, where, nearestConfigKey(key)));
  return out;
}

std::vector<std::string> unknownEnvironmentVariables(const std::vector<std::string>& names) {
  std::vector<std::string> known = {"AGENT_EVENTS_CONFIG"};
  for (const auto& key : knownKeys()) known.push_back(envNameFor(key));
  std::vector<std::string> out;
  for (const auto& name : names) {
    if (name.rfind("AGENT_EVENTS_", 0) != 0 || std::find(known.begin(), known.end(), name) != known.end()) continue;
    out.push_back(unknownLine("variable", name, "from the environment", nearest(name, known)));
  }
  return out;
}

}  // namespace aev::app

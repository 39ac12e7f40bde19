#pragma once
// Which configuration keys exist, so that a typo cannot silently mean "the default": a
// key is known when the defaults table (config_defaults.cpp) lists it, or when it lies
// in a plugin's namespace, plugins.<plugin>.<setting>, which the daemon passes to that
// plugin as it is (a plugin may check its own settings). Unknown keys are found in each
// layer an operator writes (the properties file, AGENT_EVENTS_* variables, --set) and
// named with the nearest known key.
#include <optional>
#include <string>
#include <vector>

namespace aev::app {

bool isKnownConfigKey(const std::string& key);
// The known key closest to `key` (edit distance), if one is close enough to be a typo.
std::optional<std::string> nearestConfigKey(const std::string& key);

// One line per unknown key of a layer: "unknown configuration key http.cors_origin
// (in FILE; did you mean http.cors_origins?)".
std::vector<std::string> unknownKeysIn(const std::vector<std::string>& keys, const std::string& where);
// The same for environment variables: every AGENT_EVENTS_* name that is not the
// variable of a known key (AGENT_EVENTS_CONFIG, the file's location, aside). Plugin
// settings have no environment form (their names could not be told apart from the
// daemon's), so AGENT_EVENTS_PLUGINS_<...> is unknown too, but for PLUGINS_DIR.
std::vector<std::string> unknownEnvironmentVariables(const std::vector<std::string>& names);

}  // namespace aev::app

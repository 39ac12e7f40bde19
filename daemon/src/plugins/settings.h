#pragma once
// Bridges the daemon's layered configuration (defaults, properties file, AGENT_EVENTS_*
// environment, --set) to the plain key/value map the plugin host gives plugins.
#include <Poco/Util/AbstractConfiguration.h>

#include <agentevents/plugin_abi.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace aev::plugins {

// Every key under "plugins." with its value, e.g. "plugins.exporter_otlp.timeout_ms".
std::map<std::string, std::string> collectPluginSettings(const Poco::Util::AbstractConfiguration& config);

// Why `value` is not a value of a setting of `type` ("" when it is), e.g.
// "is not an integer". Durations: an integer with ms, s, m or h.
std::string settingValueProblem(aev_setting_type type, std::string_view value);

// "string", "integer", "number", "boolean", "duration", "list".
std::string_view settingTypeName(aev_setting_type type);

// Milliseconds of a duration setting's value (settingValueProblem must accept it).
std::int64_t durationMillis(std::string_view value);

}  // namespace aev::plugins

#pragma once
// Bridges the daemon's layered configuration (defaults, properties file, AGENT_EVENTS_*
// environment, --set) to the plain key/value map the plugin host gives plugins.
#include <Poco/Util/AbstractConfiguration.h>

#include <map>
#include <string>

namespace aev::plugins {

// Every key under "plugins." with its value, e.g. "plugins.exporter_otlp.timeout_ms".
std::map<std::string, std::string> collectPluginSettings(const Poco::Util::AbstractConfiguration& config);

}  // namespace aev::plugins

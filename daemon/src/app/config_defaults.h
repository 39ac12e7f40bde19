#pragma once
// Every configuration key the daemon reads, with its built-in default. The same list
// drives the AGENT_EVENTS_* environment mapping (key "http.max_body_bytes" ←
// AGENT_EVENTS_HTTP_MAX_BODY_BYTES), so a key cannot be configurable in one layer and
// not the other. config/agent-eventsd.properties documents each one.
#include <string>
#include <utility>
#include <vector>

namespace aev::app {

const std::vector<std::pair<std::string, std::string>>& configDefaults();
std::string envNameFor(const std::string& key);

}  // namespace aev::app

#pragma once
// Every configuration key the daemon reads, with its built-in default and what it does:
// the one table the configuration layers, the AGENT_EVENTS_* environment mapping (key
// "http.max_body_bytes" <- AGENT_EVENTS_HTTP_MAX_BODY_BYTES) and the written reference
// (docs/configuration.md and config/agent-eventsd.properties, printed by
// `agent-eventsd --print-config-reference` / `--print-config-file`) all come from, so a
// key cannot be configurable in one place and undocumented in another.
#include <string>
#include <utility>
#include <vector>

namespace aev::app {

struct ConfigKey {
  std::string key;            // section.name, e.g. "http.max_body_bytes"
  std::string defaultValue;   // as the properties file would write it; empty: unset
  std::string description{};  // what it does, its unit, what an empty value means (required: a test checks)
};

// The table, in the order the reference lists it (grouped by section).
const std::vector<ConfigKey>& configKeys();
// The same table as key -> default pairs.
const std::vector<std::pair<std::string, std::string>>& configDefaults();
std::string envNameFor(const std::string& key);

}  // namespace aev::app

#include "plugins/settings.h"

namespace aev::plugins {

namespace {

void collect(const Poco::Util::AbstractConfiguration& config, const std::string& prefix,
             std::map<std::string, std::string>& out) {
  Poco::Util::AbstractConfiguration::Keys keys;
  config.keys(prefix, keys);
  for (const auto& k : keys) {
    std::string full = prefix + "." + k;
    if (config.hasOption(full)) out[full] = config.getRawString(full, "");
    collect(config, full, out);
  }
}

}  // namespace

std::map<std::string, std::string> collectPluginSettings(const Poco::Util::AbstractConfiguration& config) {
  std::map<std::string, std::string> out;
  collect(config, "plugins", out);
  return out;
}

}  // namespace aev::plugins

#pragma once
// The plugin host: loads plugin shared objects at start-up and offers what they provide
// through the registry. The daemon's start-up owns one Host:
//
//   aev::plugins::HostOptions options;
//   options.config = aev::plugins::collectPluginSettings(config());  // plugins.* keys
//   aev::plugins::Host host(std::move(options));
//   auto report = host.loadDirectory(dir);       // logs one line per plugin
//   if (report.hasConfigErrors()) exit(1);       // a plugin refused its configuration
//   host.registry().detector("pii.email")->create()->scan(text);
//
// Loading is single-threaded and happens before the daemon serves; afterwards the
// registry is read-only and every lookup and call is thread-safe.
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "plugins/components.h"
#include "plugins/loader.h"
#include "plugins/registry.h"

namespace aev::plugins {

struct HostOptions {
  // Daemon settings; a plugin reads its own "plugins.<plugin name>.*" keys (and
  // "plugins.<name>.enabled = false" keeps it from loading). Other keys are ignored.
  std::map<std::string, std::string> config;
  // Refuse plugin files and directories writable by group/others or owned by another
  // user than root or the daemon's (code from them runs inside the daemon).
  bool requireSafePermissions = true;
  CallLimits limits;
};

struct LoadReport {
  std::vector<PluginInfo> loaded;
  std::vector<Refusal> refused;
  std::string directoryError;  // the directory itself could not be used
  // plugins.<name>.* keys of no plugin that was found (checkPluginNamespaces).
  std::vector<std::string> unknownPluginKeys;

  // A plugin refused its configuration, or a key names no plugin: start-up must stop
  // (exit 78, as for an unknown core key).
  bool hasConfigErrors() const;
  // Every configuration problem, one per line, for the start-up error.
  std::string configErrors() const;
  // Nothing was refused (plugins disabled on purpose do not count) and the directory was
  // usable: what --check-plugins reports as success.
  bool clean() const;
  std::string summary() const;  // "3 plugins loaded, 1 refused"
  // One line per plugin and refusal, then the summary: what --check-plugins prints.
  std::string details() const;
  void merge(const LoadReport& other);
};

class Host {
 public:
  explicit Host(HostOptions options = {});
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  // Loads every "*.so" in dir (not recursive), in file name order.
  LoadReport loadDirectory(const std::string& dir);
  LoadReport loadFile(const std::string& path);

  const Registry& registry() const { return registry_; }
  // Every refusal since construction (for GET /admin/plugins).
  const std::vector<Refusal>& refusals() const { return refusals_; }

  // GET /admin/plugins: {"abi":{...},"directories":[...],"plugins":[...],"refused":[...]}.
  std::string describeJson() const;

 private:
  void note(const std::variant<PluginInfo, Refusal>& outcome, LoadReport& report);
  void publishGauges() const;

  HostOptions options_;
  std::shared_ptr<const ConfigMap> config_;
  Registry registry_;
  std::vector<Refusal> refusals_;
  std::vector<std::string> directories_;
};

// Adds to report.unknownPluginKeys each plugins.<name>.<key> of `config` whose <name> is
// no plugin found in the directories (loaded, disabled or refused by name).
void checkPluginNamespaces(const ConfigMap& config, LoadReport& report);

// The declared settings of the loaded plugins as Markdown, for --print-config-reference
// ("" when no plugin declares any).
std::string pluginSettingsMarkdown(const Registry& registry);

// Where plugins live when plugins.dir is empty: <executable dir>/../lib/agent-events/plugins.
// That is /usr/lib/agent-events/plugins for /usr/bin/agent-eventsd, and
// <build>/lib/agent-events/plugins for <build>/daemon/agent-eventsd.
std::string defaultPluginDirectory(const std::string& executablePath);

}  // namespace aev::plugins

#pragma once
// The running daemon: store, services and HTTP server, built from configuration and
// torn down in reverse order (server first, so no request sees a closed store).
#include <Poco/Util/AbstractConfiguration.h>

#include <memory>
#include <string>

#include "plugins/host.h"
#include "store/database.h"

namespace aev::app {

// Builds the plugin host from configuration and loads plugins.dir (or the default
// directory next to the executable).
std::unique_ptr<plugins::Host> makePluginHost(const Poco::Util::AbstractConfiguration& config,
                                              plugins::LoadReport& report);
plugins::LoadReport checkPlugins(const Poco::Util::AbstractConfiguration& config);
// The settings the plugins of plugins.dir declare, as Markdown ("" when none does).
std::string pluginSettingsReference(const Poco::Util::AbstractConfiguration& config);
// database.*: the store's options, with this pool size (the audit command needs two).
store::DatabaseOptions databaseOptionsFrom(const Poco::Util::AbstractConfiguration& config, int poolSize);
// The audit checkpoint key: audit.signing_key_file, else data.dir/audit-signing.key.
std::string auditKeyPath(const Poco::Util::AbstractConfiguration& config);

struct Components;

class Runtime {
 public:
  explicit Runtime(const Poco::Util::AbstractConfiguration& config);
  ~Runtime();
  void start();
  void stop();
  int port() const;
  std::string storeDescription() const;
  // No account exists yet: the first one registered becomes the instance administrator.
  bool hasNoAccounts() const;

 private:
  std::unique_ptr<Components> c_;
};

}  // namespace aev::app

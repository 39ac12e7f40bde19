#pragma once
// agent-eventsd as a Poco ServerApplication: option parsing, the configuration layers
// (defaults < properties file < AGENT_EVENTS_* environment < command line), logging,
// wiring of stores, services and routes, and the shutdown order on SIGTERM/SIGINT.
#include <Poco/Util/ServerApplication.h>

#include "app/service_manager.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace aev::app {

struct Runtime;

class Application : public Poco::Util::ServerApplication {
 public:
  Application();
  ~Application() override;

 protected:
  void initialize(Poco::Util::Application& self) override;
  void defineOptions(Poco::Util::OptionSet& options) override;
  int main(const std::vector<std::string>& args) override;

 private:
  void onOption(const std::string& name, const std::string& value);
  void loadConfiguration();
  void printHelp();

  bool helpRequested_ = false;
  bool versionRequested_ = false;
  bool checkPlugins_ = false;
  bool restoreInPlace_ = false;           // --in-place, for the restore command
  std::string configReferenceRequested_;  // the --print-config-* option given, if any
  std::string configFile_;
  std::map<std::string, std::string> commandLine_;
  // Unknown keys of the file, the environment and --set (config_keys.h): start-up fails
  // on them (exit 78), or only warns when config.unknown_keys = warn.
  std::vector<std::string> unknownKeys_;
  // Waits for SIGTERM/SIGINT/SIGQUIT, feeding systemd's watchdog meanwhile if it has one.
  int waitUntilAskedToStop();

  ServiceManager serviceManager_;
  std::unique_ptr<Runtime> runtime_;
};

}  // namespace aev::app

#include "app/application.h"

#include <Poco/Crypto/OpenSSLInitializer.h>
#include <Poco/Environment.h>
#include <Poco/File.h>
#include <Poco/Util/HelpFormatter.h>
#include <Poco/Util/IntValidator.h>
#include <Poco/Util/MapConfiguration.h>
#include <Poco/Util/PropertyFileConfiguration.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>

extern char** environ;

#include "app/audit_command.h"
#include "app/backup_command.h"
#include "app/config_defaults.h"
#include "app/config_keys.h"
#include "app/config_reference.h"
#include "app/logging.h"
#include "app/runtime.h"
#include "app/self_probe.h"
#include "app/termination_signals.h"
#include "common/exceptions.h"
#include "plugins/host.h"

namespace aev::app {

using Poco::Util::Option;
using Poco::Util::OptionCallback;

namespace {
// Priorities of Poco's LayeredConfiguration: lower number wins.
constexpr int kCommandLinePriority = -300;
constexpr int kEnvironmentPriority = -200;
constexpr int kFilePriority = -100;
constexpr int kDefaultsPriority = 100;

// Every key a configuration layer sets (its leaves, at any depth).
void collectKeys(const Poco::Util::AbstractConfiguration& config, const std::string& prefix,
                 std::vector<std::string>& out) {
  Poco::Util::AbstractConfiguration::Keys keys;
  config.keys(prefix, keys);
  for (const auto& k : keys) {
    const std::string full = prefix.empty() ? k : prefix + "." + k;
    if (config.hasOption(full)) out.push_back(full);
    collectKeys(config, full, out);
  }
}

std::vector<std::string> environmentNames() {
  std::vector<std::string> names;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry(*e);
    names.push_back(entry.substr(0, entry.find('=')));
  }
  return names;
}

// Where to look for the properties file when --config is not given.
std::string findDefaultConfigFile() {
  if (auto env = Poco::Environment::get("AGENT_EVENTS_CONFIG", ""); !env.empty()) return env;
  for (const char* candidate : {"config/agent-eventsd.properties", "/etc/agent-events/agent-eventsd.properties"})
    if (std::filesystem::exists(candidate)) return candidate;
  return "";
}
}  // namespace

Application::Application() { setUnixOptions(true); }

Application::~Application() = default;

void Application::defineOptions(Poco::Util::OptionSet& options) {
  ServerApplication::defineOptions(options);  // --daemon, --pidfile, --umask
  auto cb = OptionCallback<Application>(this, &Application::onOption);
  options.addOption(Option("help", "h", "print this help and exit").callback(cb));
  options.addOption(Option("version", "v", "print the version and exit").callback(cb));
  options.addOption(
      Option("print-config-reference", "", "print every configuration key as Markdown and exit").callback(cb));
  options.addOption(
      Option("print-config-file", "", "print the annotated default properties file and exit").callback(cb));
  options.addOption(
      Option("config", "c", "properties file (default: config/agent-eventsd.properties, then /etc/agent-events/)")
          .argument("FILE")
          .callback(cb));
  options.addOption(Option("port", "p", "HTTP port (http.port)")
                        .argument("PORT")
                        .validator(new Poco::Util::IntValidator(0, 65535))
                        .callback(cb));
  options.addOption(Option("host", "", "address to listen on (http.host)").argument("ADDR").callback(cb));
  options.addOption(Option("data-dir", "d", "data directory (data.dir)").argument("DIR").callback(cb));
  options.addOption(
      Option("database-url", "", "postgresql://... for PostgreSQL; empty for SQLite in the data dir (database.url)")
          .argument("URL")
          .callback(cb));
  options.addOption(Option("plugins-dir", "", "directories of plugin .so files, comma-separated (plugins.dir)")
                        .argument("DIRS")
                        .callback(cb));
  options.addOption(
      Option("check-plugins", "", "load and validate the plugins, print what loaded or was refused, and exit")
          .callback(cb));
  options.addOption(Option("in-place", "",
                           "with restore: the store in place was restored by hand (copied files, pg_restore, psql); "
                           "make it safe to serve")
                        .callback(cb));
  options.addOption(Option("set", "s", "set any configuration key: --set key=value")
                        .argument("KEY=VALUE")
                        .repeatable(true)
                        .callback(cb));
}

void Application::onOption(const std::string& name, const std::string& value) {
  if (name == "help") {
    helpRequested_ = true;
    stopOptionsProcessing();
  } else if (name == "version") {
    versionRequested_ = true;
    stopOptionsProcessing();
  } else if (name == "print-config-reference" || name == "print-config-file") {
    configReferenceRequested_ = name;
    stopOptionsProcessing();
  } else if (name == "config") {
    configFile_ = value;
  } else if (name == "port") {
    commandLine_["http.port"] = value;
  } else if (name == "host") {
    commandLine_["http.host"] = value;
  } else if (name == "data-dir") {
    commandLine_["data.dir"] = value;
  } else if (name == "database-url") {
    commandLine_["database.url"] = value;
  } else if (name == "plugins-dir") {
    commandLine_["plugins.dir"] = value;
  } else if (name == "in-place") {
    restoreInPlace_ = true;
  } else if (name == "check-plugins") {
    checkPlugins_ = true;
  } else if (name == "set") {
    auto eq = value.find('=');
    if (eq == std::string::npos || eq == 0) throw Poco::InvalidArgumentException("--set needs key=value");
    commandLine_[value.substr(0, eq)] = value.substr(eq + 1);
  }
}

void Application::initialize(Poco::Util::Application& self) {
  if (helpRequested_ || versionRequested_ || !configReferenceRequested_.empty()) return;
  loadConfiguration();
  ServerApplication::initialize(self);
}

void Application::loadConfiguration() {
  Poco::AutoPtr<Poco::Util::MapConfiguration> defaults = new Poco::Util::MapConfiguration;
  Poco::AutoPtr<Poco::Util::MapConfiguration> environment = new Poco::Util::MapConfiguration;
  for (const auto& [key, value] : configDefaults()) {
    defaults->setString(key, value);
    auto envName = envNameFor(key);
    if (Poco::Environment::has(envName)) environment->setString(key, Poco::Environment::get(envName));
  }
  config().add(defaults, kDefaultsPriority, false);

  std::string file = configFile_.empty() ? findDefaultConfigFile() : configFile_;
  if (!file.empty()) {
    if (!std::filesystem::exists(file)) throw Poco::FileNotFoundException("configuration file " + file);
    Poco::AutoPtr<Poco::Util::PropertyFileConfiguration> properties = new Poco::Util::PropertyFileConfiguration(file);
    std::vector<std::string> keys;
    collectKeys(*properties, "", keys);
    unknownKeys_ = unknownKeysIn(keys, "in " + file);
    config().add(properties, kFilePriority, false);
  }
  for (auto& line : unknownEnvironmentVariables(environmentNames())) unknownKeys_.push_back(std::move(line));
  config().add(environment, kEnvironmentPriority, false);

  Poco::AutoPtr<Poco::Util::MapConfiguration> commandLine = new Poco::Util::MapConfiguration;
  std::vector<std::string> setKeys;
  for (const auto& [key, value] : commandLine_) {
    commandLine->setString(key, value);
    setKeys.push_back(key);
  }
  for (auto& line : unknownKeysIn(setKeys, "from --set")) unknownKeys_.push_back(std::move(line));
  config().add(commandLine, kCommandLinePriority, false);
  config().setString("config.file", file);
}

void Application::printHelp() {
  Poco::Util::HelpFormatter help(options());
  help.setCommand("agent-eventsd");
  help.setUsage("[options] [audit verify [ORG_ID] | backup DIR | restore DIR | restore --in-place]");
  help.setHeader(
      "agent-events daemon: ingest, stream and govern AI-agent events.\n"
      "Configuration: defaults < properties file < AGENT_EVENTS_* environment < options.");
  help.setUnixStyle(true);
  help.format(std::cout);
}

int Application::main(const std::vector<std::string>& args) {
  if (helpRequested_) {
    printHelp();
    return EXIT_OK;
  }
  if (versionRequested_) {
    std::cout << "agent-eventsd " << AEV_VERSION << std::endl;
    return EXIT_OK;
  }
  if (!configReferenceRequested_.empty()) {
    if (configReferenceRequested_ == "print-config-reference") {
      writeConfigReferenceMarkdown(std::cout);
      // Then the settings the plugins of plugins.dir declare (none for the standard ones).
      try {
        spdlog::set_level(spdlog::level::off);  // loading logs; this output is Markdown only
        loadConfiguration();
        std::cout << pluginSettingsReference(config());
      } catch (const std::exception& e) {
        std::cerr << "agent-eventsd: plugin settings not listed: " << describeException(e) << std::endl;
      }
    } else
      writeConfigPropertiesFile(std::cout);
    return EXIT_OK;
  }
  // Poco::Crypto reference-counts OpenSSL set-up: every DigestEngine (one per JWT
  // check) holds a reference, and when the count drops to zero it tears the locks down
  // while another thread may be initialising them again — a crash under concurrent
  // logins. One reference held for the whole run keeps the count above zero.
  Poco::Crypto::OpenSSLInitializer cryptoForTheWholeRun;
  try {
    setupLogging(config().getString("log.level"), config().getString("log.format"), config().getString("log.file"));
    if (!unknownKeys_.empty()) {
      // A typo must not silently mean "the default": refuse to start, unless the operator
      // shares one file across versions and asked for warnings only.
      const auto mode = config().getString("config.unknown_keys");
      if (mode != "error" && mode != "warn")
        throw std::invalid_argument("config.unknown_keys must be error or warn, not '" + mode + "'");
      for (const auto& line : unknownKeys_) {
        if (mode == "warn") {
          spdlog::warn("{} (ignored: config.unknown_keys = warn)", line);
        } else {
          spdlog::critical("{}", line);
          std::cerr << "agent-eventsd: " << line << std::endl;
        }
      }
      if (mode == "error") {
        std::cerr << "agent-eventsd: start-up refused: fix the keys above, or set config.unknown_keys = warn to only "
                     "warn about them"
                  << std::endl;
        return EXIT_CONFIG;
      }
    }
    if (!args.empty() && args[0] == "audit")
      return runAuditCommand(config(), std::vector<std::string>(args.begin() + 1, args.end()), std::cout);
    if (!args.empty() && args[0] == "backup")
      return runBackupCommand(config(), std::vector<std::string>(args.begin() + 1, args.end()), std::cout);
    if (!args.empty() && args[0] == "restore")
      return runRestoreCommand(config(), std::vector<std::string>(args.begin() + 1, args.end()), restoreInPlace_,
                               std::cout);
    if (restoreInPlace_) {
      std::cerr << "agent-eventsd: --in-place goes with the restore command (see --help)" << std::endl;
      return EXIT_USAGE;
    }
    if (!args.empty()) {
      std::cerr << "agent-eventsd: unknown command " << args[0]
                << " (commands: audit verify, backup, restore; see --help)" << std::endl;
      return EXIT_USAGE;
    }
    if (checkPlugins_) {
      // Like `nginx -t`: load and validate, report, exit 1 on any refusal (docs/plugins.md);
      // a plugin disabled on purpose is not a refusal.
      auto report = checkPlugins(config());
      std::cout << report.details() << std::endl;
      return report.clean() ? EXIT_OK : 1;
    }
    const auto started = std::chrono::steady_clock::now();
    blockTerminationSignals();  // before the runtime starts any thread
    runtime_ = std::make_unique<Runtime>(config());
    runtime_->start();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    spdlog::info("agent-eventsd {} listening on http://{}:{} (store: {}, started in {:.0f} ms)", AEV_VERSION,
                 config().getString("http.host"), runtime_->port(), runtime_->storeDescription(), ms);
    serviceManager_.ready(
        fmt::format("listening on port {} (store: {})", runtime_->port(), runtime_->storeDescription()));
    if (runtime_->hasNoAccounts()) {
      // The first minute of a new instance: say where to go next.
      const auto base = fmt::format("http://{}:{}", probeHostFor(config().getString("http.host")), runtime_->port());
      spdlog::info(
          "no account yet: open {}/console/ and choose Create account (the first account administers this "
          "instance), or POST {}/auth/register; docs: README.md's five-minute tour",
          base, base);
    }
  } catch (const std::exception& e) {
    spdlog::critical("start-up failed: {}", describeException(e));
    std::cerr << "agent-eventsd: start-up failed: " << describeException(e) << std::endl;
    runtime_.reset();
    return EXIT_CONFIG;
  }
  const int signal = waitUntilAskedToStop();
  serviceManager_.stopping();
  spdlog::info("shutting down on {}: draining requests", strsignal(signal));
  runtime_->stop();
  runtime_.reset();
  spdlog::info("stopped");
  spdlog::shutdown();
  return EXIT_OK;
}

int Application::waitUntilAskedToStop() {
  if (!serviceManager_.watchdogEnabled()) return waitForTerminationSignal();
  // WatchdogSec= is set: prove at every interval that a client would get an answer.
  const auto interval = serviceManager_.watchdogInterval();
  const auto host = probeHostFor(config().getString("http.host"));
  const auto probeTimeout = std::min(interval, std::chrono::milliseconds(5000));
  spdlog::info("systemd watchdog: probing GET /healthz every {} ms", interval.count());
  return waitForTerminationSignal(interval, [&] {
    if (answersHealthCheck(host, runtime_->port(), probeTimeout))
      serviceManager_.watchdogAlive();
    else
      spdlog::warn(
          "systemd watchdog: GET /healthz on {}:{} did not answer within {} ms; not telling systemd "
          "we are alive",
          host, runtime_->port(), probeTimeout.count());
  });
}

}  // namespace aev::app

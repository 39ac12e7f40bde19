#pragma once
// The host's side of the opaque handles of plugin_abi.h. They are C struct tags in the
// global namespace, so they are defined here once; only plugins/ includes this file.
#include <agentevents/plugin_abi.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "plugins/kinds.h"
#include "plugins/results.h"

namespace aev::plugins {

class Registry;
using ConfigMap = std::map<std::string, std::string>;

// A setting a plugin declared (aev_setting_v1, ABI 1.1), copied.
struct SettingSpec {
  std::string name;  // under plugins.<plugin>.
  aev_setting_type type = AEV_SETTING_STRING;
  std::optional<std::string> defaultValue;
  std::string description;
  bool secret = false;
};

// What register_* collected during aev_plugin_register_v1, committed to the registry
// only if the whole plugin is accepted.
struct PendingComponent {
  Kind kind;
  std::string name;
  std::string description;
  std::string configSchema;
  aev_detector_v1 detector{};
  aev_exporter_v1 exporter{};
  aev_alert_sink_v1 alertSink{};
  aev_dimension_v1 dimension{};
};

}  // namespace aev::plugins

// One per loaded plugin; lives for the rest of the process (plugins may keep the pointer).
struct aev_host {
  static constexpr std::size_t kMaxCounters = 64;

  std::string pluginName;
  std::string configPrefix;  // "plugins.<name>."
  std::shared_ptr<const aev::plugins::ConfigMap> config;
  // Declared settings by name (registration only writes them; read-only afterwards).
  std::map<std::string, aev::plugins::SettingSpec> settings;

  std::mutex counterMutex;  // registration only; metric_add is lock-free
  std::vector<std::string> counterNames;
  std::array<std::atomic<std::atomic<std::int64_t>*>, kMaxCounters> counters{};
};

// One per callback invocation, on the caller's stack. Which host functions apply
// depends on purpose; they refuse to work on another thread or for another purpose.
struct aev_call {
  enum class Purpose { Register, Create, Scan, Key, Delivery };

  explicit aev_call(Purpose p, std::chrono::steady_clock::duration budget)
      : purpose(p), thread(std::this_thread::get_id()), deadline(std::chrono::steady_clock::now() + budget) {}

  Purpose purpose;
  std::thread::id thread;
  std::chrono::steady_clock::time_point deadline;
  std::string error;

  // Scan
  std::string_view scanText;
  std::vector<aev::plugins::Finding>* findings = nullptr;
  std::size_t maxFindings = 0;
  std::size_t rejected = 0;
  std::string firstRejection;

  // Key
  std::optional<std::string>* key = nullptr;

  // Delivery
  int responseStatus = 0;
  std::string responseBody;
  std::optional<std::chrono::milliseconds> retryAfter;
};

// Valid only while aev_plugin_register_v1 runs.
struct aev_registrar {
  const aev::plugins::Registry* registry = nullptr;  // for duplicate names across plugins
  std::string pluginName;
  std::thread::id thread;
  bool open = true;
  std::vector<aev::plugins::PendingComponent> components;
  std::vector<std::string> problems;  // any entry refuses the plugin
  aev_host* host = nullptr;           // of the plugin registering (its declared settings)
};

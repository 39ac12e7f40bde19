#pragma once
// Host-side handles on plugin components (a detector, exporter, alert sink or dimension
// of a loaded plugin) and on their instances. Every call into plugin code goes through
// these classes, which guard it: exceptions are caught, unknown results are mapped to
// AEV_ERR_INTERNAL, outputs are validated, the call is timed and counted (CallStats),
// and failures are logged (throttled). Results are returned as values (results.h).
//
// Threading (plugin_abi.h): detector scan and dimension key run concurrently on one
// instance; exporter and alert sink calls are serialised per instance here unless the
// component declared AEV_FLAG_CONCURRENT. Create/destroy belong to a control thread.
#include <agentevents/plugin_abi.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "plugins/call_stats.h"
#include "plugins/host_handles.h"
#include "plugins/kinds.h"
#include "plugins/results.h"

namespace aev::plugins {

// Time budgets the host hands to plugins (aev_call deadline) and output caps.
struct CallLimits {
  std::chrono::milliseconds createBudget{5000};
  std::chrono::milliseconds scanBudget{100};
  std::chrono::milliseconds keyBudget{100};
  std::chrono::milliseconds exportTimeout{10000};
  std::chrono::milliseconds alertTimeout{10000};
  std::size_t maxFindingsPerScan = 1000;
};

// create()/open() failed: status is the plugin's (AEV_ERR_CONFIG for a bad configuration).
class PluginError : public std::runtime_error {
 public:
  PluginError(aev_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  aev_status status() const { return status_; }

 private:
  aev_status status_;
};

struct ComponentInfo {
  Kind kind = Kind::Detector;
  std::string name;
  std::string description;
  std::string configSchema;  // JSON Schema text, may be empty
  std::string plugin;        // name of the plugin that provides it
  std::uint32_t flags = 0;
  std::uint32_t targets = 0;  // detectors: AEV_TARGET_* bits (0 = all)
  std::uint32_t signals = 0;  // exporters: AEV_SIGNAL_* bits
};

// Fields every component record shares.
class ComponentBase {
 public:
  ComponentBase(ComponentInfo info, aev_host* host, const CallLimits& limits)
      : info_(std::move(info)), host_(host), limits_(limits), stats_(info_.plugin, info_.kind, info_.name) {}
  const ComponentInfo& info() const { return info_; }
  CallStats& stats() const { return stats_; }

 protected:
  ComponentInfo info_;
  aev_host* host_;
  CallLimits limits_;
  mutable CallStats stats_;
};

class DetectorInstance;
class ExporterInstance;
class AlertSinkInstance;
class DimensionInstance;

class DetectorComponent : public ComponentBase, public std::enable_shared_from_this<DetectorComponent> {
 public:
  DetectorComponent(ComponentInfo info, const aev_detector_v1& vt, aev_host* host, const CallLimits& limits)
      : ComponentBase(std::move(info), host, limits), vt_(vt) {}
  // Throws PluginError when the plugin refuses the configuration (a JSON object).
  std::shared_ptr<DetectorInstance> create(std::string_view configJson = "{}") const;
  bool supportsTarget(aev_target target) const { return info_.targets == 0 || (info_.targets & target) != 0; }

 private:
  friend class DetectorInstance;
  aev_detector_v1 vt_;
};

class DetectorInstance {
 public:
  DetectorInstance(std::shared_ptr<const DetectorComponent> component, void* handle)
      : component_(std::move(component)), handle_(handle) {}
  ~DetectorInstance();
  DetectorInstance(const DetectorInstance&) = delete;
  DetectorInstance& operator=(const DetectorInstance&) = delete;

  // Safe to call from many threads at once.
  ScanResult scan(std::string_view text, aev_target target = AEV_TARGET_REQUEST, std::string_view eventType = {},
                  std::string_view fieldPath = {}) const;
  const ComponentInfo& info() const { return component_->info(); }

 private:
  std::shared_ptr<const DetectorComponent> component_;
  void* handle_;
};

class ExporterComponent : public ComponentBase, public std::enable_shared_from_this<ExporterComponent> {
 public:
  ExporterComponent(ComponentInfo info, const aev_exporter_v1& vt, aev_host* host, const CallLimits& limits)
      : ComponentBase(std::move(info), host, limits), vt_(vt) {}
  std::shared_ptr<ExporterInstance> open(std::string_view configJson) const;  // throws PluginError
  bool supportsSignal(aev_signal signal) const { return (info_.signals & signal) != 0; }

 private:
  friend class ExporterInstance;
  aev_exporter_v1 vt_;
};

class ExporterInstance {
 public:
  ExporterInstance(std::shared_ptr<const ExporterComponent> component, void* handle)
      : component_(std::move(component)), handle_(handle) {}
  ~ExporterInstance();
  ExporterInstance(const ExporterInstance&) = delete;
  ExporterInstance& operator=(const ExporterInstance&) = delete;

  // One delivery attempt of a batch (a JSON array of stored events) for one signal.
  // timeout defaults to CallLimits::exportTimeout.
  DeliveryResult exportBatch(aev_signal signal, std::string_view eventsJson, std::uint64_t eventCount,
                             std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  const ComponentInfo& info() const { return component_->info(); }

 private:
  std::shared_ptr<const ExporterComponent> component_;
  void* handle_;
  std::mutex serial_;  // held per call unless AEV_FLAG_CONCURRENT
};

class AlertSinkComponent : public ComponentBase, public std::enable_shared_from_this<AlertSinkComponent> {
 public:
  AlertSinkComponent(ComponentInfo info, const aev_alert_sink_v1& vt, aev_host* host, const CallLimits& limits)
      : ComponentBase(std::move(info), host, limits), vt_(vt) {}
  std::shared_ptr<AlertSinkInstance> open(std::string_view configJson) const;  // throws PluginError

 private:
  friend class AlertSinkInstance;
  aev_alert_sink_v1 vt_;
};

class AlertSinkInstance {
 public:
  AlertSinkInstance(std::shared_ptr<const AlertSinkComponent> component, void* handle)
      : component_(std::move(component)), handle_(handle) {}
  ~AlertSinkInstance();
  AlertSinkInstance(const AlertSinkInstance&) = delete;
  AlertSinkInstance& operator=(const AlertSinkInstance&) = delete;

  DeliveryResult deliver(std::string_view alertJson, std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  const ComponentInfo& info() const { return component_->info(); }

 private:
  std::shared_ptr<const AlertSinkComponent> component_;
  void* handle_;
  std::mutex serial_;
};

class DimensionComponent : public ComponentBase, public std::enable_shared_from_this<DimensionComponent> {
 public:
  DimensionComponent(ComponentInfo info, const aev_dimension_v1& vt, aev_host* host, const CallLimits& limits)
      : ComponentBase(std::move(info), host, limits), vt_(vt) {}
  std::shared_ptr<DimensionInstance> create(std::string_view configJson = "{}") const;  // throws PluginError

 private:
  friend class DimensionInstance;
  aev_dimension_v1 vt_;
};

class DimensionInstance {
 public:
  DimensionInstance(std::shared_ptr<const DimensionComponent> component, void* handle)
      : component_(std::move(component)), handle_(handle) {}
  ~DimensionInstance();
  DimensionInstance(const DimensionInstance&) = delete;
  DimensionInstance& operator=(const DimensionInstance&) = delete;

  // Safe to call from many threads at once. parameter: e.g. the tag key of "tag".
  KeyResult key(std::string_view eventJson, std::string_view parameter = {}) const;
  const ComponentInfo& info() const { return component_->info(); }

 private:
  std::shared_ptr<const DimensionComponent> component_;
  void* handle_;
};

}  // namespace aev::plugins

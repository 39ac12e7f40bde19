#pragma once
// The registry of everything loaded plugins provide: detectors, exporters, alert sinks
// and dimensions, by name, plus the plugins themselves. Filled by the loader at start-up
// (single-threaded), read-only afterwards, so lookups need no lock.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "plugins/components.h"
#include "plugins/kinds.h"

namespace aev::plugins {

struct PluginInfo {
  std::string name;
  std::string version;
  std::string vendor;
  std::string supportUrl;
  std::string path;
  std::uint16_t abiMajor = 0;
  std::uint16_t abiMinor = 0;
  std::vector<SettingSpec> settings;  // declared (ABI 1.1), by name
};

class Registry {
 public:
  using DetectorPtr = std::shared_ptr<const DetectorComponent>;
  using ExporterPtr = std::shared_ptr<const ExporterComponent>;
  using AlertSinkPtr = std::shared_ptr<const AlertSinkComponent>;
  using DimensionPtr = std::shared_ptr<const DimensionComponent>;

  const std::vector<PluginInfo>& plugins() const { return plugins_; }
  const std::vector<DetectorPtr>& detectors() const { return detectors_; }
  const std::vector<ExporterPtr>& exporters() const { return exporters_; }
  const std::vector<AlertSinkPtr>& alertSinks() const { return alertSinks_; }
  const std::vector<DimensionPtr>& dimensions() const { return dimensions_; }

  // nullptr when no loaded plugin provides that name.
  DetectorPtr detector(std::string_view name) const;
  ExporterPtr exporter(std::string_view name) const;
  AlertSinkPtr alertSink(std::string_view name) const;
  DimensionPtr dimension(std::string_view name) const;
  const PluginInfo* plugin(std::string_view name) const;

  // Name of the plugin that provides a component of that kind and name, or "".
  std::string ownerOf(Kind kind, std::string_view name) const;

  // Appends a JSON array of the plugins with their components and call statistics
  // (part of GET /admin/plugins, see Host::describeJson).
  void appendPluginsJson(std::string& out) const;

  // Loader only (start-up thread).
  void add(PluginInfo plugin, std::vector<PendingComponent> components, aev_host* host, const CallLimits& limits);

 private:
  std::vector<PluginInfo> plugins_;
  std::vector<DetectorPtr> detectors_;
  std::vector<ExporterPtr> exporters_;
  std::vector<AlertSinkPtr> alertSinks_;
  std::vector<DimensionPtr> dimensions_;
};

}  // namespace aev::plugins

#pragma once
// Open exporter plugin instances, one per export destination, reopened when the
// destination changes. The destination's settings become the plugin's configuration
// (endpointUrl, encoding, serviceName, headers) plus the daemon's outbound policy
// (allowPrivateAddresses, timeoutMs), so plugins POST under docs/features.md#outbound-requests as well.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "plugins/components.h"
#include "plugins/registry.h"
#include "store/export_destination_repository.h"

namespace aev::exports {

class ExporterPool {
 public:
  ExporterPool(const plugins::Registry* registry, bool allowPrivateAddresses, std::chrono::milliseconds timeout)
      : registry_(registry), allowPrivate_(allowPrivateAddresses), timeout_(timeout) {}

  // The exporter component a kind names ("otlp", "http"), nullptr when no plugin loaded it.
  plugins::Registry::ExporterPtr component(const std::string& kind) const;
  // Throws plugins::PluginError when the plugin refuses the configuration.
  std::shared_ptr<plugins::ExporterInstance> instanceFor(const store::ExportDestinationRecord& d);
  void forget(std::int64_t destinationId);
  std::chrono::milliseconds timeout() const { return timeout_; }

  std::string configJson(const store::ExportDestinationRecord& d) const;

 private:
  struct Open {
    std::int64_t updatedAt = 0;
    std::shared_ptr<plugins::ExporterInstance> instance;
  };
  const plugins::Registry* registry_;
  bool allowPrivate_;
  std::chrono::milliseconds timeout_;
  std::mutex mutex_;
  std::map<std::int64_t, Open> open_;
};

}  // namespace aev::exports

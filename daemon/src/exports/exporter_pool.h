#pragma once
// Open exporter plugin instances, one per export destination, reopened when the
// destination changes. What an instance receives (docs/plugins.md#what-an-exporter-instance-receives):
// the destination's own `config` object (secret keys opened), then the destination's
// fields (endpointUrl when set, encoding for otlp, serviceName when set, headers), the
// daemon's outbound policy (allowPrivateAddresses, timeoutMs), so plugins POST under
// docs/features.md#outbound-requests as well, and who it is (destinationId, orgId, name).
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "plugins/components.h"
#include "plugins/registry.h"
#include "store/export_destination_repository.h"

namespace aev::webhooks {
class SecretBox;
}

namespace aev::exports {

// The keys of an exporter's configuration the host sets from the destination itself; a
// destination's `config` may not set them.
const std::vector<std::string>& reservedConfigKeys();

class ExporterPool {
 public:
  ExporterPool(const plugins::Registry* registry, const webhooks::SecretBox& secrets, bool allowPrivateAddresses,
               std::chrono::milliseconds timeout)
      : registry_(registry), secrets_(secrets), allowPrivate_(allowPrivateAddresses), timeout_(timeout) {}

  // The exporter component a kind names ("otlp", "http"), nullptr when no plugin loaded it.
  plugins::Registry::ExporterPtr component(const std::string& kind) const;
  // Every kind a destination may have: the loaded exporters, by name.
  std::vector<std::string> kinds() const;
  // Throws plugins::PluginError when the plugin refuses the configuration.
  std::shared_ptr<plugins::ExporterInstance> instanceFor(const store::ExportDestinationRecord& d);
  void forget(std::int64_t destinationId);
  std::chrono::milliseconds timeout() const { return timeout_; }

  // What the exporter's open() receives for `d` (its config's secret keys opened).
  std::string configJson(const store::ExportDestinationRecord& d) const;
  const webhooks::SecretBox& secrets() const { return secrets_; }

 private:
  struct Open {
    std::int64_t updatedAt = 0;
    std::shared_ptr<plugins::ExporterInstance> instance;
  };
  const plugins::Registry* registry_;
  const webhooks::SecretBox& secrets_;
  bool allowPrivate_;
  std::chrono::milliseconds timeout_;
  std::mutex mutex_;
  std::map<std::int64_t, Open> open_;
};

}  // namespace aev::exports

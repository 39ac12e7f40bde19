#include "exports/exporter_pool.h"

#include <Poco/JSON/Object.h>

#include <sstream>

namespace aev::exports {

plugins::Registry::ExporterPtr ExporterPool::component(const std::string& kind) const {
  return registry_ ? registry_->exporter(kind) : nullptr;
}

std::string ExporterPool::configJson(const store::ExportDestinationRecord& d) const {
  Poco::JSON::Object cfg;
  cfg.set("endpointUrl", d.endpointUrl);
  if (d.kind == "otlp") cfg.set("encoding", d.encoding);
  if (d.serviceName && !d.serviceName->empty()) cfg.set("serviceName", *d.serviceName);
  Poco::JSON::Object::Ptr headers = new Poco::JSON::Object;
  for (const auto& [k, v] : d.headers) headers->set(k, v);
  cfg.set("headers", headers);
  cfg.set("allowPrivateAddresses", allowPrivate_);
  cfg.set("timeoutMs", static_cast<std::int64_t>(timeout_.count()));
  std::ostringstream out;
  cfg.stringify(out);
  return out.str();
}

std::shared_ptr<plugins::ExporterInstance> ExporterPool::instanceFor(const store::ExportDestinationRecord& d) {
  {
    std::lock_guard lock(mutex_);
    auto it = open_.find(d.id);
    if (it != open_.end() && it->second.updatedAt == d.updatedAt) return it->second.instance;
  }
  auto comp = component(d.kind);
  if (!comp) throw plugins::PluginError(AEV_ERR_CONFIG, "no loaded exporter plugin provides kind " + d.kind);
  auto instance = comp->open(configJson(d));
  std::lock_guard lock(mutex_);
  open_[d.id] = Open{d.updatedAt, instance};
  return instance;
}

void ExporterPool::forget(std::int64_t destinationId) {
  std::lock_guard lock(mutex_);
  open_.erase(destinationId);
}

}  // namespace aev::exports

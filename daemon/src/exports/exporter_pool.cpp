#include "exports/exporter_pool.h"

#include <Poco/JSON/Object.h>

#include <sstream>

#include "plugins/instance_config.h"

namespace aev::exports {

const std::vector<std::string>& reservedConfigKeys() {
  static const std::vector<std::string> keys = {"endpointUrl",           "encoding",  "serviceName",   "headers",
                                                "allowPrivateAddresses", "timeoutMs", "destinationId", "orgId",
                                                "destinationName"};
  return keys;
}

plugins::Registry::ExporterPtr ExporterPool::component(const std::string& kind) const {
  return registry_ ? registry_->exporter(kind) : nullptr;
}

std::vector<std::string> ExporterPool::kinds() const {
  std::vector<std::string> out;
  if (registry_)
    for (const auto& e : registry_->exporters()) out.push_back(e->info().name);
  return out;
}

std::string ExporterPool::configJson(const store::ExportDestinationRecord& d) const {
  auto opened = plugins::openConfig(d.config, secrets_);
  Poco::JSON::Object& cfg = *opened;
  if (!d.endpointUrl.empty()) cfg.set("endpointUrl", d.endpointUrl);
  if (d.kind == "otlp") cfg.set("encoding", d.encoding);
  if (d.serviceName && !d.serviceName->empty()) cfg.set("serviceName", *d.serviceName);
  Poco::JSON::Object::Ptr headers = new Poco::JSON::Object;
  for (const auto& [k, v] : d.headers) headers->set(k, v);
  cfg.set("headers", headers);
  cfg.set("allowPrivateAddresses", allowPrivate_);
  cfg.set("timeoutMs", static_cast<std::int64_t>(timeout_.count()));
  cfg.set("destinationId", std::to_string(d.id));
  cfg.set("orgId", std::to_string(d.orgId));
  cfg.set("destinationName", d.name);
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

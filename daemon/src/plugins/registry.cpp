#include "plugins/registry.h"

#include <cstdio>

#include "common/json_text.h"

namespace aev::plugins {

namespace {

template <class Ptr>
Ptr findByName(const std::vector<Ptr>& list, std::string_view name) {
  for (const auto& c : list)
    if (c->info().name == name) return c;
  return nullptr;
}

void appendStatNumber(std::string& out, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  out += buf;
}

void appendComponent(std::string& out, const ComponentBase& c) {
  const auto& info = c.info();
  auto s = c.stats().snapshot();
  out += "{\"kind\":";
  appendJsonString(out, kindName(info.kind));
  out += ",\"name\":";
  appendJsonString(out, info.name);
  out += ",\"description\":";
  appendJsonString(out, info.description);
  if (info.kind == Kind::Detector) {
    out += ",\"targets\":[";
    bool first = true;
    for (auto [bit, label] : {std::pair{AEV_TARGET_REQUEST, "request"}, std::pair{AEV_TARGET_RESPONSE, "response"},
                              std::pair{AEV_TARGET_TOOL_CALL, "tool_call"}}) {
      if (info.targets != 0 && !(info.targets & static_cast<std::uint32_t>(bit))) continue;
      if (!first) out += ',';
      first = false;
      appendJsonString(out, label);
    }
    out += ']';
  }
  if (info.kind == Kind::Exporter) {
    out += ",\"signals\":[";
    bool first = true;
    for (auto [bit, label] : {std::pair{AEV_SIGNAL_TRACES, "traces"}, std::pair{AEV_SIGNAL_LOGS, "logs"},
                              std::pair{AEV_SIGNAL_METRICS, "metrics"}}) {
      if (!(info.signals & static_cast<std::uint32_t>(bit))) continue;
      if (!first) out += ',';
      first = false;
      appendJsonString(out, label);
    }
    out += ']';
  }
  out += ",\"hasConfigSchema\":";
  out += info.configSchema.empty() ? "false" : "true";
  out += ",\"calls\":" + std::to_string(s.calls);
  out += ",\"failures\":" + std::to_string(s.failures);
  out += ",\"exceptions\":" + std::to_string(s.exceptions);
  out += ",\"invalidOutputs\":" + std::to_string(s.invalidOutputs);
  out += ",\"avgLatencyMs\":";
  appendStatNumber(out, s.avgLatencyMs);
  out += ",\"maxLatencyMs\":";
  appendStatNumber(out, s.maxLatencyMs);
  out += '}';
}

}  // namespace

Registry::DetectorPtr Registry::detector(std::string_view name) const { return findByName(detectors_, name); }
Registry::ExporterPtr Registry::exporter(std::string_view name) const { return findByName(exporters_, name); }
Registry::AlertSinkPtr Registry::alertSink(std::string_view name) const { return findByName(alertSinks_, name); }
Registry::DimensionPtr Registry::dimension(std::string_view name) const { return findByName(dimensions_, name); }

const PluginInfo* Registry::plugin(std::string_view name) const {
  for (const auto& p : plugins_)
    if (p.name == name) return &p;
  return nullptr;
}

std::string Registry::ownerOf(Kind kind, std::string_view name) const {
  const ComponentBase* c = nullptr;
  switch (kind) {
    case Kind::Detector: c = detector(name).get(); break;
    case Kind::Exporter: c = exporter(name).get(); break;
    case Kind::AlertSink: c = alertSink(name).get(); break;
    case Kind::Dimension: c = dimension(name).get(); break;
  }
  return c ? c->info().plugin : std::string();
}

void Registry::add(PluginInfo plugin, std::vector<PendingComponent> components, aev_host* host,
                   const CallLimits& limits) {
  for (auto& p : components) {
    ComponentInfo info;
    info.kind = p.kind;
    info.name = std::move(p.name);
    info.description = std::move(p.description);
    info.configSchema = std::move(p.configSchema);
    info.plugin = plugin.name;
    switch (p.kind) {
      case Kind::Detector:
        info.flags = p.detector.flags;
        info.targets = p.detector.targets;
        detectors_.push_back(std::make_shared<DetectorComponent>(std::move(info), p.detector, host, limits));
        break;
      case Kind::Exporter:
        info.flags = p.exporter.flags;
        info.signals = p.exporter.signals;
        exporters_.push_back(std::make_shared<ExporterComponent>(std::move(info), p.exporter, host, limits));
        break;
      case Kind::AlertSink:
        info.flags = p.alertSink.flags;
        alertSinks_.push_back(std::make_shared<AlertSinkComponent>(std::move(info), p.alertSink, host, limits));
        break;
      case Kind::Dimension:
        info.flags = p.dimension.flags;
        dimensions_.push_back(std::make_shared<DimensionComponent>(std::move(info), p.dimension, host, limits));
        break;
    }
  }
  plugins_.push_back(std::move(plugin));
}

void Registry::appendPluginsJson(std::string& out) const {
  out += '[';
  for (std::size_t i = 0; i < plugins_.size(); ++i) {
    const auto& p = plugins_[i];
    if (i) out += ',';
    out += "{\"name\":";
    appendJsonString(out, p.name);
    out += ",\"version\":";
    appendJsonString(out, p.version);
    out += ",\"vendor\":";
    appendJsonString(out, p.vendor);
    out += ",\"supportUrl\":";
    appendJsonString(out, p.supportUrl);
    out += ",\"path\":";
    appendJsonString(out, p.path);
    out += ",\"abi\":";
    appendJsonString(out, std::to_string(p.abiMajor) + "." + std::to_string(p.abiMinor));
    out += ",\"components\":[";
    bool first = true;
    auto each = [&](const auto& list) {
      for (const auto& c : list) {
        if (c->info().plugin != p.name) continue;
        if (!first) out += ',';
        first = false;
        appendComponent(out, *c);
      }
    };
    each(detectors_);
    each(exporters_);
    each(alertSinks_);
    each(dimensions_);
    out += "]}";
  }
  out += ']';
}

}  // namespace aev::plugins

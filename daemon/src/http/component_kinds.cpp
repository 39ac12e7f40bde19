#include "http/component_kinds.h"

#include <Poco/JSON/ParseHandler.h>
#include <Poco/JSON/Parser.h>

#include "http/resource_views.h"
#include "plugins/instance_config.h"

namespace aev::http {

namespace {

Poco::Dynamic::Var schemaOf(const std::string& text) {
  if (text.empty()) return Poco::Dynamic::Var();
  try {
    // In the plugin's own order: a form draws the properties as their author listed them.
    Poco::JSON::Parser parser(new Poco::JSON::ParseHandler(true));
    return parser.parse(text);
  } catch (const std::exception&) {
    return Poco::Dynamic::Var();  // a plugin's malformed schema is shown as none
  }
}

std::vector<std::string> signalNames(std::uint32_t bits) {
  std::vector<std::string> out;
  if (bits & AEV_SIGNAL_TRACES) out.push_back("traces");
  if (bits & AEV_SIGNAL_LOGS) out.push_back("logs");
  if (bits & AEV_SIGNAL_METRICS) out.push_back("metrics");
  return out;
}

Poco::JSON::Object::Ptr componentKindJson(const plugins::ComponentInfo& c) {
  Poco::JSON::Object::Ptr item = new Poco::JSON::Object;
  item->set("name", c.name);
  item->set("plugin", c.plugin);
  item->set("description", c.description);
  item->set("configSchema", schemaOf(c.configSchema));
  auto required = plugins::requiredKeysOf(c.configSchema);
  item->set("requiredKeys", stringArray({required.begin(), required.end()}));
  auto secrets = plugins::secretKeysOf(c.configSchema);
  item->set("secretKeys", stringArray({secrets.begin(), secrets.end()}));
  if (c.kind == plugins::Kind::Exporter) item->set("signals", stringArray(signalNames(c.signals)));
  return item;
}

}  // namespace

Poco::JSON::Array::Ptr componentKindsJson(const std::vector<plugins::ComponentInfo>& components) {
  Poco::JSON::Array::Ptr out = new Poco::JSON::Array;
  for (const auto& c : components) out->add(componentKindJson(c));
  return out;
}

Poco::JSON::Array::Ptr detectorKindsJson(const std::vector<moderation::DetectorKind>& kinds) {
  Poco::JSON::Array::Ptr out = new Poco::JSON::Array;
  for (const auto& k : kinds) {
    auto item = componentKindJson(k.info);
    if (k.builtIn) item->set("plugin", Poco::Dynamic::Var());
    item->set("builtIn", k.builtIn);
    item->set("takesPattern", k.takesPattern);
    item->set("targets", stringArray(k.targets));
    out->add(item);
  }
  return out;
}

}  // namespace aev::http

#include "plugins/host.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>

#include "common/json_text.h"
#include "common/metrics.h"
#include "plugins/crash_marker.h"
#include "plugins/settings.h"

namespace aev::plugins {

namespace fs = std::filesystem;

namespace {

std::string componentList(const Registry& registry, const std::string& plugin) {
  std::string out;
  auto add = [&](const char* label, const auto& list) {
    std::string names;
    for (const auto& c : list) {
      if (c->info().plugin != plugin) continue;
      if (!names.empty()) names += ", ";
      names += c->info().name;
    }
    if (names.empty()) return;
    if (!out.empty()) out += "; ";
    out += std::string(label) + " " + names;
  };
  add("detectors", registry.detectors());
  add("exporters", registry.exporters());
  add("alert sinks", registry.alertSinks());
  add("dimensions", registry.dimensions());
  return out;
}

}  // namespace

bool LoadReport::hasConfigErrors() const {
  return !unknownPluginKeys.empty() || std::any_of(refused.begin(), refused.end(),
                                                   [](const Refusal& r) { return r.kind == RefusalKind::ConfigError; });
}

std::string LoadReport::configErrors() const {
  std::string out;
  for (const auto& r : refused)
    if (r.kind == RefusalKind::ConfigError) out += "plugin " + r.plugin + ": " + r.reason + "\n";
  for (const auto& k : unknownPluginKeys) out += k + "\n";
  if (!out.empty()) out.pop_back();
  return out;
}

void checkPluginNamespaces(const ConfigMap& config, LoadReport& report) {
  std::set<std::string> known;
  for (const auto& p : report.loaded) known.insert(p.name);
  for (const auto& r : report.refused)
    if (!r.plugin.empty()) known.insert(r.plugin);
  for (const auto& [key, _] : config) {
    if (key == "plugins.dir" || !key.starts_with("plugins.")) continue;
    const auto rest = key.substr(8);
    const auto dot = rest.find('.');
    const auto name = rest.substr(0, dot);
    if (known.count(name)) continue;
    std::string loaded;
    for (const auto& n : known) loaded += (loaded.empty() ? "" : ", ") + n;
    report.unknownPluginKeys.push_back("unknown configuration key " + key + ": no plugin named " + name +
                                       " was found (plugins: " + (loaded.empty() ? "none" : loaded) + ")");
  }
}

std::string pluginSettingsMarkdown(const Registry& registry) {
  std::string out;
  for (const auto& p : registry.plugins()) {
    if (p.settings.empty()) continue;
    out += "\n### plugins." + p.name + " (" + p.name + " " + p.version + ")\n\n";
    out += "| Key | Type | Default | Description |\n|---|---|---|---|\n";
    for (const auto& s : p.settings) {
      const auto def = s.secret ? std::string("(secret)") : s.defaultValue ? "`" + *s.defaultValue + "`" : "";
      out += "| `plugins." + p.name + "." + s.name + "` | " + std::string(settingTypeName(s.type)) + " | " + def +
             " | " + s.description + " |\n";
    }
  }
  if (out.empty()) return out;
  return "\n## Plugin settings\n\nDeclared by the plugins loaded from plugins.dir; an undeclared "
         "plugins.<plugin>.* key of such a plugin, or a value not of its type, stops start-up (exit 78).\n" +
         out;
}

bool LoadReport::clean() const {
  return directoryError.empty() && unknownPluginKeys.empty() &&
         std::all_of(refused.begin(), refused.end(), [](const Refusal& r) { return r.kind == RefusalKind::Disabled; });
}

std::string LoadReport::summary() const {
  // A plugin disabled on purpose (plugins.<name>.enabled = false) is not a refusal.
  const auto disabled = static_cast<std::size_t>(
      std::count_if(refused.begin(), refused.end(), [](const Refusal& r) { return r.kind == RefusalKind::Disabled; }));
  auto s = std::to_string(loaded.size()) + (loaded.size() == 1 ? " plugin" : " plugins") + " loaded, " +
           std::to_string(refused.size() - disabled) + " refused";
  if (disabled) s += ", " + std::to_string(disabled) + " disabled";
  if (!directoryError.empty()) s += " (" + directoryError + ")";
  return s;
}

std::string LoadReport::details() const {
  std::string out;
  for (const auto& p : loaded)
    out += "ok       " + p.name + " " + p.version + " (ABI " + std::to_string(p.abiMajor) + "." +
           std::to_string(p.abiMinor) + ") " + p.path + "\n";
  for (const auto& r : refused)
    out += (r.kind == RefusalKind::Disabled ? "skipped  " : "refused  ") + r.path + " [" +
           std::string(refusalKindName(r.kind)) + "]: " + r.reason + "\n";
  if (!directoryError.empty()) out += "error    " + directoryError + "\n";
  for (const auto& k : unknownPluginKeys) out += "error    " + k + "\n";
  return out + summary() + "\n";
}

void LoadReport::merge(const LoadReport& other) {
  loaded.insert(loaded.end(), other.loaded.begin(), other.loaded.end());
  refused.insert(refused.end(), other.refused.begin(), other.refused.end());
  if (directoryError.empty()) directoryError = other.directoryError;
  unknownPluginKeys.insert(unknownPluginKeys.end(), other.unknownPluginKeys.begin(), other.unknownPluginKeys.end());
}

Host::Host(HostOptions options)
    : options_(std::move(options)), config_(std::make_shared<const ConfigMap>(options_.config)) {
  installCrashHandler();  // a fatal signal inside a plugin call names the plugin
}

void Host::note(const std::variant<PluginInfo, Refusal>& outcome, LoadReport& report) {
  if (const auto* info = std::get_if<PluginInfo>(&outcome)) {
    spdlog::info("plugin {} {} (ABI {}.{}) loaded from {}: {}", info->name, info->version, info->abiMajor,
                 info->abiMinor, info->path, componentList(registry_, info->name));
    report.loaded.push_back(*info);
    Metrics::instance()
        .counter("aev_plugin_info{plugin=\"" + info->name + "\",version=\"" + info->version + "\"}",
                 "Loaded plugins (value 1)")
        .store(1);
    return;
  }
  const auto& r = std::get<Refusal>(outcome);
  auto who = r.plugin.empty() ? "plugin file " + r.path : "plugin " + r.plugin + " (" + r.path + ")";
  if (r.kind == RefusalKind::Disabled)
    spdlog::info("{} not loaded: {}", who, r.reason);
  else
    spdlog::error("{} refused [{}]: {}", who, refusalKindName(r.kind), r.reason);
  report.refused.push_back(r);
  refusals_.push_back(r);
}

LoadReport Host::loadFile(const std::string& path) {
  LoadReport report;
  LoaderContext ctx{config_, options_.requireSafePermissions, options_.limits, &registry_};
  note(loadPlugin(path, ctx), report);
  publishGauges();
  return report;
}

LoadReport Host::loadDirectory(const std::string& dir) {
  LoadReport report;
  directories_.push_back(dir);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    report.directoryError = "plugin directory " + dir + " does not exist or is not a directory";
    spdlog::warn("{}; no plugins loaded from it", report.directoryError);
    return report;
  }
  if (options_.requireSafePermissions) {
    auto why = unsafePermissions(dir);
    if (!why.empty()) {
      report.directoryError = "plugin directory " + dir + " is unsafe: " + why;
      spdlog::error("{}; no plugins loaded from it", report.directoryError);
      return report;
    }
  }
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".so") files.push_back(entry.path().string());
  }
  if (ec) {
    report.directoryError = "cannot list plugin directory " + dir + ": " + ec.message();
    spdlog::error("{}", report.directoryError);
    return report;
  }
  std::sort(files.begin(), files.end());
  LoaderContext ctx{config_, options_.requireSafePermissions, options_.limits, &registry_};
  for (const auto& f : files) note(loadPlugin(f, ctx), report);
  spdlog::info("plugins from {}: {}", dir, report.summary());
  publishGauges();
  return report;
}

void Host::publishGauges() const {
  auto& m = Metrics::instance();
  m.counter("aev_plugins_loaded", "Plugins loaded").store(static_cast<std::int64_t>(registry_.plugins().size()));
  m.counter("aev_plugins_refused", "Plugin files refused at load (not counting plugins disabled on purpose)")
      .store(static_cast<std::int64_t>(std::count_if(
          refusals_.begin(), refusals_.end(), [](const Refusal& r) { return r.kind != RefusalKind::Disabled; })));
}

std::string Host::describeJson() const {
  std::string out = "{\"abi\":{\"major\":" + std::to_string(AEV_ABI_MAJOR) +
                    ",\"minor\":" + std::to_string(AEV_ABI_MINOR) + "},\"directories\":[";
  for (std::size_t i = 0; i < directories_.size(); ++i) {
    if (i) out += ',';
    appendJsonString(out, directories_[i]);
  }
  out += "],\"plugins\":";
  registry_.appendPluginsJson(out);
  out += ",\"refused\":[";
  for (std::size_t i = 0; i < refusals_.size(); ++i) {
    const auto& r = refusals_[i];
    if (i) out += ',';
    out += "{\"path\":";
    appendJsonString(out, r.path);
    out += ",\"plugin\":";
    appendJsonString(out, r.plugin);
    out += ",\"kind\":";
    appendJsonString(out, refusalKindName(r.kind));
    out += ",\"reason\":";
    appendJsonString(out, r.reason);
    out += '}';
  }
  out += "]}";
  return out;
}

std::string defaultPluginDirectory(const std::string& executablePath) {
  std::error_code ec;
  fs::path exe = fs::weakly_canonical(fs::path(executablePath), ec);
  if (ec) exe = fs::path(executablePath);
  return (exe.parent_path().parent_path() / "lib" / "agent-events" / "plugins").string();
}

}  // namespace aev::plugins

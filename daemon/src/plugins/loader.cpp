#include "plugins/loader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <boost/dll/shared_library.hpp>
#include <cstdio>
#include <cstring>
#include <exception>

#include "plugins/abi_prefix.h"
#include "plugins/crash_marker.h"
#include "plugins/elf_exports.h"
#include "plugins/host_api.h"
#include "plugins/retained.h"
#include "plugins/settings.h"
#include "plugins/validation.h"

namespace aev::plugins {

namespace {

std::string abiText(unsigned major, unsigned minor) { return std::to_string(major) + "." + std::to_string(minor); }

Refusal refusal(const std::string& path, std::string plugin, RefusalKind kind, std::string reason) {
  return Refusal{path, std::move(plugin), kind, std::move(reason)};
}

// The first problem of the plugin's configured keys against its declared settings, or "".
std::string settingsProblem(const ConfigMap& config, const std::string& plugin,
                            const std::map<std::string, SettingSpec>& declared) {
  if (declared.empty()) return "";  // a plugin that declares nothing reads what it likes (ABI 1.0)
  const auto prefix = "plugins." + plugin + ".";
  for (auto it = config.lower_bound(prefix); it != config.end() && it->first.starts_with(prefix); ++it) {
    const auto key = it->first.substr(prefix.size());
    if (key == "enabled") continue;
    auto spec = declared.find(key);
    if (spec == declared.end()) {
      std::string names;
      for (const auto& [n, _] : declared) names += (names.empty() ? "" : ", ") + n;
      return "unknown setting " + it->first + " (plugin " + plugin + " declares: " + names + ")";
    }
    if (auto problem = settingValueProblem(spec->second.type, it->second); !problem.empty())
      return "setting " + it->first + " = \"" + (spec->second.secret ? std::string("***") : it->second) + "\" " +
             problem;
  }
  return "";
}

bool disabledByConfig(const ConfigMap& config, const std::string& plugin) {
  auto it = config.find("plugins." + plugin + ".enabled");
  if (it == config.end()) return false;
  const auto& v = it->second;
  return v == "false" || v == "0" || v == "no" || v == "off";
}

// Checks the manifest the plugin returned. Reads its size first, then only what that size
// covers: any size from the 1.0 manifest upward is accepted (a later SDK may append fields,
// which this daemon ignores), a smaller one is refused so we never over-read.
std::variant<PluginInfo, Refusal> checkManifest(const std::string& path, const aev_plugin_manifest* m) {
  if (!m) return refusal(path, "", RefusalKind::Incompatible, "aev_plugin_manifest_v1 returned NULL");
  std::uint32_t head[2];
  std::memcpy(head, m, sizeof head);
  if (head[0] != AEV_PLUGIN_MAGIC) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "wrong magic 0x%08x in its manifest (expected 0x%08x): not built with the "
                  "agent-events plugin SDK, or corrupt", head[0], AEV_PLUGIN_MAGIC);
    return refusal(path, "", RefusalKind::Incompatible, buf);
  }
  auto man = readPrefix<aev_plugin_manifest>(m, head[1], AEV_MANIFEST_SIZE_1_0);
  if (!man) {
    return refusal(path, "", RefusalKind::Incompatible,
                   "manifest struct_size " + std::to_string(head[1]) + " is smaller than the ABI 1.0 manifest (" +
                       std::to_string(AEV_MANIFEST_SIZE_1_0) + " bytes)");
  }

  if (man->abi_major != AEV_ABI_MAJOR) {
    return refusal(path, "", RefusalKind::Incompatible,
                   "not compatible: built for SDK ABI " + abiText(man->abi_major, man->abi_minor) +
                       ", agent-eventsd provides ABI " + abiText(AEV_ABI_MAJOR, AEV_ABI_MINOR) +
                       " (rebuild the plugin against SDK " + std::to_string(AEV_ABI_MAJOR) + ".x)");
  }
  if (man->abi_minor > AEV_ABI_MINOR) {
    return refusal(path, "", RefusalKind::Incompatible,
                   "not compatible: built for SDK ABI " + abiText(man->abi_major, man->abi_minor) +
                       ", newer than the ABI " + abiText(AEV_ABI_MAJOR, AEV_ABI_MINOR) +
                       " agent-eventsd provides (upgrade agent-eventsd, or rebuild the plugin against SDK " +
                       abiText(AEV_ABI_MAJOR, AEV_ABI_MINOR) + ")");
  }

  PluginInfo info;
  info.path = path;
  info.abiMajor = man->abi_major;
  info.abiMinor = man->abi_minor;
  auto name = boundedCString(man->name, 64);
  if (!name || !isValidPluginName(*name))
    return refusal(path, "", RefusalKind::Invalid, "manifest name is missing or not [a-z0-9_]+ of at most 64 bytes");
  info.name = *name;
  auto version = boundedCString(man->version, 64);
  if (!version || version->empty() || !isValidUtf8(*version))
    return refusal(path, info.name, RefusalKind::Invalid, "manifest version is missing or longer than 64 bytes");
  info.version = oneLine(*version);
  if (man->vendor) {
    auto v = boundedCString(man->vendor, 256);
    if (!v) return refusal(path, info.name, RefusalKind::Invalid, "manifest vendor longer than 256 bytes");
    info.vendor = oneLine(*v);
  }
  if (man->support_url) {
    auto u = boundedCString(man->support_url, 256);
    if (!u) return refusal(path, info.name, RefusalKind::Invalid, "manifest support_url longer than 256 bytes");
    info.supportUrl = oneLine(*u);
  }
  return info;
}

}  // namespace

std::string_view refusalKindName(RefusalKind kind) {
  switch (kind) {
    case RefusalKind::NotAPlugin: return "not_a_plugin";
    case RefusalKind::Unsafe: return "unsafe";
    case RefusalKind::LoadFailed: return "load_failed";
    case RefusalKind::Incompatible: return "incompatible";
    case RefusalKind::Invalid: return "invalid";
    case RefusalKind::Duplicate: return "duplicate";
    case RefusalKind::ConfigError: return "config_error";
    case RefusalKind::Failed: return "failed";
    case RefusalKind::Disabled: return "disabled";
  }
  return "unknown";
}

std::string unsafePermissions(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::string("cannot stat: ") + std::strerror(errno);
  if (st.st_mode & (S_IWGRP | S_IWOTH)) return "writable by group or others (chmod go-w)";
  if (st.st_uid != 0 && st.st_uid != ::geteuid())
    return "owned by uid " + std::to_string(st.st_uid) + ", neither root nor the daemon's user";
  return {};
}

std::variant<PluginInfo, Refusal> loadPlugin(const std::string& path, const LoaderContext& ctx) {
  // 1. What the file is, and who could have written it.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return refusal(path, "", RefusalKind::NotAPlugin, "not a regular file");
  if (ctx.requireSafePermissions) {
    auto why = unsafePermissions(path);
    if (!why.empty()) return refusal(path, "", RefusalKind::Unsafe, "unsafe file: " + why);
  }

  // 2. Entry points, without running any code from the file.
  auto exports = readElfExports(path);
  if (!exports.error.empty()) return refusal(path, "", RefusalKind::NotAPlugin, exports.error);
  if (!exports.symbols.count(AEV_PLUGIN_MANIFEST_SYMBOL))
    return refusal(path, "", RefusalKind::NotAPlugin,
                   "missing entry point " AEV_PLUGIN_MANIFEST_SYMBOL ": not an agent-events plugin");
  if (!exports.symbols.count(AEV_PLUGIN_REGISTER_SYMBOL))
    return refusal(path, "", RefusalKind::Invalid, "missing entry point " AEV_PLUGIN_REGISTER_SYMBOL);

  // 3. Load. From here on the library stays mapped whatever happens (retained.h).
  boost::dll::shared_library library;
  try {
    library.load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const std::exception& e) {
    return refusal(path, "", RefusalKind::LoadFailed, std::string("cannot load: ") + e.what());
  }
  aev_plugin_manifest_fn manifestFn = nullptr;
  aev_plugin_register_fn registerFn = nullptr;
  try {
    manifestFn = &library.get<const aev_plugin_manifest*()>(AEV_PLUGIN_MANIFEST_SYMBOL);
    registerFn = &library.get<aev_status(const aev_host_api*, aev_host*, aev_registrar*, aev_call*)>(
        AEV_PLUGIN_REGISTER_SYMBOL);
  } catch (const std::exception& e) {
    retainLibrary(std::move(library));
    return refusal(path, "", RefusalKind::Invalid, std::string("entry point not found: ") + e.what());
  }
  retainLibrary(std::move(library));

  // 4. Handshake.
  const aev_plugin_manifest* manifest = nullptr;
  try {
    manifest = manifestFn();
  } catch (...) {
    return refusal(path, "", RefusalKind::Failed, "aev_plugin_manifest_v1 threw an exception");
  }
  auto checked = checkManifest(path, manifest);
  if (auto* r = std::get_if<Refusal>(&checked)) return *r;
  auto info = std::get<PluginInfo>(std::move(checked));

  if (disabledByConfig(*ctx.config, info.name))
    return refusal(path, info.name, RefusalKind::Disabled, "disabled by plugins." + info.name + ".enabled");
  if (const auto* other = ctx.registry->plugin(info.name))
    return refusal(path, info.name, RefusalKind::Duplicate,
                   "duplicate plugin name: a plugin named " + info.name + " is already loaded from " + other->path);

  // 5. Registration, all or nothing.
  auto hostHandle = std::make_unique<aev_host>();
  hostHandle->pluginName = info.name;
  hostHandle->configPrefix = "plugins." + info.name + ".";
  hostHandle->config = ctx.config;
  aev_host* host = retainHost(std::move(hostHandle));

  aev_registrar registrar;
  registrar.registry = ctx.registry;
  registrar.pluginName = info.name;
  registrar.thread = std::this_thread::get_id();
  registrar.host = host;
  aev_call call(aev_call::Purpose::Register, ctx.limits.createBudget);

  aev_status status;
  try {
    CallScope marked(host->pluginName, "register");
    status = registerFn(hostApi(), host, &registrar, &call);
  } catch (const std::exception& e) {
    status = AEV_ERR_INTERNAL;
    call.error = oneLine(std::string("exception escaped aev_plugin_register_v1: ") + e.what());
  } catch (...) {
    status = AEV_ERR_INTERNAL;
    call.error = "exception of unknown type escaped aev_plugin_register_v1";
  }
  registrar.open = false;

  if (status == AEV_ERR_CONFIG)
    return refusal(path, info.name, RefusalKind::ConfigError,
                   "configuration refused: " + (call.error.empty() ? std::string("no reason given") : call.error));
  if (!registrar.problems.empty()) {
    std::string reasons;
    bool duplicate = false;
    for (const auto& p : registrar.problems) {
      if (!reasons.empty()) reasons += "; ";
      reasons += p;
      duplicate = duplicate || p.find("duplicate component name") != std::string::npos;
    }
    return refusal(path, info.name, duplicate ? RefusalKind::Duplicate : RefusalKind::Invalid, reasons);
  }
  if (status != AEV_OK)
    return refusal(path, info.name, RefusalKind::Failed,
                   "aev_plugin_register_v1 failed (" + std::string(statusName(status)) + ")" +
                       (call.error.empty() ? "" : ": " + call.error));
  if (registrar.components.empty())
    return refusal(path, info.name, RefusalKind::Invalid, "registered no components");
  // A plugin that declared its settings gets them checked as core keys are: an unknown
  // key (a typo) or an ill-typed value stops the daemon (exit 78).
  if (auto problem = settingsProblem(*ctx.config, info.name, host->settings); !problem.empty())
    return refusal(path, info.name, RefusalKind::ConfigError, problem);
  for (const auto& [_, spec] : host->settings) info.settings.push_back(spec);

  ctx.registry->add(info, std::move(registrar.components), host, ctx.limits);
  return info;
}

}  // namespace aev::plugins

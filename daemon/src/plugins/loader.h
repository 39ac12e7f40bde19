#pragma once
// Loads one plugin file, step by step, refusing it with a reason at the first problem:
//   1. the file is a regular file, not writable by group or others (when required);
//   2. its ELF dynamic symbols export both entry points, read without running its code;
//   3. Boost.DLL opens it with RTLD_NOW | RTLD_LOCAL (unresolved symbols fail here);
//   4. the manifest's magic, size and ABI version are compatible with this daemon,
//      its name is valid, not disabled by configuration, and not loaded already;
//   5. aev_plugin_register_v1 registers components whose vtables are valid and whose
//      names are new; then, and only then, the plugin joins the registry (all or nothing).
// Opened libraries are never closed (see retained.h).
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "plugins/components.h"
#include "plugins/host_handles.h"
#include "plugins/registry.h"

namespace aev::plugins {

enum class RefusalKind {
  NotAPlugin,    // not a shared object, or no aev_plugin_manifest_v1
  Unsafe,        // permissions: group/world-writable file or directory
  LoadFailed,    // dlopen failed (missing library, unresolved symbol)
  Incompatible,  // wrong magic, other ABI major, newer ABI minor, bad manifest
  Invalid,       // missing register entry point, invalid vtable, bad name
  Duplicate,     // plugin or component name already loaded
  ConfigError,   // the plugin refused its configuration: the daemon must not start
  Failed,        // aev_plugin_register_v1 failed otherwise (or threw)
  Disabled,      // plugins.<name>.enabled = false
};

std::string_view refusalKindName(RefusalKind kind);

struct Refusal {
  std::string path;
  std::string plugin;  // empty when refused before the manifest was read
  RefusalKind kind = RefusalKind::Invalid;
  std::string reason;
};

struct LoaderContext {
  std::shared_ptr<const ConfigMap> config;
  bool requireSafePermissions = true;
  CallLimits limits;
  Registry* registry = nullptr;
};

// On success the plugin is in ctx.registry and its info is returned.
std::variant<PluginInfo, Refusal> loadPlugin(const std::string& path, const LoaderContext& ctx);

// Why a file or directory is unsafe to load code from, or "" when it is fine: it must
// not be writable by group or others, and must belong to root or to this process's user.
std::string unsafePermissions(const std::string& path);

}  // namespace aev::plugins

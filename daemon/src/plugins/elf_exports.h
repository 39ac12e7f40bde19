#pragma once
// Reads the dynamic symbol table of a shared object without loading it, so a file that
// is not an agent-events plugin (no aev_plugin_manifest_v1) is refused before any of its
// code runs (dlopen would run its constructors). Every offset in the file is
// bounds-checked: a corrupt or hostile file yields an error, never a crash.
#include <set>
#include <string>

namespace aev::plugins {

struct ElfExports {
  std::string error;              // empty when the file is a loadable shared object
  std::set<std::string> symbols;  // defined, globally visible symbols of .dynsym
};

ElfExports readElfExports(const std::string& path);

}  // namespace aev::plugins

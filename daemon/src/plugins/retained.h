#pragma once
// Plugin libraries and their host handles, kept until the process exits. A plugin is
// never unloaded: its code may still be referenced by a thread it started, a static
// destructor, an atexit handler or an exception object, and a plugin may keep its
// aev_host pointer (plugin_abi.h promises it stays valid). Reloading means restarting.
#include <memory>

#include <boost/dll/shared_library.hpp>

#include "plugins/host_handles.h"

namespace aev::plugins {

void retainLibrary(boost::dll::shared_library library);
aev_host* retainHost(std::unique_ptr<aev_host> host);

}  // namespace aev::plugins

#pragma once
// The table of host functions (aev_host_api) handed to every plugin: logging through
// spdlog, the plugin's own configuration section, metrics counters through aev::Metrics,
// component registration, and the per-call reporting functions. One static table for the
// whole process; everything plugin-specific travels in the aev_host / aev_call handles.
#include <agentevents/plugin_abi.h>

namespace aev::plugins {

const aev_host_api* hostApi();

}  // namespace aev::plugins

#include "app/service_manager.h"

#include <spdlog/spdlog.h>
#include <systemd/sd-daemon.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace aev::app {
namespace {

void notify(const std::string& state) {
  // 0 when not run by systemd (no NOTIFY_SOCKET); an error is worth a line, never a stop.
  if (const int rc = sd_notify(0, state.c_str()); rc < 0)
    spdlog::warn("sd_notify({}) failed: {}", state.substr(0, state.find('\n')), std::strerror(-rc));
}

}  // namespace

ServiceManager::ServiceManager() {
  std::uint64_t usec = 0;
  if (sd_watchdog_enabled(0, &usec) > 0 && usec > 0)
    watchdogInterval_ = std::max(std::chrono::milliseconds(1), std::chrono::milliseconds(usec / 3000));
}

void ServiceManager::ready(const std::string& status) const { notify("READY=1\nSTATUS=" + status); }

void ServiceManager::stopping() const { notify("STOPPING=1\nSTATUS=draining requests"); }

void ServiceManager::watchdogAlive() const { notify("WATCHDOG=1"); }

}  // namespace aev::app

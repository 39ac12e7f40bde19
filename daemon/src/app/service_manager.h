#pragma once
// What systemd (a Type=notify unit) hears from the daemon: READY=1 once it serves,
// STOPPING=1 when it starts to drain, and WATCHDOG=1 while it still answers HTTP.
// Outside systemd (no NOTIFY_SOCKET) every call does nothing.
#include <chrono>
#include <string>

namespace aev::app {

class ServiceManager {
 public:
  ServiceManager();
  void ready(const std::string& status) const;
  void stopping() const;
  void watchdogAlive() const;

  // Whether the unit asked for a watchdog (WatchdogSec=), and how often to prove we
  // are alive: a third of it (sd_watchdog_enabled(3) asks for at least every half), so
  // one slow probe still leaves a second chance before systemd gives up.
  bool watchdogEnabled() const { return watchdogInterval_.count() > 0; }
  std::chrono::milliseconds watchdogInterval() const { return watchdogInterval_; }

 private:
  std::chrono::milliseconds watchdogInterval_{0};
};

}  // namespace aev::app

#include "plugins/call_stats.h"

#include <spdlog/spdlog.h>

#include "common/metrics.h"

namespace aev::plugins {

namespace {

constexpr auto kLogInterval = std::chrono::seconds(10);

std::atomic<std::int64_t>* metric(const std::string& family, const std::string& labels, const char* help) {
  return &Metrics::instance().counter(family + labels, help);
}

}  // namespace

CallStats::CallStats(const std::string& plugin, Kind kind, const std::string& component)
    : who_("plugin " + plugin + ": " + std::string(kindName(kind)) + " \"" + component + "\"") {
  // Names are validated ([a-z0-9_] plugins, [A-Za-z0-9_.-] components): safe as label values.
  std::string labels = "{plugin=\"" + plugin + "\",kind=\"" + std::string(kindName(kind)) + "\",component=\"" +
                       component + "\"}";
  metricCalls_ = metric("aev_plugin_calls_total", labels, "Calls into plugin components");
  metricFailures_ = metric("aev_plugin_call_failures_total", labels, "Plugin calls that returned an error or threw");
  metricExceptions_ = metric("aev_plugin_call_exceptions_total", labels, "Exceptions that escaped a plugin");
  metricInvalid_ = metric("aev_plugin_invalid_outputs_total", labels, "Plugin outputs refused by the host");
  // Counted in microseconds, shown in seconds (common/metric_catalog.cpp).
  metricMicros_ = metric("aev_plugin_call_duration_seconds_total", labels, "Time spent in plugin calls");
}

void CallStats::record(bool failed, std::chrono::nanoseconds elapsed) {
  auto ns = static_cast<std::uint64_t>(elapsed.count() < 0 ? 0 : elapsed.count());
  calls_.fetch_add(1, std::memory_order_relaxed);
  totalNanos_.fetch_add(ns, std::memory_order_relaxed);
  auto prev = maxNanos_.load(std::memory_order_relaxed);
  while (ns > prev && !maxNanos_.compare_exchange_weak(prev, ns, std::memory_order_relaxed)) {
  }
  metricCalls_->fetch_add(1, std::memory_order_relaxed);
  metricMicros_->fetch_add(static_cast<std::int64_t>(ns / 1000), std::memory_order_relaxed);
  if (failed) {
    failures_.fetch_add(1, std::memory_order_relaxed);
    metricFailures_->fetch_add(1, std::memory_order_relaxed);
  }
}

void CallStats::exception() {
  exceptions_.fetch_add(1, std::memory_order_relaxed);
  metricExceptions_->fetch_add(1, std::memory_order_relaxed);
}

void CallStats::invalidOutput(std::uint64_t count) {
  invalid_.fetch_add(count, std::memory_order_relaxed);
  metricInvalid_->fetch_add(static_cast<std::int64_t>(count), std::memory_order_relaxed);
}

void CallStats::logFailure(std::string_view message) {
  std::uint64_t suppressed;
  {
    std::lock_guard lock(logMutex_);
    auto now = std::chrono::steady_clock::now();
    if (lastLog_.time_since_epoch().count() != 0 && now - lastLog_ < kLogInterval) {
      ++suppressed_;
      return;
    }
    lastLog_ = now;
    suppressed = suppressed_;
    suppressed_ = 0;
  }
  if (suppressed)
    spdlog::warn("{}: {} ({} similar failures not logged in the last {} s)", who_, message, suppressed,
                 kLogInterval.count());
  else
    spdlog::warn("{}: {}", who_, message);
}

CallStatsSnapshot CallStats::snapshot() const {
  CallStatsSnapshot s;
  s.calls = calls_.load(std::memory_order_relaxed);
  s.failures = failures_.load(std::memory_order_relaxed);
  s.exceptions = exceptions_.load(std::memory_order_relaxed);
  s.invalidOutputs = invalid_.load(std::memory_order_relaxed);
  auto total = totalNanos_.load(std::memory_order_relaxed);
  s.avgLatencyMs = s.calls ? static_cast<double>(total) / static_cast<double>(s.calls) / 1e6 : 0.0;
  s.maxLatencyMs = static_cast<double>(maxNanos_.load(std::memory_order_relaxed)) / 1e6;
  return s;
}

}  // namespace aev::plugins

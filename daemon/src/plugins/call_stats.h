#pragma once
// Per-component call accounting: every guarded call is counted and timed here, and
// failures are logged at most once per interval per component (with the number
// suppressed since), so a plugin failing on every event cannot flood the log.
// Also feeds /metrics (aev_plugin_calls_total and friends, labelled by plugin, kind and
// component) and the per-detector latency of the moderation efficacy report.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "plugins/kinds.h"

namespace aev::plugins {

struct CallStatsSnapshot {
  std::uint64_t calls = 0;
  std::uint64_t failures = 0;        // non-OK results, exceptions included
  std::uint64_t exceptions = 0;      // exceptions that escaped the plugin into the host
  std::uint64_t invalidOutputs = 0;  // matches/keys/results the host refused
  double avgLatencyMs = 0;
  double maxLatencyMs = 0;
};

class CallStats {
 public:
  CallStats(const std::string& plugin, Kind kind, const std::string& component);
  CallStats(const CallStats&) = delete;
  CallStats& operator=(const CallStats&) = delete;

  // One finished call. `failed` is true for any result the caller treats as an error.
  void record(bool failed, std::chrono::nanoseconds elapsed);
  void exception();
  void invalidOutput(std::uint64_t count = 1);

  // Logs a warning now, or counts it as suppressed when one was logged recently.
  void logFailure(std::string_view message);

  CallStatsSnapshot snapshot() const;

 private:
  std::string who_;  // plugin "x" detector "y", for log lines
  std::atomic<std::uint64_t> calls_{0}, failures_{0}, exceptions_{0}, invalid_{0};
  std::atomic<std::uint64_t> totalNanos_{0}, maxNanos_{0};
  std::atomic<std::int64_t>* metricCalls_;
  std::atomic<std::int64_t>* metricFailures_;
  std::atomic<std::int64_t>* metricExceptions_;
  std::atomic<std::int64_t>* metricInvalid_;
  std::atomic<std::int64_t>* metricMicros_;

  std::mutex logMutex_;
  std::chrono::steady_clock::time_point lastLog_{};
  std::uint64_t suppressed_ = 0;
};

}  // namespace aev::plugins

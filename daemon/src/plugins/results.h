#pragma once
// What a guarded call into a plugin component returns to the daemon. Plain values: the
// plugin's memory is never referenced after the call, and a failure is data (status +
// message), never an exception, so a failing plugin cannot take a request down.
#include <agentevents/plugin_abi.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aev::plugins {

// "ok", "retry", "permanent", "config", "unsupported", "internal", ...
std::string_view statusName(aev_status status);

// One detector finding: bytes [start, end) of the scanned text (validated by the host).
struct Finding {
  std::size_t start = 0;
  std::size_t end = 0;
  double score = 1.0;
  std::string label;
};

struct ScanResult {
  aev_status status = AEV_OK;
  std::vector<Finding> findings;   // only valid ones; invalid ones are dropped and counted
  std::size_t rejectedFindings = 0;
  std::string error;               // plugin's message when status != OK
  std::chrono::nanoseconds elapsed{0};
  bool ok() const { return status == AEV_OK; }
};

// Result of an exporter batch or an alert delivery (one delivery attempt).
struct DeliveryResult {
  aev_status status = AEV_OK;  // AEV_OK, AEV_RETRY, AEV_ERR_PERMANENT, or another error
  int responseStatus = 0;      // remote status (e.g. HTTP), 0 when none
  std::string responseBody;    // at most 4 KiB
  std::optional<std::chrono::milliseconds> retryAfter;
  std::string error;
  std::chrono::nanoseconds elapsed{0};
  bool ok() const { return status == AEV_OK; }
  // Transient failures, and plugin bugs (which may not repeat), are worth retrying;
  // a permanent failure, a bad configuration or an unsupported signal is not.
  bool retryable() const { return status == AEV_RETRY || status == AEV_ERR_INTERNAL; }
};

struct KeyResult {
  aev_status status = AEV_OK;
  std::optional<std::string> key;  // nullopt: the event has no value for this dimension
  std::string error;
  bool ok() const { return status == AEV_OK; }
};

}  // namespace aev::plugins

// Stored events to OTLP metrics (the metrics signal): one batch of events becomes delta
// aggregates over the batch's time span, grouped into resources by service name (as
// spans are) and into data points by model, provider, event type and agent.
//
//   agent_events.events       Sum (int, monotonic, delta)    {event}  every event
//   agent_events.errors       Sum (int, monotonic, delta)    {error}  agent.error / status "error"
//   agent_events.tokens       Sum (int, monotonic, delta)    {token}  usage.input_tokens / output_tokens,
//                                                                      attribute gen_ai.token.type input|output
//   agent_events.cost_usd     Sum (double, monotonic, delta) USD      metadata.cost_usd
//   agent_events.duration_ms  Histogram (delta)              ms       metadata.duration_ms
//
// A data point is only written for a group that has the measurement (no zero errors,
// tokens or costs). start_time_unix_nano / time_unix_nano are the earliest / latest
// event time of the batch, so consecutive batches cover consecutive spans of time.
#pragma once

#include <agentevents/json.hpp>

#include <vector>

#include "event_mapping.h"
#include "otlp_model.h"

namespace otlp {

// The duration histogram's explicit bucket bounds (milliseconds).
const std::vector<double>& durationBoundsMs();

// events: a JSON array of stored events; objects only, others are skipped. Empty when
// there is no event.
std::vector<ResourceBatch> toMetrics(const aev::json::Value& events, const MappingOptions& options);

}  // namespace otlp

// Stored events (docs/api.md#the-stored-event) to OTLP: each event becomes one span (traces signal) or
// one log record (logs signal), grouped into resources by service name (the metrics
// signal aggregates them instead: metric_aggregation.h). The mapping is
// the inverse of the daemon's OTLP ingest (docs/features.md#telemetry-fields) where one exists, so events
// exported to another agent-events instance come back as they were.
#pragma once

#include <agentevents/json.hpp>

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "otlp_model.h"

namespace otlp {

struct MappingOptions {
  std::string serviceName = "agent-events";  // when an event names no service
  std::vector<KeyValue> resourceAttributes;  // added to every resource
  std::uint64_t nowUnixNano = 0;             // observed time of log records
};

// events: a JSON array of stored events. Events that are not objects are skipped.
std::vector<ResourceBatch> toSpans(const aev::json::Value& events, const MappingOptions& options);
std::vector<ResourceBatch> toLogs(const aev::json::Value& events, const MappingOptions& options);

// A JSON value as an OTLP AnyValue (objects become kvlists, integers ints).
AnyValue toAnyValue(const aev::json::Value& v);

// Fields of one stored event, shared by the span, log and metric mappings.
const aev::json::Value& metadataOf(const aev::json::Value& event);  // {} when absent
// The first present metadata key (flat "gen_ai.request.model", then the nested path), as text.
std::string metadataText(const aev::json::Value& metadata, std::initializer_list<std::string_view> keys);
// metadata.service | metadata["service.name"], else the destination's serviceName.
std::string serviceOf(const aev::json::Value& event, const MappingOptions& options);
// occurredAt | timestamp in Unix nanoseconds; 0 when neither parses.
std::uint64_t eventTime(const aev::json::Value& event);
// agent.error events and events with metadata.status "error" (docs/features.md#telemetry-fields).
bool isError(const aev::json::Value& event, const aev::json::Value& metadata);
// The resource of `service` (service.name plus the configured resource attributes),
// added at the end of `batches` when new; `names` parallels `batches`.
ResourceBatch& batchFor(std::vector<ResourceBatch>& batches, std::vector<std::string>& names,
                        const std::string& service, const MappingOptions& options);
// fn for every object of a JSON array (anything else is skipped).
void forEachEvent(const aev::json::Value& events, const std::function<void(const aev::json::Value&)>& fn);

}  // namespace otlp

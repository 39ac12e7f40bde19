// Stored events (decisions §5) to OTLP: each event becomes one span (traces signal) or
// one log record (logs signal), grouped into resources by service name. The mapping is
// the inverse of the daemon's OTLP ingest (decisions §6) where one exists, so events
// exported to another agent-events instance come back as they were.
#pragma once

#include <agentevents/json.hpp>

#include <string>
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

}  // namespace otlp

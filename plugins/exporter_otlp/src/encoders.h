// OTLP request bodies, in both encodings of OTLP/HTTP: binary protobuf
// (application/x-protobuf) and the protobuf JSON mapping (application/json: ids as hex,
// 64-bit integers as strings, enums as numbers, lowerCamelCase names).
#pragma once

#include <string>
#include <vector>

#include "otlp_model.h"

namespace otlp {

// ExportTraceServiceRequest / ExportLogsServiceRequest / ExportMetricsServiceRequest.
std::string tracesProtobuf(const std::vector<ResourceBatch>& batches, const Scope& scope);
std::string logsProtobuf(const std::vector<ResourceBatch>& batches, const Scope& scope);
std::string metricsProtobuf(const std::vector<ResourceBatch>& batches, const Scope& scope);
std::string tracesJson(const std::vector<ResourceBatch>& batches, const Scope& scope);
std::string logsJson(const std::vector<ResourceBatch>& batches, const Scope& scope);
std::string metricsJson(const std::vector<ResourceBatch>& batches, const Scope& scope);

}  // namespace otlp

#pragma once
// Event rows as the writer stores them and readers get them back.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace aev::store {

// The telemetry fields of decisions §6, extracted once at ingest (telemetry module) and
// stored in columns of the event row, so analytics groups and sums without JSON.
struct TelemetryFields {
  std::optional<std::string> model, provider, status, agent, tool, finishReason, semanticKind, service, operation,
      errorType, environment, release, endUser;
  std::optional<std::int64_t> inputTokens, outputTokens;
  std::optional<double> costUsd, durationMs;
  // Custom attributes (metadata.tags): key → scalar value as text.
  std::vector<std::pair<std::string, std::string>> attributes;
};

struct NewEvent {
  std::int64_t orgId = 0;
  std::int64_t appId = 0;
  std::int64_t channelId = 0;
  std::string identifier;
  std::string payloadJson;  // a JSON object, condensed
  std::optional<std::string> agentId;
  std::optional<std::string> eventType;
  std::optional<std::string> traceId;
  std::optional<std::string> spanId;
  std::optional<std::string> parentSpanId;
  std::optional<std::string> metadataJson;  // a JSON object, condensed
  std::optional<std::int64_t> occurredAt;   // publisher's timestamp (µs)
  std::int64_t receivedAt = 0;              // server receive time (µs)
  std::string source = "api";               // api | batch | otlp
  std::optional<std::int64_t> apiKeyId;
  std::optional<std::int64_t> userId;
  // Derived at ingest (decisions §6): an `agent.error` event or metadata.status "error".
  bool isError = false;
  TelemetryFields telemetry;

  // The time a trace orders by: the publisher's timestamp when sent, else receipt.
  std::int64_t effectiveTime() const { return occurredAt ? *occurredAt : receivedAt; }
};

struct StoredEvent : NewEvent {
  std::int64_t id = 0;
  std::int64_t seq = 0;  // per-channel, in commit order
};

}  // namespace aev::store

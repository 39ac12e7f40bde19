#pragma once
// Event rows as the writer stores them and readers get them back.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace aev::store {

// The telemetry fields of docs/features.md#telemetry-fields, extracted once at ingest (telemetry module) and
// stored in columns of the event row, so analytics groups and sums without JSON.
struct TelemetryFields {
  std::optional<std::string> model, provider, status, agent, tool, finishReason, semanticKind, service, operation,
      errorType, environment, release, endUser;
  // The session (conversation) the event belongs to, and the name of its trace.
  std::optional<std::string> session, traceName;
  std::optional<std::int64_t> inputTokens, outputTokens;
  // Subsets of the two: cache reads of the input, reasoning of the output.
  std::optional<std::int64_t> cachedInputTokens, reasoningTokens;
  std::optional<double> costUsd, durationMs;
  // Custom attributes (metadata.tags): key → scalar value as text.
  std::vector<std::pair<std::string, std::string>> attributes;
};

// An event's cost counted towards one spend policy (spend module): the writer adds it to
// the policy's bucket in the transaction that stores the event, so the counter and the
// events never disagree.
struct SpendCharge {
  std::int64_t policyId = 0;
  std::int64_t bucketStart = 0;
  std::int64_t nanos = 0;  // cost_usd in nano-dollars
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
  // Derived at ingest (docs/features.md#telemetry-fields): an `agent.error` event or metadata.status "error".
  bool isError = false;
  TelemetryFields telemetry;
  std::vector<SpendCharge> spendCharges;
  // The publish answer's `spend` object (JSON), set after the commit; never stored.
  std::optional<std::string> spendJson;

  // The time a trace orders by: the publisher's timestamp when sent, else receipt.
  std::int64_t effectiveTime() const { return occurredAt ? *occurredAt : receivedAt; }
};

struct StoredEvent : NewEvent {
  std::int64_t id = 0;
  std::int64_t seq = 0;  // per-channel, in commit order
};

}  // namespace aev::store

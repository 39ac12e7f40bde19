#pragma once
// An event on its way in (NewEvent) and as stored (StoredEvent), and the one JSON
// rendering used by publish, list, stream and webhooks (docs/api.md#the-stored-event).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/event_records.h"

namespace aev::events {

using NewEvent = store::NewEvent;
using StoredEvent = store::StoredEvent;

const std::vector<std::string>& eventTypes();
bool isEventType(const std::string& type);

// {id, eventId, identifier, payload, channel_id, channelId, appId, orgId, agentId, eventType,
//  traceId, spanId, parentSpanId, metadata, timestamp, createdAt, occurredAt}
std::string toJson(const StoredEvent& e);
// toJson plus what plugins (dimensions, exporters) may read but clients are not shown:
// `source` (api | batch | otlp) and `apiKeyId` (the publishing key, a decimal string).
std::string toPluginJson(const StoredEvent& e);

}  // namespace aev::events

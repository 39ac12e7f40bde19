#include "events/event.h"

#include <algorithm>

#include "common/clock.h"
#include "common/json_text.h"

namespace aev::events {

const std::vector<std::string>& eventTypes() {
  // The interface's nine, then what the seed system's own SDK integrations publish: its
  // OpenTelemetry exporter (app.span) and logging handlers (app.log, agent.log).
  static const std::vector<std::string> types = {"agent.start",
                                                 "agent.end",
                                                 "agent.message",
                                                 "agent.tool_call.start",
                                                 "agent.tool_call.end",
                                                 "agent.error",
                                                 "agent.handoff",
                                                 "agent.llm.token",
                                                 "custom",
                                                 "app.span",
                                                 "app.log",
                                                 "agent.log"};
  return types;
}

bool isEventType(const std::string& type) {
  const auto& t = eventTypes();
  return std::find(t.begin(), t.end(), type) != t.end();
}

namespace {
void field(std::string& out, const char* name) {
  out += ",\"";
  out += name;
  out += "\":";
}
void optionalString(std::string& out, const char* name, const std::optional<std::string>& v) {
  field(out, name);
  if (v)
    appendJsonString(out, *v);
  else
    out += "null";
}
}  // namespace

std::string toJson(const StoredEvent& e) {
  std::string out;
  out.reserve(256 + e.payloadJson.size() + (e.metadataJson ? e.metadataJson->size() : 0));
  const auto id = std::to_string(e.id);
  const auto receivedAt = clock::toRfc3339(e.receivedAt);
  out += "{\"id\":";
  out += id;
  field(out, "eventId");  // the seed system's SDK reads the id as a string
  appendJsonString(out, id);
  field(out, "identifier");
  appendJsonString(out, e.identifier);
  field(out, "payload");
  out += e.payloadJson;
  field(out, "channel_id");
  out += std::to_string(e.channelId);
  field(out, "channelId");
  appendJsonString(out, std::to_string(e.channelId));
  field(out, "appId");
  appendJsonString(out, std::to_string(e.appId));
  field(out, "orgId");
  appendJsonString(out, std::to_string(e.orgId));
  optionalString(out, "agentId", e.agentId);
  optionalString(out, "eventType", e.eventType);
  optionalString(out, "traceId", e.traceId);
  optionalString(out, "spanId", e.spanId);
  optionalString(out, "parentSpanId", e.parentSpanId);
  field(out, "metadata");
  out += e.metadataJson ? *e.metadataJson : "null";
  field(out, "timestamp");
  appendJsonString(out, receivedAt);
  field(out, "createdAt");  // = timestamp, under the name the seed system's SDK reads
  appendJsonString(out, receivedAt);
  field(out, "occurredAt");
  if (e.occurredAt)
    appendJsonString(out, clock::toRfc3339(*e.occurredAt));
  else
    out += "null";
  if (e.spendJson) {
    field(out, "spend");
    out += *e.spendJson;
  }
  out += '}';
  return out;
}

std::string toPluginJson(const StoredEvent& e) {
  std::string out = toJson(e);
  out.pop_back();  // the closing brace
  field(out, "source");
  appendJsonString(out, e.source);
  field(out, "apiKeyId");
  if (e.apiKeyId)
    appendJsonString(out, std::to_string(*e.apiKeyId));
  else
    out += "null";
  out += '}';
  return out;
}

}  // namespace aev::events

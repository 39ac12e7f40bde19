#include "http/session_views.h"

#include <Poco/JSON/Array.h>

#include "events/event.h"
#include "http/request.h"
#include "http/resource_views.h"

namespace aev::http {

namespace {

template <typename T>
Poco::Dynamic::Var orNull(const std::optional<T>& v) {
  return v ? Poco::Dynamic::Var(*v) : Poco::Dynamic::Var();
}

}  // namespace

JsonObject eventTelemetryJson(const store::TelemetryFields& t) {
  auto obj = newObject();
  obj->set("model", orNull(t.model));
  obj->set("provider", orNull(t.provider));
  obj->set("inputTokens", orNull(t.inputTokens));
  obj->set("outputTokens", orNull(t.outputTokens));
  obj->set("costUsd", orNull(t.costUsd));
  obj->set("durationMs", orNull(t.durationMs));
  obj->set("finishReason", orNull(t.finishReason));
  obj->set("status", orNull(t.status));
  obj->set("agent", orNull(t.agent));
  obj->set("tool", orNull(t.tool));
  obj->set("semanticKind", orNull(t.semanticKind));
  return obj;
}

namespace {

void setTotals(JsonObject& obj, std::int64_t inputTokens, std::int64_t outputTokens, double costUsd,
               std::int64_t errorCount, std::int64_t firstSeen, std::int64_t lastSeen) {
  setTimestamp(obj, "firstSeen", firstSeen);
  setTimestamp(obj, "lastSeen", lastSeen);
  obj->set("costUsd", costUsd);
  obj->set("inputTokens", inputTokens);
  obj->set("outputTokens", outputTokens);
  obj->set("totalTokens", inputTokens + outputTokens);
  obj->set("errorCount", errorCount);
}

}  // namespace

void setToolCallLinks(JsonObject& telemetry, const traces::ToolCallLinks& links,
                      const std::vector<store::StoredEvent>& list, std::size_t i) {
  telemetry->set("toolCallId", orNull(links.callId[i]));
  if (const auto& link = links.requestedBy[i]) {
    const auto& requester = list[link->requester];
    const auto& call = links.requested[link->requester][link->call];
    auto by = newObject();
    by->set("eventId", std::to_string(requester.id));
    by->set("spanId", orNull(requester.spanId));
    by->set("toolCallId", orNull(call.id));
    by->set("tool", call.name);
    by->set("matchedBy", std::string(link->byId ? "id" : "name"));
    telemetry->set("requestedBy", by);
  } else {
    telemetry->set("requestedBy", Poco::Dynamic::Var());
  }
  if (links.requested[i].empty()) {
    telemetry->set("toolCalls", Poco::Dynamic::Var());
    return;
  }
  Poco::JSON::Array::Ptr calls = new Poco::JSON::Array;
  for (const auto& call : links.requested[i]) {
    auto c = newObject();
    c->set("toolCallId", orNull(call.id));
    c->set("name", call.name);
    c->set("answeredBy",
           call.answeredBy ? Poco::Dynamic::Var(std::to_string(list[*call.answeredBy].id)) : Poco::Dynamic::Var());
    calls->add(c);
  }
  telemetry->set("toolCalls", calls);
}

std::string traceEventsJson(const std::vector<store::StoredEvent>& list) {
  const auto links = traces::linkToolCalls(list);
  std::string out = "[";
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) out += ',';
    auto event = events::toJson(list[i]);  // an object: its closing brace is the last byte
    event.pop_back();
    auto telemetry = eventTelemetryJson(list[i].telemetry);
    setToolCallLinks(telemetry, links, list, i);
    out += event + ",\"telemetry\":" + stringify(telemetry) + "}";
  }
  return out + "]";
}

JsonObject sessionJson(const store::SessionRecord& s) {
  auto obj = newObject();
  obj->set("sessionId", s.sessionId);
  obj->set("traceCount", s.traceCount);
  setTotals(obj, s.inputTokens, s.outputTokens, s.costUsd, s.errorCount, s.firstSeen, s.lastSeen);
  obj->set("durationMs", static_cast<double>(s.lastSeen - s.firstSeen) / 1000.0);
  obj->set("userIds", stringArray(s.userIds));
  obj->set("userCount", s.userCount);
  return obj;
}

JsonObject sessionTraceJson(const store::TraceRecord& t) {
  auto obj = traceItem(t);
  obj->set("input", orNull(t.inputText));
  obj->set("output", orNull(t.outputText));
  return obj;
}

JsonObject endUserJson(const store::EndUserRecord& u) {
  auto obj = newObject();
  obj->set("userId", u.userId);
  obj->set("traceCount", u.traceCount);
  obj->set("sessionCount", u.sessionCount);
  setTotals(obj, u.inputTokens, u.outputTokens, u.costUsd, u.errorCount, u.firstSeen, u.lastSeen);
  return obj;
}

}  // namespace aev::http

#include "http/resource_views.h"

#include <Poco/JSON/Parser.h>

#include "http/render.h"
#include "plugins/instance_config.h"
#include "store/trace_texts.h"

namespace aev::http {

Poco::Dynamic::Var optionalText(const std::optional<std::string>& v) {
  return v ? Poco::Dynamic::Var(*v) : Poco::Dynamic::Var();
}

Poco::Dynamic::Var optionalId(const std::optional<std::int64_t>& v) {
  return v ? Poco::Dynamic::Var(idString(*v)) : Poco::Dynamic::Var();
}

Poco::JSON::Array::Ptr stringArray(const std::vector<std::string>& values) {
  Poco::JSON::Array::Ptr arr = new Poco::JSON::Array;
  for (const auto& v : values) arr->add(v);
  return arr;
}

namespace {

// A trace's tokens and cost (sums of its events' telemetry).
void setUsage(JsonObject& obj, const store::TraceRecord& t) {
  obj->set("inputTokens", t.inputTokens);
  obj->set("outputTokens", t.outputTokens);
  obj->set("totalTokens", t.inputTokens + t.outputTokens);
  obj->set("cachedInputTokens", t.cachedInputTokens);  // of inputTokens: cache reads
  obj->set("reasoningTokens", t.reasoningTokens);      // of outputTokens
  obj->set("costUsd", t.costUsd);
}

// The trace's session, end user and name (null when none of its events named one).
void setNames(JsonObject& obj, const store::TraceRecord& t) {
  const auto orNull = [](const std::optional<std::string>& v) {
    return v ? Poco::Dynamic::Var(*v) : Poco::Dynamic::Var();
  };
  obj->set("sessionId", orNull(t.sessionId));
  obj->set("userId", orNull(t.userId));
  obj->set("name", orNull(t.name));
  auto tags = newObject();
  for (const auto& [key, value] : t.tags) tags->set(key, value);
  obj->set("tags", tags);
  const auto preview = [](const std::optional<std::string>& text) {
    return text ? Poco::Dynamic::Var(store::previewLine(*text)) : Poco::Dynamic::Var();
  };
  obj->set("inputPreview", preview(t.inputText));
  obj->set("outputPreview", preview(t.outputText));
  // First start to last end of its events (an event ends at its time + its duration).
  obj->set("durationMs", static_cast<double>(t.endTime - t.startTime) / 1000.0);
}

}  // namespace

JsonObject traceItem(const store::TraceRecord& t) {
  auto obj = newObject();
  obj->set("traceId", t.traceId);
  setTimestamp(obj, "startTime", t.startTime);
  setTimestamp(obj, "endTime", t.endTime);
  obj->set("eventCount", t.eventCount);
  obj->set("errorCount", t.errorCount);
  obj->set("toolCallCount", t.toolCallCount);
  obj->set("handoffCount", t.handoffCount);
  obj->set("agents", stringArray(t.agents));
  setUsage(obj, t);
  setNames(obj, t);
  return obj;
}

JsonObject breakdownRow(const store::BreakdownRow& r) {
  auto obj = newObject();
  obj->set("key", r.key);
  obj->set("eventCount", r.eventCount);
  obj->set("errorCount", r.errorCount);
  obj->set("inputTokens", r.inputTokens);
  obj->set("outputTokens", r.outputTokens);
  obj->set("totalTokens", r.inputTokens + r.outputTokens);
  obj->set("costUsd", r.costUsd);
  obj->set("avgDurationMs", r.avgDurationMs.value_or(0.0));
  return obj;
}

JsonObject violationJson(const store::ViolationRecord& v) {
  auto obj = newObject();
  obj->set("id", idString(v.id));
  obj->set("violationId", idString(v.id));
  obj->set("ruleId", idString(v.ruleId));
  obj->set("ruleName", v.ruleName);
  obj->set("detector", v.detector);
  obj->set("action", v.action);
  obj->set("target", v.target);
  obj->set("eventId", v.eventId ? Poco::Dynamic::Var(idString(*v.eventId)) : Poco::Dynamic::Var());
  obj->set("traceId", optionalText(v.traceId));
  obj->set("channelId", v.channelId ? Poco::Dynamic::Var(idString(*v.channelId)) : Poco::Dynamic::Var());
  obj->set("eventType", v.eventType ? Poco::Dynamic::Var(*v.eventType) : Poco::Dynamic::Var());
  obj->set("source", v.source);
  obj->set("matchCount", v.matchCount);
  obj->set("fields", Poco::JSON::Parser().parse(v.fieldsJson));
  // Each match's detector, label and score; stored since v14 (older violations: []).
  obj->set("matches", v.matchesJson ? Poco::JSON::Parser().parse(*v.matchesJson)
                                    : Poco::Dynamic::Var(Poco::JSON::Array::Ptr(new Poco::JSON::Array)));
  obj->set("latencyMs", v.latencyMs);
  setTimestamp(obj, "createdAt", v.createdAt);
  return obj;
}

JsonObject alertJson(const std::string& baseUrl, const store::AlertRuleRecord& r, bool withSchemaField) {
  auto obj = withSchemaField ? withSchema(baseUrl, "AlertRule") : newObject();
  obj->set("alertRuleId", idString(r.id));
  obj->set("orgId", idString(r.orgId));
  obj->set("appId", optionalId(r.appId));
  obj->set("environmentId", optionalId(r.environmentId));
  obj->set("name", r.name);
  obj->set("metric", r.metric);
  obj->set("operator", r.op);
  obj->set("threshold", r.threshold);
  obj->set("windowMins", r.windowMins);
  obj->set("model", optionalText(r.model));
  obj->set("service", optionalText(r.service));
  obj->set("release", optionalText(r.release));
  obj->set("destination", optionalText(r.destination));
  obj->set("destinationType", optionalText(r.destinationType));
  obj->set("destinationConfig", plugins::publicConfig(r.destinationConfig.value_or("{}")));
  obj->set("secretConfigKeys", stringArray(plugins::sealedKeys(r.destinationConfig.value_or("{}"))));
  obj->set("enabled", r.enabled);
  obj->set("state", r.state);
  obj->set("lastValue", r.lastValue ? Poco::Dynamic::Var(*r.lastValue) : Poco::Dynamic::Var());
  setTimestamp(obj, "lastEvaluatedAt", r.lastEvaluatedAt);
  setTimestamp(obj, "createdAt", r.createdAt);
  setTimestamp(obj, "updatedAt", r.updatedAt);
  return obj;
}

JsonObject policyJson(const std::string& baseUrl, const spend::PolicyView& view, bool withSchemaField) {
  const auto& p = view.policy;
  auto obj = withSchemaField ? withSchema(baseUrl, "SpendPolicy") : newObject();
  obj->set("id", idString(p.id));
  obj->set("policyId", idString(p.id));
  obj->set("orgId", idString(p.orgId));
  obj->set("name", p.name);
  obj->set("apiKeyId", optionalId(p.apiKeyId));
  obj->set("appId", optionalId(p.appId));
  obj->set("environmentId", optionalId(p.environmentId));
  obj->set("userId", optionalText(p.userId));
  obj->set("model", optionalText(p.model));
  obj->set("provider", optionalText(p.provider));
  obj->set("tagKey", optionalText(p.tagKey));
  obj->set("tagValue", optionalText(p.tagValue));
  obj->set("limitUsd", p.limitUsd);
  obj->set("currentSpendUsd", spend::usdOf(view.currentSpendNanos));
  obj->set("windowType", p.windowType);
  obj->set("cooldownMins", p.cooldownMins);
  obj->set("destination", optionalText(p.destination));
  obj->set("destinationType", optionalText(p.destinationType));
  obj->set("enabled", p.enabled);
  Poco::JSON::Array::Ptr rungs = new Poco::JSON::Array;
  for (const auto& r : p.rungs) {
    auto rung = newObject();
    rung->set("at_percent", r.atPercent);
    rung->set("action", r.action);
    // A block rung saved without block_mode is hard (docs/features.md#spend-policies names hard first).
    rung->set("block_mode",
              r.action == "block" ? Poco::Dynamic::Var(r.blockMode.value_or("hard")) : Poco::Dynamic::Var());
    rung->set("fallback_model", optionalText(r.fallbackModel));
    rungs->add(rung);
  }
  obj->set("rungs", rungs);
  setTimestamp(obj, "createdAt", p.createdAt);
  setTimestamp(obj, "updatedAt", p.updatedAt);
  return obj;
}

JsonObject traceSummaryJson(const store::TraceRecord& t) {
  auto obj = newObject();
  obj->set("traceId", t.traceId);
  obj->set("eventCount", t.eventCount);
  obj->set("agents", stringArray(t.agents));
  obj->set("eventTypes", stringArray(t.eventTypes));
  setTimestamp(obj, "startTime", t.startTime);
  setTimestamp(obj, "endTime", t.endTime);
  obj->set("duration", static_cast<double>(t.endTime - t.startTime) / 1000.0);  // milliseconds
  obj->set("errorCount", t.errorCount);
  obj->set("toolCallCount", t.toolCallCount);
  obj->set("handoffCount", t.handoffCount);
  setUsage(obj, t);
  setNames(obj, t);
  return obj;
}

JsonObject breakdownJson(const analytics::Breakdown& b) {
  auto obj = newObject();
  obj->set("dimension", b.dimension);
  Poco::JSON::Array::Ptr rows = new Poco::JSON::Array;
  for (const auto& r : b.rows) rows->add(breakdownRow(r));
  obj->set("rows", rows);
  return obj;
}

JsonObject dimensionsJson(const std::vector<store::AttributeKeyRow>& keys) {
  auto obj = newObject();
  Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
  for (const auto& k : keys) {
    auto item = newObject();
    item->set("key", k.key);
    setTimestamp(item, "lastSeen", k.lastSeen);
    item->set("source", k.source);
    list->add(item);
  }
  obj->set("dimensions", list);
  return obj;
}

JsonObject timeseriesJson(const analytics::Series& series) {
  auto obj = newObject();
  obj->set("metric", series.metric);
  obj->set("interval", series.interval);
  Poco::JSON::Array::Ptr points = new Poco::JSON::Array;
  for (const auto& p : series.points) {
    auto point = newObject();
    setTimestamp(point, "ts", p.ts);
    point->set("value", p.value);
    points->add(point);
  }
  obj->set("points", points);
  return obj;
}

namespace {
Poco::Dynamic::Var numberOrNull(std::int64_t count, double value) {
  return count ? Poco::Dynamic::Var(value) : Poco::Dynamic::Var();
}
}  // namespace

JsonObject latencyJson(const analytics::Latency& l) {
  auto obj = newObject();
  obj->set("p50", numberOrNull(l.count, l.p50));
  obj->set("p90", numberOrNull(l.count, l.p90));
  obj->set("p95", numberOrNull(l.count, l.p95));
  obj->set("p99", numberOrNull(l.count, l.p99));
  obj->set("max", numberOrNull(l.count, l.max));
  obj->set("count", l.count);
  return obj;
}

void setEfficacyFields(JsonObject obj, const moderation::ViolationService::Efficacy& report) {
  setTimestamp(obj, "since", report.since);
  setTimestamp(obj, "until", report.until);
  Poco::JSON::Array::Ptr rows = new Poco::JSON::Array;
  for (const auto& r : report.rows) {
    auto row = newObject();
    row->set("detector", r.detector);
    row->set("action", r.action);
    row->set("target", r.target);
    row->set("violationCount", r.violationCount);
    row->set("avgLatencyMs", r.avgLatencyMs);
    row->set("maxLatencyMs", r.maxLatencyMs);
    rows->add(row);
  }
  obj->set("rows", rows);
  Poco::JSON::Array::Ptr rules = new Poco::JSON::Array;
  for (const auto& r : report.rules) {
    auto rule = newObject();
    rule->set("ruleId", idString(r.ruleId));
    rule->set("ruleName", r.ruleName);
    rule->set("action", r.action);
    rule->set("violationCount", r.violationCount);
    setTimestamp(rule, "lastViolationAt", r.lastViolationAt);
    rule->set("ruleDeleted", r.ruleDeleted);
    rules->add(rule);
  }
  obj->set("rules", rules);
}

JsonObject channelJson(const std::string& baseUrl, const store::ChannelRecord& ch, bool withSchemaField) {
  auto obj = withSchemaField ? withSchema(baseUrl, "Channel") : newObject();
  obj->set("id", ch.id);
  obj->set("channelId", idString(ch.id));
  obj->set("appId", idString(ch.appId));
  obj->set("orgId", idString(ch.orgId));
  obj->set("name", ch.name);
  setTimestamp(obj, "createdAt", ch.createdAt);
  setTimestamp(obj, "updatedAt", ch.updatedAt);
  return obj;
}

}  // namespace aev::http

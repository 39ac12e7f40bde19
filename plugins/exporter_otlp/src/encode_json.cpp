#include <agentevents/json.hpp>

#include <cmath>
#include <cstdio>

#include "encoders.h"
#include "time_and_ids.h"

namespace otlp {

namespace {

using aev::json::appendString;

void anyValue(std::string& out, const AnyValue& v);

// A double in the protobuf JSON mapping: a number, or "NaN" / "Infinity" / "-Infinity".
void number(std::string& out, double d) {
  char buf[40];
  if (std::isfinite(d)) std::snprintf(buf, sizeof buf, "%.17g", d);
  else std::snprintf(buf, sizeof buf, "\"%s\"", std::isnan(d) ? "NaN" : (d > 0 ? "Infinity" : "-Infinity"));
  out += buf;
}

void keyValues(std::string& out, const std::vector<KeyValue>& kvs) {
  out += '[';
  for (std::size_t i = 0; i < kvs.size(); ++i) {
    if (i) out += ',';
    out += "{\"key\":";
    appendString(out, kvs[i].key);
    out += ",\"value\":";
    anyValue(out, kvs[i].value);
    out += '}';
  }
  out += ']';
}

void anyValue(std::string& out, const AnyValue& v) {
  switch (v.kind) {
    case AnyValue::Kind::String:
      out += "{\"stringValue\":";
      appendString(out, v.s);
      out += '}';
      return;
    case AnyValue::Kind::Bool: out += v.b ? "{\"boolValue\":true}" : "{\"boolValue\":false}"; return;
    case AnyValue::Kind::Int: out += "{\"intValue\":\"" + std::to_string(v.i) + "\"}"; return;  // int64 as string
    case AnyValue::Kind::Double:
      out += "{\"doubleValue\":";
      number(out, v.d);
      out += '}';
      return;
    case AnyValue::Kind::Array:
      out += "{\"arrayValue\":{\"values\":[";
      for (std::size_t i = 0; i < v.array.size(); ++i) {
        if (i) out += ',';
        anyValue(out, v.array[i]);
      }
      out += "]}}";
      return;
    case AnyValue::Kind::KvList:
      out += "{\"kvlistValue\":{\"values\":";
      keyValues(out, v.kvlist);
      out += "}}";
      return;
    case AnyValue::Kind::Empty: out += "{}"; return;
  }
}

void field(std::string& out, const char* name, std::string_view value) {
  out += ",\"";
  out += name;
  out += "\":";
  appendString(out, value);
}

void nanos(std::string& out, const char* name, std::uint64_t v) {
  out += ",\"";
  out += name;
  out += "\":\"" + std::to_string(v) + "\"";  // fixed64 as a decimal string
}

void resourceAndScope(std::string& out, const ResourceBatch& b, const Scope& scope, const char* scopeKey) {
  out += "{\"resource\":{\"attributes\":";
  keyValues(out, b.resource);
  out += "},\"";
  out += scopeKey;
  out += "\":[{\"scope\":{\"name\":";
  appendString(out, scope.name);
  out += ",\"version\":";
  appendString(out, scope.version);
  out += '}';
}

void pointTimes(std::string& out, const std::vector<KeyValue>& attributes, std::uint64_t start, std::uint64_t time) {
  out += "{\"attributes\":";
  keyValues(out, attributes);
  nanos(out, "startTimeUnixNano", start);
  nanos(out, "timeUnixNano", time);
}

void metric(std::string& out, const Metric& m) {
  out += "{\"name\":";
  appendString(out, m.name);
  if (!m.description.empty()) field(out, "description", m.description);
  if (!m.unit.empty()) field(out, "unit", m.unit);
  if (m.kind == Metric::Kind::Sum) {
    out += ",\"sum\":{\"dataPoints\":[";
    for (std::size_t i = 0; i < m.numberPoints.size(); ++i) {
      const auto& p = m.numberPoints[i];
      if (i) out += ',';
      pointTimes(out, p.attributes, p.startTimeUnixNano, p.timeUnixNano);
      if (p.isDouble) {
        out += ",\"asDouble\":";
        number(out, p.asDouble);
      } else {
        out += ",\"asInt\":\"" + std::to_string(p.asInt) + "\"";  // sfixed64 as string
      }
      out += '}';
    }
    out += "],\"aggregationTemporality\":" + std::to_string(kTemporalityDelta) + ",\"isMonotonic\":true}}";
    return;
  }
  out += ",\"histogram\":{\"dataPoints\":[";
  for (std::size_t i = 0; i < m.histogramPoints.size(); ++i) {
    const auto& p = m.histogramPoints[i];
    if (i) out += ',';
    pointTimes(out, p.attributes, p.startTimeUnixNano, p.timeUnixNano);
    out += ",\"count\":\"" + std::to_string(p.count) + "\",\"sum\":";
    number(out, p.sum);
    out += ",\"bucketCounts\":[";
    for (std::size_t b = 0; b < p.bucketCounts.size(); ++b)
      out += (b ? ",\"" : "\"") + std::to_string(p.bucketCounts[b]) + "\"";
    out += "],\"explicitBounds\":[";
    for (std::size_t b = 0; b < p.explicitBounds.size(); ++b) {
      if (b) out += ',';
      number(out, p.explicitBounds[b]);
    }
    out += "],\"min\":";
    number(out, p.min);
    out += ",\"max\":";
    number(out, p.max);
    out += '}';
  }
  out += "],\"aggregationTemporality\":" + std::to_string(kTemporalityDelta) + "}}";
}

}  // namespace

std::string tracesJson(const std::vector<ResourceBatch>& batches, const Scope& scope) {
  std::string out = "{\"resourceSpans\":[";
  for (std::size_t bi = 0; bi < batches.size(); ++bi) {
    const auto& b = batches[bi];
    if (bi) out += ',';
    resourceAndScope(out, b, scope, "scopeSpans");
    out += ",\"spans\":[";
    for (std::size_t i = 0; i < b.spans.size(); ++i) {
      const Span& s = b.spans[i];
      if (i) out += ',';
      out += "{\"traceId\":\"" + toHex(s.traceId) + "\",\"spanId\":\"" + toHex(s.spanId) + "\"";
      if (!s.parentSpanId.empty()) out += ",\"parentSpanId\":\"" + toHex(s.parentSpanId) + "\"";
      field(out, "name", s.name);
      out += ",\"kind\":" + std::to_string(s.kind);
      nanos(out, "startTimeUnixNano", s.startTimeUnixNano);
      nanos(out, "endTimeUnixNano", s.endTimeUnixNano);
      out += ",\"attributes\":";
      keyValues(out, s.attributes);
      if (s.statusCode != kStatusUnset || !s.statusMessage.empty()) {
        out += ",\"status\":{\"code\":" + std::to_string(s.statusCode);
        if (!s.statusMessage.empty()) field(out, "message", s.statusMessage);
        out += '}';
      }
      out += '}';
    }
    out += "]}]}";
  }
  out += "]}";
  return out;
}

std::string logsJson(const std::vector<ResourceBatch>& batches, const Scope& scope) {
  std::string out = "{\"resourceLogs\":[";
  for (std::size_t bi = 0; bi < batches.size(); ++bi) {
    const auto& b = batches[bi];
    if (bi) out += ',';
    resourceAndScope(out, b, scope, "scopeLogs");
    out += ",\"logRecords\":[";
    for (std::size_t i = 0; i < b.logs.size(); ++i) {
      const LogRecord& l = b.logs[i];
      if (i) out += ',';
      out += "{\"severityNumber\":" + std::to_string(l.severityNumber);
      nanos(out, "timeUnixNano", l.timeUnixNano);
      nanos(out, "observedTimeUnixNano", l.observedTimeUnixNano);
      if (!l.severityText.empty()) field(out, "severityText", l.severityText);
      if (l.body.kind != AnyValue::Kind::Empty) {
        out += ",\"body\":";
        anyValue(out, l.body);
      }
      out += ",\"attributes\":";
      keyValues(out, l.attributes);
      if (!l.traceId.empty()) out += ",\"traceId\":\"" + toHex(l.traceId) + "\"";
      if (!l.spanId.empty()) out += ",\"spanId\":\"" + toHex(l.spanId) + "\"";
      if (!l.eventName.empty()) field(out, "eventName", l.eventName);
      out += '}';
    }
    out += "]}]}";
  }
  out += "]}";
  return out;
}

std::string metricsJson(const std::vector<ResourceBatch>& batches, const Scope& scope) {
  std::string out = "{\"resourceMetrics\":[";
  for (std::size_t bi = 0; bi < batches.size(); ++bi) {
    const auto& b = batches[bi];
    if (bi) out += ',';
    resourceAndScope(out, b, scope, "scopeMetrics");
    out += ",\"metrics\":[";
    for (std::size_t i = 0; i < b.metrics.size(); ++i) {
      if (i) out += ',';
      metric(out, b.metrics[i]);
    }
    out += "]}]}";
  }
  out += "]}";
  return out;
}

}  // namespace otlp

// exporter_otlp: ships events to an OpenTelemetry collector over OTLP/HTTP, as spans
// (traces signal), log records (logs signal) or per-batch aggregates (metrics signal,
// metric_aggregation.h), encoded as binary protobuf (default) or JSON. The protobuf
// encoding is hand-written (protobuf_writer.h): no protobuf library.
//
// Results follow the OTLP specification: 2xx ok (a partial success is logged and
// counted, not retried), 429/502/503/504 and network failures retry (honouring
// Retry-After), any other status is permanent.
#include <agentevents/http_post.hpp>
#include <agentevents/json.hpp>
#include <agentevents/plugin.hpp>

#include <string>

#include "encoders.h"
#include "event_mapping.h"
#include "metric_aggregation.h"
#include "signal_url.h"
#include "time_and_ids.h"

namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "required": ["endpointUrl"],
  "properties": {
    "endpointUrl": {"type": "string", "format": "uri", "description": "base URL, e.g. https://collector:4318"},
    "encoding": {"enum": ["protobuf", "json"]},
    "serviceName": {"type": "string"},
    "resourceAttributes": {"type": "object", "additionalProperties": {"type": "string"}},
    "headers": {"type": "object", "additionalProperties": {"type": "string"}},
    "timeoutMs": {"type": "integer", "minimum": 1, "maximum": 600000},
    "allowPrivateAddresses": {"type": "boolean"},
    "proxy": {"type": "string"}
  }
})";

// rejected_spans / rejected_log_records / rejected_data_points of an OTLP response's
// partial_success (field 1, its field 1), in either encoding; 0 when absent or unreadable.
std::int64_t rejectedCount(const std::string& body, bool json) {
  if (json) {
    try {
      auto v = aev::json::parse(body);
      const auto* partial = v.find("partialSuccess");
      if (!partial) return 0;
      for (const char* k : {"rejectedSpans", "rejectedLogRecords", "rejectedDataPoints"}) {
        if (const auto* r = partial->find(k)) {
          auto t = r->scalarText();
          return t ? std::strtoll(t->c_str(), nullptr, 10) : 0;
        }
      }
    } catch (const aev::json::ParseError&) {
    }
    return 0;
  }
  std::size_t pos = 0;
  auto varint = [&](std::uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64 && pos < body.size(); shift += 7) {
      auto b = static_cast<unsigned char>(body[pos++]);
      v |= std::uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  std::uint64_t key, len;
  if (!varint(key) || key != ((1u << 3) | 2) || !varint(len) || len > body.size() - pos) return 0;
  std::uint64_t inner;
  if (!varint(inner) || inner != ((1u << 3) | 0)) return 0;
  std::uint64_t count;
  return varint(count) ? static_cast<std::int64_t>(count) : 0;
}

class OtlpExporter final : public aev::Exporter {
 public:
  OtlpExporter(const aev::Host& host, std::string_view config) : host_(host) {
    auto cfg = aev::json::parse(config);
    destination_ = aev::http::parseDestination(cfg, host, "endpointUrl");
    std::string encoding = cfg.stringOr("encoding", "protobuf");
    if (encoding != "protobuf" && encoding != "json")
      throw aev::ConfigError("encoding must be \"protobuf\" or \"json\"");
    json_ = encoding == "json";
    if (const auto* s = cfg.find("serviceName"); s && s->isString() && !s->text().empty())
      mapping_.serviceName = s->text();
    if (const auto* attrs = cfg.find("resourceAttributes"); attrs && !attrs->isNull()) {
      if (!attrs->isObject()) throw aev::ConfigError("resourceAttributes must be an object of strings");
      for (const auto& [k, v] : attrs->members()) {
        if (!v.isString()) throw aev::ConfigError("resourceAttributes." + k + " must be a string");
        mapping_.resourceAttributes.push_back({k, otlp::AnyValue::string(v.text())});
      }
    }
    tracesUrl_ = otlp::signalUrl(destination_.url, "/v1/traces");
    logsUrl_ = otlp::signalUrl(destination_.url, "/v1/logs");
    metricsUrl_ = otlp::signalUrl(destination_.url, "/v1/metrics");
    rejected_ = host.counter("rejected_total",
                             "Spans, log records and data points an OTLP receiver rejected (partial success)");
  }

  aev::Status exportBatch(const aev::ExportInput& in, const aev::Call& call) override {
    if (in.signal != AEV_SIGNAL_TRACES && in.signal != AEV_SIGNAL_LOGS && in.signal != AEV_SIGNAL_METRICS)
      return aev::Status::Unsupported;
    aev::json::Value events;
    try {
      events = aev::json::parse(in.eventsJson);
    } catch (const aev::json::ParseError& e) {
      call.error(std::string("events are not JSON: ") + e.what());
      return aev::Status::Permanent;
    }
    otlp::MappingOptions options = mapping_;
    options.nowUnixNano = otlp::nowUnixNano();
    std::vector<otlp::ResourceBatch> batches;
    std::string body;
    const std::string* url = nullptr;
    const char* items = nullptr;
    switch (in.signal) {
      case AEV_SIGNAL_TRACES:
        batches = otlp::toSpans(events, options);
        body = json_ ? otlp::tracesJson(batches, scope_) : otlp::tracesProtobuf(batches, scope_);
        url = &tracesUrl_;
        items = " spans";
        break;
      case AEV_SIGNAL_LOGS:
        batches = otlp::toLogs(events, options);
        body = json_ ? otlp::logsJson(batches, scope_) : otlp::logsProtobuf(batches, scope_);
        url = &logsUrl_;
        items = " log records";
        break;
      default:
        batches = otlp::toMetrics(events, options);
        body = json_ ? otlp::metricsJson(batches, scope_) : otlp::metricsProtobuf(batches, scope_);
        url = &metricsUrl_;
        items = " data points";
        break;
    }
    if (batches.empty()) return aev::Status::Ok;  // nothing to send

    auto request = aev::http::requestTo(destination_, call, std::move(body),
                                        json_ ? "application/json" : "application/x-protobuf");
    request.url = *url;
    auto response = client_.post(request);
    auto status = aev::http::report(response, call, aev::http::RetryRule::Otlp);
    if (status == aev::Status::Ok) {
      if (auto rejected = rejectedCount(response.body, json_); rejected > 0) {
        rejected_.add(rejected);
        host_.warn("receiver rejected " + std::to_string(rejected) + items +
                   " of a batch (partial success)");
      }
    }
    return status;
  }

 private:
  aev::Host host_;
  aev::http::Destination destination_;
  bool json_ = false;
  otlp::MappingOptions mapping_;
  otlp::Scope scope_;
  std::string tracesUrl_, logsUrl_, metricsUrl_;
  aev::Counter rejected_;
  aev::http::Client client_;
};

void initCurl(const aev::Host&) { aev::http::curlGlobalInit(); }

}  // namespace

AEV_PLUGIN("exporter_otlp", "1.0.0", "agent-events", aev::onLoad(&initCurl),
           aev::exporter<OtlpExporter>("otlp",
                                       "OTLP/HTTP to an OpenTelemetry collector: spans, log records and "
                                       "per-batch metrics, protobuf or JSON",
                                       AEV_SIGNAL_TRACES | AEV_SIGNAL_LOGS | AEV_SIGNAL_METRICS, 0, kSchema))

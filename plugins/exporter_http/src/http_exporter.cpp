// exporter_http: POSTs each batch of stored events as JSON to a receiver of the operator's
// choice (export destination kind "http"). The host owns batching and retries; this
// plugin ships one batch per call and maps the answer onto ok / retry / permanent.
//
// Body, format "json" (default):  {"signal":"logs","count":2,"events":[<stored event>, ...]}
// Body, format "ndjson":          one stored event per line (application/x-ndjson)
//
// The metrics signal ships what the events measure rather than the events: the batch's
// delta aggregates (events, errors, tokens, cost, duration histogram per model, provider,
// event type and agent; the same aggregation as exporter_otlp), as an OTLP/JSON
// ExportMetricsServiceRequest:
// Body, format "json":            {"signal":"metrics","count":3,"metrics":{"resourceMetrics":[...]}}
// Body, format "ndjson":          that metrics document on one line
#include <agentevents/http_post.hpp>
#include <agentevents/json.hpp>
#include <agentevents/plugin.hpp>

#include <memory>
#include <string>

#include "encoders.h"
#include "metric_aggregation.h"
#include "time_and_ids.h"

namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "required": ["endpointUrl"],
  "properties": {
    "endpointUrl": {"type": "string", "format": "uri"},
    "headers": {"type": "object", "additionalProperties": {"type": "string"}},
    "format": {"enum": ["json", "ndjson"]},
    "timeoutMs": {"type": "integer", "minimum": 1, "maximum": 600000},
    "allowPrivateAddresses": {"type": "boolean"},
    "proxy": {"type": "string"}
  }
})";

const char* signalName(aev_signal s) {
  switch (s) {
    case AEV_SIGNAL_TRACES: return "traces";
    case AEV_SIGNAL_LOGS: return "logs";
    case AEV_SIGNAL_METRICS: return "metrics";
    default: return "unknown";
  }
}

class HttpExporter final : public aev::Exporter {
 public:
  HttpExporter(const aev::Host& host, std::string_view config) : host_(host) {
    auto cfg = aev::json::parse(config);
    destination_ = aev::http::parseDestination(cfg, host, "endpointUrl");
    std::string format = cfg.stringOr("format", "json");
    if (format != "json" && format != "ndjson") throw aev::ConfigError("format must be \"json\" or \"ndjson\"");
    ndjson_ = format == "ndjson";
    batches_ = host.counter("batches_total", "Batches POSTed by exporter_http");
  }

  aev::Status exportBatch(const aev::ExportInput& in, const aev::Call& call) override {
    std::string body;
    if (in.signal == AEV_SIGNAL_METRICS) {
      aev::json::Value events;
      try {
        events = aev::json::parse(in.eventsJson);
      } catch (const aev::json::ParseError& e) {
        call.error(std::string("events are not JSON: ") + e.what());
        return aev::Status::Permanent;
      }
      otlp::MappingOptions options;
      options.nowUnixNano = otlp::nowUnixNano();
      const auto batches = otlp::toMetrics(events, options);
      if (batches.empty()) return aev::Status::Ok;  // no event, nothing measured
      const auto metrics = otlp::metricsJson(batches, otlp::Scope{});
      if (ndjson_) {
        body = metrics + "\n";
      } else {
        body = "{\"signal\":\"metrics\",\"count\":" + std::to_string(in.eventCount) + ",\"metrics\":" + metrics + "}";
      }
    } else if (ndjson_) {
      auto events = aev::json::parse(in.eventsJson);
      if (!events.isArray()) {
        call.error("events are not a JSON array");
        return aev::Status::Permanent;
      }
      for (const auto& e : events.items()) {
        e.dumpTo(body);
        body += '\n';
      }
    } else {
      body.reserve(in.eventsJson.size() + 64);
      body += "{\"signal\":\"";
      body += signalName(in.signal);
      body += "\",\"count\":" + std::to_string(in.eventCount) + ",\"events\":";
      body += in.eventsJson;  // already a JSON array: spliced, not re-serialised
      body += '}';
    }
    auto request = aev::http::requestTo(destination_, call, std::move(body),
                                        ndjson_ ? "application/x-ndjson" : "application/json");
    request.headers.emplace_back("x-agent-events-signal", signalName(in.signal));
    auto response = client_.post(request);
    batches_.add();
    return aev::http::report(response, call);
  }

 private:
  aev::Host host_;
  aev::http::Destination destination_;
  bool ndjson_ = false;
  aev::Counter batches_;
  aev::http::Client client_;
};

void initCurl(const aev::Host&) { aev::http::curlGlobalInit(); }

}  // namespace

AEV_PLUGIN("exporter_http", "1.0.0", "agent-events", aev::onLoad(&initCurl),
           aev::exporter<HttpExporter>("http", "JSON batches of events POSTed to any HTTP receiver",
                                       AEV_SIGNAL_TRACES | AEV_SIGNAL_LOGS | AEV_SIGNAL_METRICS, 0, kSchema))

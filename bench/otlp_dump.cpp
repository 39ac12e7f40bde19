// What POST /v1/traces would store for each OTLP/JSON body, one body a line of the input
// (bench/otlp_corpus.py writes such lines: the recorded fixtures, the fuzz corpus and mutated
// copies of them): decoded, mapped, duplicate spans marked, and taken through the publisher's
// extract step as the route does; every stored field and telemetry column, or the refusal,
// printed. Two builds' outputs on the same input must be identical (a change of the mapping
// that claims to keep behaviour is checked so: NOTEBOOK.md, "OTLP ingest").
//   aev_bench_otlp_dump < bodies.jsonl > stored.txt
#include <Poco/JSON/Stringifier.h>

#include <iostream>
#include <sstream>
#include <string>

#include "common/errors.h"
#include "events/publisher.h"
#include "otlp/trace_ingest.h"
#include "telemetry/extractor.h"

namespace {

template <typename T>
void field(std::ostream& out, const char* name, const std::optional<T>& v) {
  out << ' ' << name << '=';
  if (v)
    out << *v;
  else
    out << '-';
}

void telemetry(std::ostream& out, const aev::store::TelemetryFields& t) {
  field(out, "model", t.model);
  field(out, "provider", t.provider);
  field(out, "status", t.status);
  field(out, "agent", t.agent);
  field(out, "tool", t.tool);
  field(out, "finish", t.finishReason);
  field(out, "kind", t.semanticKind);
  field(out, "service", t.service);
  field(out, "operation", t.operation);
  field(out, "errorType", t.errorType);
  field(out, "environment", t.environment);
  field(out, "release", t.release);
  field(out, "endUser", t.endUser);
  field(out, "session", t.session);
  field(out, "traceName", t.traceName);
  field(out, "in", t.inputTokens);
  field(out, "out", t.outputTokens);
  field(out, "cached", t.cachedInputTokens);
  field(out, "reasoning", t.reasoningTokens);
  field(out, "cost", t.costUsd);
  field(out, "duration", t.durationMs);
  for (const auto& [k, v] : t.attributes) out << " attr[" << k << "]=" << v;
  out << '\n';
}

}  // namespace

int main() {
  std::cout.precision(17);
  const aev::telemetry::Extractor extractor(aev::telemetry::PriceTable::builtIn());
  std::string body;
  std::size_t line = 0;
  while (std::getline(std::cin, body)) {
    std::cout << "# " << ++line << '\n';
    try {
      auto batch =
          aev::otlp::decodeTraceExport(body, "", aev::otlp::Encoding::Json, 64u << 20, aev::otlp::SpanTexts::Deferred);
      for (const auto& r : batch.rejected) std::cout << "rejected " << r.spanIndex << ' ' << r.reason << '\n';
      for (std::size_t i = 0; i < batch.events.size(); ++i) {
        auto& span = batch.events[i];
        std::cout << "span " << span.traceId << ' ' << span.spanId << ' ' << span.parentSpanId.value_or("-") << ' '
                  << (span.occurredAtMicros ? std::to_string(*span.occurredAtMicros) : "-")
                  << " channel=" << batch.resourceChannels[i] << '\n';
        aev::events::Submission s;
        s.location = "span";
        s.event.source = "otlp";
        s.event.identifier = std::move(span.identifier);
        s.event.agentId = std::move(span.agentId);
        s.event.eventType = std::move(span.eventType);
        s.flatMetadata = std::move(span.flatMetadata);
        s.event.payloadJson = std::move(span.payloadJson);
        s.payloadInTextOrder = true;
        s.textsFromObjects = true;
        try {
          aev::events::Publisher::extract(extractor, s);
        } catch (const aev::ApiError& e) {
          std::cout << "refused " << e.what() << '\n';
          for (const auto& f : e.fieldErrors()) std::cout << "  " << f.location << ": " << f.message << '\n';
          continue;
        }
        const auto& e = s.event;
        // The payload as moderation would read and rewrite it: the same text again.
        std::ostringstream rewritten;
        Poco::JSON::Stringifier::condense(s.payload(), rewritten);
        if (rewritten.str() != e.payloadJson) std::cout << "payload-rewrite-differs " << rewritten.str() << '\n';
        std::cout << "id=" << e.identifier << " type=" << e.eventType.value_or("-")
                  << " agent=" << e.agentId.value_or("-") << " error=" << e.isError << '\n'
                  << "payload " << e.payloadJson << '\n'
                  << "metadata " << e.metadataJson.value_or("-") << '\n'
                  << "telemetry";
        telemetry(std::cout, e.telemetry);
      }
    } catch (const aev::otlp::IngestError& e) {
      std::cout << "ingest-error " << e.httpStatus() << ' ' << e.what() << '\n';
    }
  }
  return 0;
}

// CPU per span of the OTLP mapping, per convention (bench/otlp_ingest.sh runs it): each
// fixture recorded from the npm instrumentations (tests/unit/fixtures/otlp/<scenario>.json) is
// decoded once, then its spans are mapped to events (otlp::spanEvents) and taken through the
// publisher's extract step (convention table, messages into the payload) as POST /v1/traces
// does, many times; the process CPU time over spans mapped is the figure.
//   aev_bench_otlp_mapping <fixtures dir> [iterations]
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include <Poco/JSON/Parser.h>

#include "events/publisher.h"
#include "otlp/span_events.h"
#include "otlp/trace_decode.h"
#include "telemetry/extractor.h"

namespace {

double cpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: aev_bench_otlp_mapping <fixtures dir> [iterations]\n";
    return 2;
  }
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 2000;
  const aev::telemetry::Extractor extractor(aev::telemetry::PriceTable::builtIn());
  std::cout << "| convention (fixture) | spans | µs CPU per span |\n|---|---|---|\n";
  for (const char* scenario : {"otel-contrib", "openllmetry", "openinference", "ai-sdk", "langfuse", "openai-agents"}) {
    std::ifstream in(std::string(argv[1]) + "/" + scenario + ".json");
    std::stringstream text;
    text << in.rdbuf();
    const auto request = aev::otlp::decodeTraceRequestJson(text.str());
    std::size_t spans = 0;
    const double start = cpuSeconds();
    for (int i = 0; i < iterations; ++i) {
      auto batch = aev::otlp::spanEvents(request, aev::otlp::SpanTexts::Deferred);
      for (auto& span : batch.events) {
        aev::events::Submission s;
        s.location = "span";
        s.event.source = "otlp";
        s.event.identifier = std::move(span.identifier);
        s.event.agentId = std::move(span.agentId);
        s.event.eventType = std::move(span.eventType);
        s.flatMetadata = std::move(span.flatMetadata);  // as POST /v1/traces hands them on
        s.event.payloadJson = std::move(span.payloadJson);
        s.payloadInTextOrder = true;
        s.textsFromObjects = true;
        aev::events::Publisher::extract(extractor, s);
        ++spans;
      }
    }
    const double perSpan = (cpuSeconds() - start) / static_cast<double>(spans) * 1e6;
    std::cout << "| " << scenario << " | " << spans / static_cast<std::size_t>(iterations) << " | " << perSpan
              << " |\n";
  }
  return 0;
}

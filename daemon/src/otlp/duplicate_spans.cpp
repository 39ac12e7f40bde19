#include "otlp/duplicate_spans.h"

#include <Poco/JSON/Stringifier.h>

#include <map>
#include <optional>
#include <sstream>
#include <tuple>

#include "telemetry/conventions.h"

namespace aev::otlp {

namespace {

using telemetry::conventions::Field;

// What makes two LLM spans the same call, and when each ran.
struct Call {
  std::size_t index = 0;
  std::int64_t start = 0, end = 0;  // microseconds
};

using CallKey = std::tuple<std::string, std::string, double, double>;  // trace, model, input, output

std::optional<CallKey> keyOf(const SpanEvent& e) {
  if (!e.metadata && !e.flatMetadata) return std::nullopt;
  CallUsage usage;
  if (e.llmUsage) {  // the mapping read them from the decoded attributes
    usage = *e.llmUsage;
  } else {
    // The mapping reads them for every LLM span it makes: only an event made otherwise
    // (with a metadata object) is read here.
    if (!e.metadata || e.metadata->optValue<std::string>("semantic_kind", "") != "llm") return std::nullopt;
    const telemetry::conventions::Lookup lookup(e.metadata);
    usage = {lookup.text(Field::Model, true), lookup.number(Field::InputTokens, true),
             lookup.number(Field::OutputTokens, true)};
  }
  auto& [model, input, output] = usage;
  // A call that reports no usage has nothing to count twice.
  if (!model || (!input && !output)) return std::nullopt;
  return CallKey{e.traceId, *model, input.value_or(-1), output.value_or(-1)};
}

std::optional<Call> timesOf(const SpanEvent& e, std::size_t index) {
  if (!e.occurredAtMicros) return std::nullopt;
  const double ms = e.flatMetadata ? e.flatMetadata->optValue<double>("duration_ms", 0.0)
                                   : e.metadata->optValue<double>("duration_ms", 0.0);
  return Call{index, *e.occurredAtMicros, *e.occurredAtMicros + static_cast<std::int64_t>(ms * 1000.0)};
}

bool overlap(const Call& a, const Call& b) { return a.start <= b.end && b.start <= a.end; }

// Two instrumentations: two named scopes that differ. Two spans of one instrumentation
// are two calls, however alike (parallel calls with the same prompt).
bool otherInstrumentation(const SpanEvent& a, const SpanEvent& b) {
  return !a.scopeName.empty() && !b.scopeName.empty() && a.scopeName != b.scopeName;
}

// The calls kept for one key. One instrumentation's export of many alike calls (one trace,
// one model, the same usage) keeps them all; `oneScope` lets each next span of that scope
// skip the comparison with every earlier one, which made a request quadratic.
struct Kept {
  std::vector<Call> calls;
  std::string firstScope;
  bool oneScope = true;  // every kept call's scope is firstScope

  void add(const Call& call, const std::string& scope) {
    if (calls.empty())
      firstScope = scope;
    else if (scope != firstScope)
      oneScope = false;
    calls.push_back(call);
  }
  // Whether no kept call can be of another instrumentation than a span of `scope`.
  bool sameInstrumentationOnly(const std::string& scope) const {
    return scope.empty() || (oneScope && scope == firstScope);
  }
};

}  // namespace

std::size_t markDuplicateLlmSpans(std::vector<SpanEvent>& events) {
  std::map<CallKey, Kept> kept;
  std::size_t marked = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    auto& e = events[i];
    auto key = keyOf(e);
    if (!key) continue;
    auto call = timesOf(e, i);
    if (!call) continue;
    auto& same = kept[*key];
    const Call* original = nullptr;
    if (!same.sameInstrumentationOnly(e.scopeName))
      for (const auto& k : same.calls)
        if (overlap(k, *call) && otherInstrumentation(events[k.index], e)) {
          original = &k;
          break;
        }
    if (!original) {
      same.add(*call, e.scopeName);
      continue;
    }
    if (e.flatMetadata) {
      setText(*e.flatMetadata, "duplicate_of", events[original->index].spanId, *e.addedValues);
      e.metadataJson = e.flatMetadata->text();
    } else {
      e.metadata->set("duplicate_of", events[original->index].spanId);
      std::ostringstream text;
      Poco::JSON::Stringifier::condense(e.metadata, text);
      e.metadataJson = text.str();
    }
    ++marked;
  }
  return marked;
}

}  // namespace aev::otlp

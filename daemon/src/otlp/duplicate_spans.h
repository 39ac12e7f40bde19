#pragma once
// Two instrumentations on one client (OpenLLMetry and OpenInference both installed, say)
// export two spans for the same LLM call. Counting both would double its tokens and cost.
//
// Within one export request, an LLM span (metadata.semantic_kind "llm") is a duplicate of
// an earlier one of the same trace when another instrumentation made it (the two spans'
// scope names differ), their times overlap, and they name the same model and the same
// input and output tokens (telemetry/conventions.h reads each in its own convention). The duplicate keeps its event,
// marked metadata.duplicate_of = the span id it repeats; the extractor counts no tokens and no cost for it
// (telemetry/extractor.cpp), so trace summaries and analytics count the call once. Spans of the same call exported in
// different requests are not matched (one tracer provider exports both in one batch).
#include <vector>

#include "otlp/span_events.h"

namespace aev::otlp {

// Marks the duplicates among `events` (in request order: the first of a pair is kept);
// returns how many it marked.
std::size_t markDuplicateLlmSpans(std::vector<SpanEvent>& events);

}  // namespace aev::otlp

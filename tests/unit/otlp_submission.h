#pragma once
// An OTLP span's event as POST /v1/traces hands it to the publisher (http/routes/
// otlp_routes.cpp's toSubmission), for unit tests: its fields and payload text copied; its
// metadata, and how the texts are written, are each test's to set.
#include "events/submission.h"
#include "otlp/span_events.h"

namespace aev::otlp {

inline events::Submission spanSubmission(const SpanEvent& span) {
  events::Submission s;
  s.location = "span";
  s.event.source = "otlp";
  s.event.identifier = span.identifier;
  s.event.agentId = span.agentId;
  s.event.eventType = span.eventType;
  s.event.parentSpanId = span.parentSpanId;
  s.event.payloadJson = span.payloadJson;
  return s;
}

}  // namespace aev::otlp

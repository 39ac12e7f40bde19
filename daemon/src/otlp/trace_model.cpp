#include "otlp/trace_model.h"

namespace aev::otlp {

const char* statusCodeName(int code) {
  switch (code) {
    case kStatusOk:
      return "ok";
    case kStatusError:
      return "error";
    default:
      return "unset";
  }
}

std::size_t TraceRequest::spanCount() const {
  std::size_t n = 0;
  for (const auto& rs : resourceSpans)
    for (const auto& ss : rs.scopeSpans) n += ss.spans.size();
  return n;
}

}  // namespace aev::otlp

#pragma once
// The request target (RFC 9112 §3.2) as handlers read it: the path exactly as sent, and
// the query parameters percent-decoded once. Everything a subscriber's stream filter
// (agent_id, event_type, trace_id), resume point (last_event_id) or stream token arrives
// in passes through here, so it is fuzzed (tests/fuzz/request_target_fuzzer.cpp).
#include <map>
#include <string>

namespace aev::http {

struct RequestTarget {
  std::string path;                               // still percent-encoded: the router decodes segments
  std::multimap<std::string, std::string> query;  // decoded; repeated names kept in order
};

// Throws a 400 ApiError when the target is not a URI (a stray '%'), or when a query name
// or value is not text every store can hold (ill-formed UTF-8, NUL): decided here, so a
// filter that one store could not compare never reaches either.
RequestTarget parseRequestTarget(const std::string& target);

}  // namespace aev::http

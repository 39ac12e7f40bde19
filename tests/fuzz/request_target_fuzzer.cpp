// libFuzzer target for the request target, the step between the HTTP parser and a
// handler: where a subscriber's stream filter (agent_id, event_type, trace_id), its resume
// point (last_event_id) and its stream token are percent-decoded (http/request_target.cpp).
// Two kinds of input, chosen by the first byte:
//   - any bytes as a target: parseRequestTarget either refuses with a 400 problem, or
//     returns a path without '?' or '#' and query names and values that every store can
//     hold (well-formed UTF-8, no NUL); a last_event_id among them reads as an id, -1 or
//     absent without fault;
//   - NUL-separated agent_id, event_type, trace_id and last_event_id values, written into
//     a subscribe URL as a client encodes them: every value comes back exactly as it was
//     (so a filter matches what the subscriber asked for), or the target is refused
//     because a value is not storable text.
#include <Poco/URI.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/errors.h"
#include "fuzz_support.h"
#include "http/request_target.h"
#include "stream/sse_frame.h"

namespace {

using aev::fuzz::require;

bool storable(const std::string& s) { return aev::fuzz::validUtf8(s) && s.find('\0') == std::string::npos; }

void anyTarget(const std::string& target) {
  aev::http::RequestTarget parsed;
  try {
    parsed = aev::http::parseRequestTarget(target);
  } catch (const aev::ApiError& e) {
    require(e.status() == 400);
    return;
  }
  require(parsed.path.find_first_of("?#") == std::string::npos);
  for (const auto& [name, value] : parsed.query) {
    require(storable(name) && storable(value));
    if (name == "last_event_id") {
      auto id = aev::stream::parseLastEventId(value);
      require(value.empty() ? !id.has_value() : id.has_value() && *id >= -1);
    }
  }
}

void subscribeUrl(const std::vector<std::string>& values) {
  static const char* const names[] = {"agent_id", "event_type", "trace_id", "last_event_id"};
  std::string target = "/channel/7/subscribe";
  for (std::size_t i = 0; i < 4; ++i) {
    std::string encoded;
    Poco::URI::encode(values[i], "!#$&'()*+,/:;=?@[]%", encoded);
    target += (i == 0 ? "?" : "&") + std::string(names[i]) + "=" + encoded;
  }
  aev::http::RequestTarget parsed;
  try {
    parsed = aev::http::parseRequestTarget(target);
  } catch (const aev::ApiError& e) {
    require(e.status() == 400);
    bool someUnstorable = false;
    for (std::size_t i = 0; i < 4; ++i) someUnstorable = someUnstorable || !storable(values[i]);
    require(someUnstorable);  // a URL a client built from storable text is never refused
    return;
  }
  require(parsed.path == "/channel/7/subscribe");
  require(parsed.query.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    auto it = parsed.query.find(names[i]);
    require(it != parsed.query.end() && it->second == values[i]);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1) {
    auto values = aev::fuzz::nulSeparatedFields(rest);
    values.resize(4);
    subscribeUrl(values);
  } else {
    anyTarget(rest);
  }
  return 0;
}

// libFuzzer target for what a subscriber exchanges over text/event-stream:
//   - the Last-Event-ID it sends back: parseLastEventId accepts exactly 1-18 decimal
//     digits (and then returns their value), reads "" as absent and anything else as -1;
//   - the frame each event is written as, from publisher-controlled strings: exactly an
//     "id: <id>" line and one "data: " line ending the frame with a blank line, no CR or
//     LF inside the data (a byte that ended the line early would let a publisher forge
//     events for every subscriber), and the data is valid JSON that reads back the
//     strings as they were published.
// Input: the Last-Event-ID text, then NUL-separated identifier, agentId, eventType,
// traceId and a JSON payload.
#include <Poco/JSON/Object.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/json_condense.h"
#include "common/json_parse.h"
#include "fuzz_support.h"
#include "stream/hub.h"
#include "stream/sse_frame.h"

namespace {

void checkLastEventId(const std::string& text) {
  using aev::fuzz::require;
  auto id = aev::stream::parseLastEventId(text);
  if (text.empty()) return require(!id.has_value());
  bool digits = text.size() <= 18;
  std::int64_t expected = 0;
  for (char c : text) {
    digits = digits && c >= '0' && c <= '9';
    if (digits) expected = expected * 10 + (c - '0');
  }
  require(id.has_value() && *id == (digits ? expected : -1));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using aev::fuzz::require;
  auto parts = aev::fuzz::nulSeparatedFields(std::string(reinterpret_cast<const char*>(data), size));
  checkLastEventId(parts[0]);
  parts.resize(6);

  aev::store::StoredEvent e;
  e.id = static_cast<std::int64_t>(size) * 7919;
  e.identifier = parts[1];
  if (!parts[2].empty()) e.agentId = parts[2];
  if (!parts[3].empty()) e.eventType = parts[3];
  if (!parts[4].empty()) e.traceId = parts[4];
  for (const auto& s : {e.identifier, parts[2], parts[3], parts[4]})
    if (!aev::fuzz::validUtf8(s)) return 0;  // publish refuses what is not UTF-8
  try {
    e.payloadJson = aev::condensedJson(aev::parseJson(parts[5].empty() ? "{}" : parts[5], 64));
  } catch (const aev::JsonSyntaxError&) {
    return 0;  // publish refuses what is not JSON
  }

  const std::string frame = aev::stream::Hub::frameOf(e);
  const std::string head = "id: " + std::to_string(e.id) + "\ndata: ";
  require(frame.compare(0, head.size(), head) == 0);
  require(frame.size() >= head.size() + 2 && frame.compare(frame.size() - 2, 2, "\n\n") == 0);
  const std::string json = frame.substr(head.size(), frame.size() - head.size() - 2);
  require(json.find_first_of("\r\n") == std::string::npos);
  require(aev::fuzz::validUtf8(json));
  try {
    auto parsed = aev::parseJson(json, 128).extract<Poco::JSON::Object::Ptr>();
    require(parsed->getValue<std::string>("identifier") == e.identifier);
    if (e.agentId) require(parsed->getValue<std::string>("agentId") == *e.agentId);
    if (e.eventType) require(parsed->getValue<std::string>("eventType") == *e.eventType);
    if (e.traceId) require(parsed->getValue<std::string>("traceId") == *e.traceId);
    require(aev::condensedJson(parsed->get("payload")) == e.payloadJson);
  } catch (const aev::JsonSyntaxError&) {
    std::abort();
  }
  return 0;
}

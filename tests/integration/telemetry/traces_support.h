#pragma once
// Helpers of the traces suites (docs/features.md#traces): times in the daemon's own RFC 3339
// form, a publisher (tenant, app, channel, API key with publish + read), and events of a
// trace published one at a time (POST /event) or together (POST /events/batch).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "integration/events/events_support.h"

namespace aev::testing {

inline constexpr std::int64_t kMs = 1000;         // in µs
inline constexpr std::int64_t kSec = 1000 * kMs;  // in µs

// A whole second two hours ago (µs since the epoch): fixed offsets from it give times
// that are exact, in the past, and recent.
std::int64_t recentBase();
// The daemon's RFC 3339 form: UTC, six fraction digits, "Z".
std::string rfc3339(std::int64_t micros);
// Reads that form back (throws on anything else).
std::int64_t fromRfc3339(const std::string& text);

struct TraceEventSpec {
  // A constructor rather than an aggregate: specs are written {identifier, type, agent}
  // with the rest defaulted, which -Wmissing-field-initializers refuses for aggregates.
  TraceEventSpec(std::string identifier, std::string eventType = "", std::string agent = "",
                 std::optional<std::int64_t> at = std::nullopt, Poco::JSON::Object::Ptr metadata = nullptr)
      : identifier(std::move(identifier)),
        eventType(std::move(eventType)),
        agent(std::move(agent)),
        at(at),
        metadata(std::move(metadata)) {}

  std::string identifier;
  std::string eventType;           // "" = not sent
  std::string agent;               // "" = not sent
  std::optional<std::int64_t> at;  // the publisher's `timestamp`; none = the receive time
  Poco::JSON::Object::Ptr metadata;
};

struct Publisher {
  Tenant tenant;
  std::int64_t appId = 0;
  std::int64_t channelId = 0;
  ApiKey key;        // scopes publish and read
  HttpClient keyed;  // X-API-Key: key
};

class TracesTest : public EventsTest {
 protected:
  static Publisher newPublisher(const std::string& tag);
  // The body of one event of trace `traceId`.
  static Poco::JSON::Object::Ptr traceEvent(std::int64_t channelId, const std::string& traceId,
                                            const TraceEventSpec& spec);
  // POST /event; the stored event (throws unless 201).
  static Poco::JSON::Object::Ptr publishOne(const HttpClient& http, std::int64_t channelId, const std::string& traceId,
                                            const TraceEventSpec& spec);
  // POST /events/batch; the stored events in request order (throws unless each is 201).
  static std::vector<Poco::JSON::Object::Ptr> publishBatch(const HttpClient& http, std::int64_t channelId,
                                                           const std::string& traceId,
                                                           const std::vector<TraceEventSpec>& specs);
  // The traceIds of a GET /traces answer, in answer order.
  static std::vector<std::string> traceIdsOf(const HttpResult& list);
  static std::vector<std::string> strings(const Poco::JSON::Array::Ptr& array);
  // "/traces/<id>/<what>" with the id percent-encoded.
  static std::string tracePath(const std::string& traceId, const std::string& what);
};

}  // namespace aev::testing

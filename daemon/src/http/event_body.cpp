#include "http/event_body.h"

#include <Poco/JSON/Object.h>

#include <array>
#include <optional>
#include <string_view>

#include "common/clock.h"
#include "common/json_condense.h"
#include "common/metrics.h"
#include "common/text.h"
#include "http/body.h"
#include "http/request.h"

namespace aev::http {

namespace {

using Poco::JSON::Object;

// Sizes in code points, the same for both readings of an event.
constexpr std::size_t kIdentifierMax = 256;
constexpr std::size_t kShortStringMax = 256;  // agentId, eventType, traceId, spanId, parentSpanId
constexpr std::size_t kTimestampMax = 64;

std::optional<std::string> shortString(BodyReader& body, const std::string& field) {
  return body.string(field, false, 0, kShortStringMax);
}

// Who published it: the organization, and the user or the API key.
void setPublisher(events::NewEvent& e, const auth::Principal& p) {
  e.orgId = *p.orgId;
  if (p.isUser())
    e.userId = p.userId;
  else
    e.apiKeyId = p.apiKeyId;
}

}  // namespace

// The Poco path: the event as an object, every problem collected for one 422.
events::Submission parseEventObject(const Object::Ptr& obj, const std::string& location, const auth::Principal& p,
                                    const std::string& source) {
  BodyReader body(obj, location);
  events::Submission s;
  s.location = location;
  auto& e = s.event;
  e.source = source;
  e.identifier = body.string("identifier", true, 1, kIdentifierMax).value_or("");
  Object::Ptr payload;
  if (!body.has("payload"))
    body.fail("payload", "is required");
  else if ((payload = obj->getObject("payload")))
    e.payloadJson = condensedJson(payload);
  else
    body.fail("payload", "must be an object", stringify(obj->get("payload")));
  s.payloadIs(payload);
  e.channelId = body.idInEitherShape("channel_id", "channelId", true).value_or(0);
  e.agentId = shortString(body, "agentId");
  e.eventType = body.oneOf("eventType", false, events::eventTypes());
  e.traceId = shortString(body, "traceId");
  e.spanId = shortString(body, "spanId");
  e.parentSpanId = shortString(body, "parentSpanId");
  if (body.has("metadata")) {
    if ((s.metadata = obj->getObject("metadata")))
      e.metadataJson = condensedJson(s.metadata);
    else
      body.fail("metadata", "must be an object", stringify(obj->get("metadata")));
  }
  if (auto ts = body.string("timestamp", false, 1, kTimestampMax)) {
    if (auto micros = clock::parseRfc3339(*ts))
      e.occurredAt = micros;
    else
      body.fail("timestamp", "must be an RFC 3339 timestamp", *ts);
  }
  s.problems = body.problems();
  setPublisher(e, p);
  return s;
}

// ---------------------------------------------------------------- the direct reading

namespace {

// The members parseEventObject reads; of duplicates the last one counts, as in Poco's object.
enum Field {
  kIdentifier,
  kPayload,
  kChannelUnderscore,
  kChannelId,
  kAgentId,
  kEventType,
  kTraceId,
  kSpanId,
  kParentSpanId,
  kMetadata,
  kTimestamp,
  kFieldCount
};
constexpr std::array<std::string_view, kFieldCount> kFieldNames = {
    "identifier", "payload", "channel_id",   "channelId", "agentId",  "eventType",
    "traceId",    "spanId",  "parentSpanId", "metadata",  "timestamp"};

class PlainReader {
 public:
  PlainReader(const JsonView& v, std::uint32_t object) : v_(v) {
    for (auto k = v.firstChild(object); k != v.endOf(object); k = v.nextSibling(k + 1)) {
      if (!v.node(k).verbatim) {
        plain_ = false;  // an escaped member name: left to the Poco path
        return;
      }
      const auto name = v.verbatimString(k);
      for (std::size_t f = 0; f < kFieldCount; ++f)
        if (name == kFieldNames[f]) {
          // null reads as absent (BodyReader::present)
          at_[f] = v.kind(k + 1) == JsonView::Kind::Null ? std::nullopt : std::optional<std::uint32_t>(k + 1);
          break;
        }
    }
  }

  // Fills e's fields from the text; false when parseEventObject must read the event instead.
  bool read(events::NewEvent& e) {
    if (!plain_ || !at_[kPayload] || v_.kind(*at_[kPayload]) != JsonView::Kind::Object) return false;
    if (!at_[kIdentifier] || !string(kIdentifier, 1, kIdentifierMax, e.identifier)) return false;  // required
    // channel_id or channelId (the two shapes); both sent is left to the Poco path, which
    // accepts them only when they agree (BodyReader::idInEitherShape).
    if (!at_[kChannelUnderscore] == !at_[kChannelId]) return false;
    if (!id(*(at_[kChannelUnderscore] ? at_[kChannelUnderscore] : at_[kChannelId]), e.channelId)) return false;
    if (!optionalString(kAgentId, e.agentId) || !optionalString(kEventType, e.eventType) ||
        !optionalString(kTraceId, e.traceId) || !optionalString(kSpanId, e.spanId) ||
        !optionalString(kParentSpanId, e.parentSpanId))
      return false;
    if (e.eventType && !events::isEventType(*e.eventType)) return false;
    if (at_[kMetadata] && v_.kind(*at_[kMetadata]) != JsonView::Kind::Object) return false;
    if (at_[kTimestamp]) {
      std::string timestamp;
      if (!string(kTimestamp, 1, kTimestampMax, timestamp) || !(e.occurredAt = clock::parseRfc3339(timestamp)))
        return false;
    }
    v_.appendCondensed(e.payloadJson, *at_[kPayload]);
    if (at_[kMetadata]) {
      e.metadataJson.emplace();
      v_.appendCondensed(*e.metadataJson, *at_[kMetadata]);
    }
    return true;
  }

  std::optional<std::uint32_t> payload() const { return at_[kPayload]; }
  std::optional<std::uint32_t> metadata() const { return at_[kMetadata]; }

 private:
  // A string member of minLen to maxLen code points (absent: out untouched).
  bool string(Field f, std::size_t minLen, std::size_t maxLen, std::string& out) const {
    if (!at_[f]) return true;
    if (v_.kind(*at_[f]) != JsonView::Kind::String) return false;
    out = v_.string(*at_[f]);
    const auto len = utf8Length(out);
    return len >= minLen && len <= maxLen;
  }
  bool optionalString(Field f, std::optional<std::string>& out) const {
    if (!at_[f]) return true;
    return string(f, 0, kShortStringMax, out.emplace());
  }
  // An integer id or its decimal string.
  bool id(std::uint32_t node, std::int64_t& out) const {
    if (v_.kind(node) == JsonView::Kind::Integer) {
      out = v_.int64(node);
      return true;
    }
    if (v_.kind(node) != JsonView::Kind::String) return false;
    const auto parsed = parseInt64(v_.string(node));
    if (parsed) out = *parsed;
    return parsed.has_value();
  }

  const JsonView& v_;
  bool plain_ = true;
  std::array<std::optional<std::uint32_t>, kFieldCount> at_{};
};

Object::Ptr objectOf(const JsonView& v, std::uint32_t node) { return v.toVar(node).extract<Object::Ptr>(); }

}  // namespace

events::Submission readEvent(const JsonView& body, std::uint32_t object, const std::string& location,
                             const auth::Principal& p, const std::string& source) {
  PlainReader fields(body, object);
  events::Submission s;
  s.location = location;
  s.event.source = source;
  if (!fields.read(s.event)) {
    // How often publishers send events the direct reading hands over (mostly 422s).
    static auto& count = Metrics::instance().counter(
        "agent_events_publish_events_read_by_poco_total",
        "Published events read through the Poco path: not plainly valid (a 422), or with escaped member names.");
    count.fetch_add(1, std::memory_order_relaxed);
    return parseEventObject(objectOf(body, object), location, p, source);
  }
  // Objects only for what reads them: metadata for telemetry (always), the payload for a
  // tool call's telemetry or the organization's moderation rules (on demand).
  if (fields.metadata()) s.metadata = objectOf(body, *fields.metadata());
  s.payloadAt(body, *fields.payload());
  setPublisher(s.event, p);
  return s;
}

}  // namespace aev::http

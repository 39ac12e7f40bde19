#pragma once
// The publish hook: events::Publisher (events/publisher.cpp, step 2), which every publish
// path goes through, hands each event to screen() after telemetry extraction and before
// the event is committed, then records the verdict with the stored event's id:
//
//   auto s = moderator.screen(event, payload, metadata, "body");  // 422 when blocked
//   s.eventId = stored.id;
//   moderator.record({&s});
//
// Redactions and flags are applied to the event (payloadJson, metadataJson, and the
// telemetry columns re-extracted from the masked text) before it is stored, so no stored,
// streamed, listed or exported copy holds the original text, which is never logged.
#include <Poco/JSON/Object.h>

#include <functional>
#include <string>
#include <vector>

#include "common/errors.h"
#include "moderation/rule_cache.h"
#include "moderation/violation_service.h"
#include "store/event_records.h"

namespace aev::telemetry {
class Extractor;
}

namespace aev::moderation {

class Moderator {
 public:
  Moderator(RuleCache& cache, ViolationService& violations, const telemetry::Extractor& telemetry)
      : cache_(cache), violations_(violations), telemetry_(telemetry) {}

  // Runs the organization's rules on e (orgId, eventType, source set), whose parsed
  // payload and metadata (metadata may be null) are changed in place. A blocked event's
  // violations are recorded, then the 422 "moderation-blocked" problem is thrown
  // (errors[] located under `location`).
  Screening screen(store::NewEvent& e, const Poco::JSON::Object::Ptr& payload, const Poco::JSON::Object::Ptr& metadata,
                   const std::string& location);
  // The same for a publish path that holds the payload as text and the metadata flat:
  // `payload` and `metadata` build their objects, and are called only when the
  // organization has rules (most have none).
  using PayloadSource = std::function<Poco::JSON::Object::Ptr()>;
  using MetadataSource = std::function<Poco::JSON::Object::Ptr()>;
  Screening screen(store::NewEvent& e, const PayloadSource& payload, const MetadataSource& metadata,
                   const std::string& location);

  // The verdict for a sample event without publishing or recording anything
  // (POST /moderation/evaluate); the document shows the event as it would be stored.
  Verdict evaluate(std::int64_t orgId, EventDocument& event);

  // Records the violations of screened events (eventId set on those that were stored).
  // A store failure here is logged, not thrown: the events are already acknowledged.
  void record(const std::vector<const Screening*>& screenings) noexcept;

  // The 422 of a blocked event.
  static ApiError blockedError(const RuleMatch& match, const std::string& location);

 private:
  RuleCache& cache_;
  ViolationService& violations_;
  const telemetry::Extractor& telemetry_;
};

}  // namespace aev::moderation

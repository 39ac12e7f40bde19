#pragma once
// Reading events: listing, and what a stream needs from the store (resume position,
// replay pages). Publishing is events::Publisher's (events/publisher.h). No HTTP types.
#include <optional>
#include <vector>

#include "common/errors.h"
#include "events/event.h"
#include "store/app_repository.h"
#include "store/database.h"
#include "store/event_repository.h"

namespace aev::events {

struct EventPage {
  std::vector<StoredEvent> data;
  std::int64_t total = 0;
  std::int64_t page = 1;
  std::int64_t limit = 20;
  std::optional<std::int64_t> nextCursorSeq;
};

// Where a stream starts: after `afterSeq`; `reset` holds the newest event id when the
// client's Last-Event-ID was unknown (docs/api.md#streaming-and-resume: an `event: reset` is sent).
struct ResumePoint {
  std::int64_t afterSeq = 0;
  std::optional<std::int64_t> resetTo;
};

class EventService {
 public:
  explicit EventService(store::Database& db) : db_(db) {}

  EventPage list(std::int64_t orgId, std::int64_t channelId, std::int64_t page, std::int64_t limit);
  // Filtered, newest first, by page (query.offset) or after a cursor (query.beforeSeq).
  // nextCursorSeq is the sequence to pass as beforeSeq for the following page, when
  // there is one.
  EventPage list(std::int64_t orgId, std::int64_t channelId, store::EventListQuery query);
  // One event of the organization by id; std::nullopt when it has none with that id.
  std::optional<StoredEvent> find(std::int64_t orgId, std::int64_t eventId);

  // Read from the store (a stream or token must not start on a deleted channel).
  store::ChannelRecord channel(std::int64_t orgId, std::int64_t channelId);
  // Call after the hub reservation, so no committed event falls between the two.
  ResumePoint resumePoint(std::int64_t orgId, std::int64_t channelId, std::optional<std::int64_t> lastEventId);
  std::vector<StoredEvent> replay(std::int64_t orgId, std::int64_t channelId, std::int64_t afterSeq,
                                  const store::EventFilter& filter, std::int64_t limit);

 private:
  store::Database& db_;
  store::ChannelRepository channels_;
  store::EventRepository events_;
};

}  // namespace aev::events

#include "events/event_service.h"

namespace aev::events {

EventPage EventService::list(std::int64_t orgId, std::int64_t channelId, std::int64_t page, std::int64_t limit) {
  auto c = db_.acquire();
  if (!channels_.byId(*c, orgId, channelId)) throw errors::notFound("Channel");
  EventPage out;
  out.page = page;
  out.limit = limit;
  out.total = events_.count(*c, orgId, channelId);
  out.data = events_.page(*c, orgId, channelId, (page - 1) * limit, limit);
  return out;
}

EventPage EventService::list(std::int64_t orgId, std::int64_t channelId, store::EventListQuery query) {
  auto c = db_.acquire();
  if (!channels_.byId(*c, orgId, channelId)) throw errors::notFound("Channel");
  EventPage out;
  out.page = query.beforeSeq ? 1 : query.offset / query.limit + 1;
  out.limit = query.limit;
  out.total = events_.countMatching(*c, orgId, channelId, query);
  ++query.limit;  // one more than asked tells whether a next page exists
  out.data = events_.list(*c, orgId, channelId, query);
  if (static_cast<std::int64_t>(out.data.size()) > out.limit) {
    out.data.pop_back();
    out.nextCursorSeq = out.data.back().seq;
  }
  return out;
}

store::ChannelRecord EventService::channel(std::int64_t orgId, std::int64_t channelId) {
  auto c = db_.acquire();
  auto ch = channels_.byId(*c, orgId, channelId);
  if (!ch) throw errors::notFound("Channel");
  return *ch;
}

ResumePoint EventService::resumePoint(std::int64_t orgId, std::int64_t channelId,
                                      std::optional<std::int64_t> lastEventId) {
  auto c = db_.acquire();
  auto newest = events_.newest(*c, orgId, channelId);
  ResumePoint p;
  if (!lastEventId) {
    p.afterSeq = newest ? newest->second : 0;  // live only
    return p;
  }
  if (auto seq = events_.seqOf(*c, orgId, channelId, *lastEventId)) {
    p.afterSeq = *seq;
    return p;
  }
  // Unknown, foreign or another channel's id: replay nothing, say so, move forward.
  p.afterSeq = newest ? newest->second : 0;
  p.resetTo = newest ? newest->first : 0;
  return p;
}

std::vector<StoredEvent> EventService::replay(std::int64_t orgId, std::int64_t channelId, std::int64_t afterSeq,
                                              const store::EventFilter& filter, std::int64_t limit) {
  auto c = db_.acquire();
  return events_.after(*c, orgId, channelId, afterSeq, filter, limit);
}

std::optional<StoredEvent> EventService::find(std::int64_t orgId, std::int64_t eventId) {
  auto c = db_.acquire();
  return events_.find(*c, orgId, eventId);
}

}  // namespace aev::events

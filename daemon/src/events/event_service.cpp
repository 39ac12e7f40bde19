#include "events/event_service.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "common/blocking_hint.h"
#include "common/clock.h"
#include "spend/accountant.h"

namespace aev::events {

namespace {
constexpr auto kCommitTimeout = std::chrono::seconds(30);
}

std::vector<StoredEvent> EventService::commit(std::vector<NewEvent> events) {
  const auto orgId = events.front().orgId;
  const auto n = static_cast<std::int64_t>(events.size());
  quota_.check(orgId, n);
  auto future = writer_.submit(std::move(events));
  BlockingHint::aboutToBlock();  // until the group commit's fsync
  if (future.wait_for(kCommitTimeout) != std::future_status::ready)
    throw errors::unavailable("The store did not commit in time; the event may or may not be stored.", 1);
  auto stored = future.get();  // rethrows a failed commit
  quota_.recordCommitted(orgId, n);
  if (spend_) spend_->settle(stored);
  return stored;
}

void EventService::prepare(NewEvent& event) {
  auto app = directory_.appOf(db_, event.orgId, event.channelId);
  if (!app) throw errors::notFound("Channel");
  event.appId = *app;
  if (!event.receivedAt) event.receivedAt = clock::nowMicros();
  if (spend_)
    if (auto refused = spend_->admit({&event}).front()) throw *refused;
}

StoredEvent EventService::publish(NewEvent event) {
  prepare(event);
  std::vector<NewEvent> one;
  one.push_back(std::move(event));
  try {
    return std::move(commit(std::move(one)).front());
  } catch (...) {
    std::rethrow_exception(channelGoneAsNotFound(std::current_exception()));
  }
}

void EventService::publishAsync(NewEvent event, PublishDone done) {
  prepare(event);
  std::vector<NewEvent> one;
  one.push_back(std::move(event));
  if (!one.front().spendCharges.empty()) {  // settling reads the store: not on the writer thread
    std::vector<StoredEvent> stored;
    try {
      stored = commit(std::move(one));
    } catch (...) {
      return done(nullptr, channelGoneAsNotFound(std::current_exception()));
    }
    return done(&stored.front(), nullptr);
  }
  const auto orgId = one.front().orgId;
  quota_.check(orgId, 1);
  writer_.submit(std::move(one),
                 [this, orgId, done = std::move(done)](std::vector<StoredEvent>* stored, std::exception_ptr failure) {
                   if (stored) quota_.recordCommitted(orgId, 1);
                   done(stored ? &stored->front() : nullptr, failure ? channelGoneAsNotFound(failure) : nullptr);
                 });
}

// A commit refused because its channel was deleted meanwhile is the publisher's 404; the
// directory forgets the channel so the next publisher gets it before the writer.
std::exception_ptr EventService::channelGoneAsNotFound(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const ChannelsDeleted& deleted) {
    directory_.forget(deleted.channelIds);
    return std::make_exception_ptr(errors::notFound("Channel"));
  } catch (...) {
    return failure;
  }
}

std::vector<EventService::BatchResult> EventService::publishBatch(std::vector<BatchItem> items) {
  std::vector<BatchResult> results(items.size(), BatchResult{ApiError(500, "internal", "Internal", "unset")});
  std::vector<NewEvent> valid;
  std::vector<std::size_t> positions;
  valid.reserve(items.size());
  positions.reserve(items.size());
  std::map<std::int64_t, std::optional<std::int64_t>> appOfChannel;  // one lookup per channel
  const auto now = clock::nowMicros();
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (auto* err = std::get_if<ApiError>(&items[i])) {
      results[i] = *err;
      continue;
    }
    auto& e = std::get<NewEvent>(items[i]);
    auto [it, fresh] = appOfChannel.try_emplace(e.channelId);
    if (fresh) it->second = directory_.appOf(db_, e.orgId, e.channelId);
    if (!it->second) {
      results[i] = errors::notFound("Channel");
      continue;
    }
    e.appId = *it->second;
    e.receivedAt = now;
    positions.push_back(i);
    valid.push_back(std::move(e));
  }
  if (spend_ && !valid.empty()) {
    std::vector<NewEvent*> pointers;
    pointers.reserve(valid.size());
    for (auto& e : valid) pointers.push_back(&e);
    auto refused = spend_->admit(pointers);
    // Compact in place, keeping order (usually nothing is refused and nothing moves).
    std::size_t kept = 0;
    for (std::size_t k = 0; k < valid.size(); ++k) {
      if (refused[k]) {
        results[positions[k]] = *refused[k];
        continue;
      }
      if (kept != k) {
        valid[kept] = std::move(valid[k]);
        positions[kept] = positions[k];
      }
      ++kept;
    }
    valid.erase(valid.begin() + static_cast<long>(kept), valid.end());
    positions.resize(kept);
  }
  // The valid events commit together; a quota or store failure applies to each of them.
  // A channel deleted since it was looked up refuses the commit: its events get the 404
  // they would have had, and the others are committed again without them.
  while (!valid.empty()) {
    try {
      auto stored = commit(std::move(valid));
      for (std::size_t k = 0; k < positions.size(); ++k) results[positions[k]] = std::move(stored[k]);
      break;
    } catch (ChannelsDeleted& deleted) {
      directory_.forget(deleted.channelIds);
      const auto& gone = deleted.channelIds;
      valid.clear();
      std::vector<std::size_t> kept;
      for (std::size_t k = 0; k < deleted.events.size(); ++k) {
        if (std::find(gone.begin(), gone.end(), deleted.events[k].channelId) != gone.end()) {
          results[positions[k]] = errors::notFound("Channel");
          continue;
        }
        valid.push_back(std::move(deleted.events[k]));
        kept.push_back(positions[k]);
      }
      positions = std::move(kept);
    } catch (const ApiError& e) {
      for (auto pos : positions) results[pos] = e;
      break;
    }
  }
  return results;
}

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

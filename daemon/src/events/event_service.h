#pragma once
// Publishing (quota, durable group commit), listing, and what a stream needs from the
// store (resume position, replay pages). No HTTP types.
#include <exception>
#include <functional>
#include <optional>
#include <variant>
#include <vector>

#include "common/errors.h"
#include "events/channel_directory.h"
#include "events/event.h"
#include "events/event_writer.h"
#include "events/quota_guard.h"
#include "store/app_repository.h"
#include "store/database.h"
#include "store/event_repository.h"

namespace aev::spend {
class Accountant;
}

namespace aev::events {

struct EventPage {
  std::vector<StoredEvent> data;
  std::int64_t total = 0;
  std::int64_t page = 1;
  std::int64_t limit = 20;
};

// Where a stream starts: after `afterSeq`; `reset` holds the newest event id when the
// client's Last-Event-ID was unknown (docs/api.md#streaming-and-resume: an `event: reset` is sent).
struct ResumePoint {
  std::int64_t afterSeq = 0;
  std::optional<std::int64_t> resetTo;
};

class EventService {
 public:
  EventService(store::Database& db, EventWriter& writer, QuotaGuard& quota) : db_(db), writer_(writer), quota_(quota) {}
  // Spend policies (docs/features.md#spend-policies), checked on every publish path once set.
  void setSpendAccountant(spend::Accountant* accountant) { spend_ = accountant; }

  // orgId/channelId/fields set by the caller; appId is filled in from the channel
  // (ChannelDirectory: no query per publish; a deleted channel is still a 404).
  StoredEvent publish(NewEvent event);
  // publish() without a waiting thread: what can refuse the event (channel, spend, quota)
  // throws here; then `done` runs on the writer thread once the event is durable, with the
  // stored event or (null) the commit's failure. `done` must be quick and must not block.
  // An event with spend charges to settle after its commit (store work) is published
  // synchronously instead, and `done` runs on the calling thread.
  using PublishDone = std::function<void(StoredEvent* stored, std::exception_ptr failure)>;
  void publishAsync(NewEvent event, PublishDone done);
  using BatchItem = std::variant<NewEvent, ApiError>;
  using BatchResult = std::variant<StoredEvent, ApiError>;
  std::vector<BatchResult> publishBatch(std::vector<BatchItem> items);

  EventPage list(std::int64_t orgId, std::int64_t channelId, std::int64_t page, std::int64_t limit);

  // Read from the store (a stream or token must not start on a deleted channel).
  store::ChannelRecord channel(std::int64_t orgId, std::int64_t channelId);
  // A channel deleted on this node: publishers need not find out from a refused commit.
  void forgetChannels(const std::vector<std::int64_t>& channelIds) { directory_.forget(channelIds); }
  // Call after the hub reservation, so no committed event falls between the two.
  ResumePoint resumePoint(std::int64_t orgId, std::int64_t channelId, std::optional<std::int64_t> lastEventId);
  std::vector<StoredEvent> replay(std::int64_t orgId, std::int64_t channelId, std::int64_t afterSeq,
                                  const store::EventFilter& filter, std::int64_t limit);

 private:
  std::vector<StoredEvent> commit(std::vector<NewEvent> events);
  void prepare(NewEvent& event);
  std::exception_ptr channelGoneAsNotFound(std::exception_ptr failure);

  store::Database& db_;
  EventWriter& writer_;
  QuotaGuard& quota_;
  spend::Accountant* spend_ = nullptr;
  store::ChannelRepository channels_;
  ChannelDirectory directory_;
  store::EventRepository events_;
};

}  // namespace aev::events

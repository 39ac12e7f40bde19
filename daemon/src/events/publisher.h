#pragma once
// The publish path: every way an event enters (POST /event, POST /events/batch,
// POST /v1/traces, and any later entry point) hands what it read to one Publisher, which
// takes it through the same steps, in this order (events/publisher.cpp reads top to bottom):
//
//   1. extract   telemetry columns from the fields, payload and metadata (bad tags: 422)
//   2. screen    the organization's moderation rules: block (422, violations recorded),
//                redact or flag
//   3. admit     the channel (its app; 404 when gone), the spend policies (429)
//   4. write     the quota, then the durable group commit (events/event_writer.h); each
//                commit runs the after-commit consumers (events/after_commit.h: stream
//                hub, outboxes)
//   5. settle    this request's own follow-up: the quota count, the spend settled, the
//                screening's violations recorded with the stored event's id
//
// Entry points only parse and render. No HTTP types here.
#include <exception>
#include <functional>
#include <variant>
#include <vector>

#include "common/errors.h"
#include "events/channel_directory.h"
#include "events/event.h"
#include "events/event_writer.h"
#include "events/quota_guard.h"
#include "events/submission.h"
#include "moderation/violation_service.h"
#include "store/database.h"

namespace aev::telemetry {
class Extractor;
}
namespace aev::moderation {
class Moderator;
}
namespace aev::spend {
class Accountant;
}

namespace aev::events {

class Publisher;

// One event past every check that can refuse it before the store, waiting to be written.
class PendingWrite {
 public:
  // `done` runs once, with the stored event or (null) the failure: on the writer thread
  // once the group commit is durable, so no request thread waits for the fsync; or on the
  // calling thread when the event has store work to do after its commit (violations to
  // record, spend to settle). It must be quick and must not block.
  using Done = std::function<void(StoredEvent* stored, std::exception_ptr failure)>;
  void write(Done done);

 private:
  friend class Publisher;
  PendingWrite(Publisher& publisher, NewEvent event, moderation::Screening screening)
      : publisher_(&publisher), event_(std::move(event)), screening_(std::move(screening)) {}
  Publisher* publisher_;
  NewEvent event_;
  moderation::Screening screening_;
};

class Publisher {
 public:
  // moderator and spend may be null (no moderation, no spend policies).
  Publisher(store::Database& db, EventWriter& writer, QuotaGuard& quota, const telemetry::Extractor& telemetry,
            moderation::Moderator* moderator, spend::Accountant* spend)
      : db_(db), writer_(writer), quota_(quota), telemetry_(telemetry), moderator_(moderator), spend_(spend) {}

  // One event: steps 1 to 3 run here and throw what refuses it (the submission's payload
  // view is not used after this returns); the PendingWrite does the rest.
  PendingWrite publish(Submission submission);

  // Many events, each accepted or refused on its own, committed together: one result per
  // item, in order. An item may be a reader's refusal, passed through as its result.
  using Item = std::variant<Submission, ApiError>;
  using Result = std::variant<StoredEvent, ApiError>;
  std::vector<Result> publishBatch(std::vector<Item> items);

  // A channel deleted on this node: publishers need not find out from a refused commit.
  void forgetChannels(const std::vector<std::int64_t>& channelIds) { directory_.forget(channelIds); }

  // Step 1 on its own: fills the event's telemetry, or throws the 422 of the reader's and
  // the telemetry's problems together. Public so a test can hold two readers to one answer.
  static void extract(const telemetry::Extractor& telemetry, Submission& submission);

 private:
  friend class PendingWrite;
  moderation::Screening screen(Submission& submission);
  void admit(NewEvent& event);
  void write(NewEvent event, moderation::Screening screening, PendingWrite::Done done);
  std::vector<StoredEvent> commit(std::vector<NewEvent> events);
  void record(const std::vector<const moderation::Screening*>& screenings);
  std::exception_ptr channelGoneAsNotFound(std::exception_ptr failure);

  store::Database& db_;
  EventWriter& writer_;
  QuotaGuard& quota_;
  const telemetry::Extractor& telemetry_;
  moderation::Moderator* moderator_;
  spend::Accountant* spend_;
  ChannelDirectory directory_;
};

}  // namespace aev::events

#include "events/publisher.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>

#include "common/blocking_hint.h"
#include "common/clock.h"
#include "common/invalid_fields.h"
#include "common/json_condense.h"
#include "moderation/moderator.h"
#include "spend/accountant.h"
#include "telemetry/extractor.h"

namespace aev::events {

namespace {
constexpr auto kCommitTimeout = std::chrono::seconds(30);
}

// ---------------------------------------------------------------- one event

PendingWrite Publisher::publish(Submission s) {
  extract(telemetry_, s);
  auto screening = screen(s);
  try {
    admit(s.event);
  } catch (...) {
    record({&screening});  // violations are recorded whether or not the store takes the event
    throw;
  }
  return PendingWrite(*this, std::move(s.event), std::move(screening));
}

void PendingWrite::write(Done done) { publisher_->write(std::move(event_), std::move(screening_), std::move(done)); }

// ---------------------------------------------------------------- many events

std::vector<Publisher::Result> Publisher::publishBatch(std::vector<Item> items) {
  std::vector<Result> results(items.size(), Result{ApiError(500, "internal", "Internal", "unset")});
  std::vector<moderation::Screening> screenings(items.size());
  std::vector<NewEvent> valid;
  std::vector<std::size_t> positions;  // of valid[k] in items
  valid.reserve(items.size());
  positions.reserve(items.size());
  // 1, 2: each event on its own; a refusal is that event's result.
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (auto* refused = std::get_if<ApiError>(&items[i])) {
      results[i] = std::move(*refused);
      continue;
    }
    auto& s = std::get<Submission>(items[i]);
    try {
      extract(telemetry_, s);
      screenings[i] = screen(s);
    } catch (const ApiError& e) {
      results[i] = e;
      continue;
    }
    positions.push_back(i);
    valid.push_back(std::move(s.event));
  }
  // 3: the channel (one lookup per channel), then the spend policies.
  std::map<std::int64_t, std::optional<std::int64_t>> appOfChannel;
  const auto now = clock::nowMicros();
  std::size_t kept = 0;
  for (std::size_t k = 0; k < valid.size(); ++k) {
    auto& e = valid[k];
    auto [it, fresh] = appOfChannel.try_emplace(e.channelId);
    if (fresh) it->second = directory_.appOf(db_, e.orgId, e.channelId);
    if (!it->second) {
      results[positions[k]] = errors::notFound("Channel");
      continue;
    }
    e.appId = *it->second;
    e.receivedAt = now;
    if (kept != k) {
      valid[kept] = std::move(e);
      positions[kept] = positions[k];
    }
    ++kept;
  }
  valid.resize(kept);
  positions.resize(kept);
  if (spend_ && !valid.empty()) {
    std::vector<NewEvent*> pointers;
    pointers.reserve(valid.size());
    for (auto& e : valid) pointers.push_back(&e);
    auto refused = spend_->admit(pointers);
    // Compact in place, keeping order (usually nothing is refused and nothing moves).
    kept = 0;
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
    valid.resize(kept);
    positions.resize(kept);
  }
  // 4, 5: the admitted events commit together; a quota or store failure applies to each
  // of them. A channel deleted since it was looked up refuses the commit: its events get
  // the 404 they would have had, and the others are committed again without them.
  while (!valid.empty()) {
    try {
      auto stored = commit(std::move(valid));
      for (std::size_t k = 0; k < positions.size(); ++k) results[positions[k]] = std::move(stored[k]);
      break;
    } catch (ChannelsDeleted& deleted) {
      directory_.forget(deleted.channelIds);
      const auto& gone = deleted.channelIds;
      valid.clear();
      std::vector<std::size_t> rest;
      for (std::size_t k = 0; k < deleted.events.size(); ++k) {
        if (std::find(gone.begin(), gone.end(), deleted.events[k].channelId) != gone.end()) {
          results[positions[k]] = errors::notFound("Channel");
          continue;
        }
        valid.push_back(std::move(deleted.events[k]));
        rest.push_back(positions[k]);
      }
      positions = std::move(rest);
    } catch (const ApiError& e) {
      for (auto pos : positions) results[pos] = e;
      break;
    }
  }
  std::vector<const moderation::Screening*> screened;
  screened.reserve(results.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (auto* e = std::get_if<StoredEvent>(&results[i])) screenings[i].eventId = e->id;
    screened.push_back(&screenings[i]);
  }
  record(screened);
  return results;
}

// ---------------------------------------------------------------- 1. extract

namespace {

std::optional<std::string> metadataText(const Poco::JSON::Object::Ptr& metadata) {
  // The sorted writer: a span's metadata holds no insertion-ordered object.
  return metadata ? std::optional<std::string>(condensedJson(metadata)) : std::nullopt;
}

std::optional<std::string> metadataText(const telemetry::FlatMetadata& metadata) { return metadata.text(); }

// extract() for a payload held as text (an OTLP span's): the messages are appended to the
// text, no payload tree is built for them. What apply() reads of the payload is its
// messages (an LLM call), handed over as they were moved, or, for a tool call, its tool or
// name, read from the payload parsed in its order. `metadata`: the object or the flat members.
template <typename Metadata>
std::vector<FieldError> applyToTextPayload(const telemetry::Extractor& telemetry, Submission& s, Metadata& metadata) {
  std::optional<telemetry::MessageLists> messages;
  if (telemetry::Extractor::carriesMessages(s.event, metadata))
    messages = telemetry.normalizeMessagesIntoText(s.event, metadata);
  // normalizeMessagesIntoText wrote it when it moved messages.
  if (s.textsFromObjects && !messages) s.event.metadataJson = metadataText(metadata);
  s.textsFromObjects = false;
  if (messages) return telemetry.apply(s.event, *messages, metadata, s.location);
  static const Poco::JSON::Object::Ptr none;
  return telemetry.apply(s.event, telemetry::Extractor::readsPayload(s.event) ? s.payload() : none, metadata,
                         s.location);
}

}  // namespace

void Publisher::extract(const telemetry::Extractor& telemetry, Submission& s) {
  if (s.payloadInTextOrder) {
    auto tagProblems = s.flatMetadata ? applyToTextPayload(telemetry, s, *s.flatMetadata)
                                      : applyToTextPayload(telemetry, s, s.metadata);
    if (s.problems.empty() && tagProblems.empty()) return;
    auto problems = std::move(s.problems);
    for (auto& p : tagProblems) problems.push_back(std::move(p));
    throw errors::invalidFields(std::move(problems));
  }
  // The payload as an object only when the telemetry reads it (a tool call's tool) or an
  // LLM call's messages move into it (before moderation, which screens them there).
  static const Poco::JSON::Object::Ptr none;
  s.metadataObject();  // the object paths below read `metadata`
  const bool messages = telemetry::Extractor::carriesMessages(s.event, s.metadata) &&
                        telemetry.normalizeMessages(s.event, s.payload(), s.metadata);
  if (s.textsFromObjects) {
    if (!messages) {  // normalizeMessages wrote both when it moved messages
      s.event.payloadJson = condensedJsonAnyOrder(s.payload());
      s.event.metadataJson = s.metadata ? std::optional<std::string>(condensedJsonAnyOrder(s.metadata)) : std::nullopt;
    }
    s.textsFromObjects = false;
  }
  const auto& payload = messages || telemetry::Extractor::readsPayload(s.event) ? s.payload() : none;
  auto tagProblems = telemetry.apply(s.event, payload, s.metadata, s.location);
  if (s.problems.empty() && tagProblems.empty()) return;
  auto problems = std::move(s.problems);
  for (auto& p : tagProblems) problems.push_back(std::move(p));
  throw errors::invalidFields(std::move(problems));
}

// ---------------------------------------------------------------- 2. screen

moderation::Screening Publisher::screen(Submission& s) {
  if (!moderator_) return {};
  // Called only when the organization has rules (most have none). By reference: a
  // lambda with more captures would not fit std::function's inline storage, and every
  // event would pay a heap allocation for it.
  auto payload = [&s] { return s.payload(); };
  auto metadata = [&s] { return s.metadataObject(); };
  return moderator_->screen(s.event, std::cref(payload), std::cref(metadata), s.location);
}

// ---------------------------------------------------------------- 3. admit

// The channel's app (ChannelDirectory: no query per publish; a deleted channel is still
// a 404, from the commit if not before), the receive time, the spend policies.
void Publisher::admit(NewEvent& event) {
  auto app = directory_.appOf(db_, event.orgId, event.channelId);
  if (!app) throw errors::notFound("Channel");
  event.appId = *app;
  if (!event.receivedAt) event.receivedAt = clock::nowMicros();
  if (spend_)
    if (auto refused = spend_->admit({&event}).front()) throw *refused;
}

// ---------------------------------------------------------------- 4. write

void Publisher::write(NewEvent event, moderation::Screening screening, PendingWrite::Done done) {
  std::vector<NewEvent> one;
  one.push_back(std::move(event));
  // Settling spend and recording violations read and write the store: not on the writer
  // thread, so this thread waits for the commit.
  if (!screening.verdict.matches.empty() || !one.front().spendCharges.empty()) {
    std::vector<StoredEvent> stored;
    try {
      stored = commit(std::move(one));
    } catch (...) {
      record({&screening});
      return done(nullptr, channelGoneAsNotFound(std::current_exception()));
    }
    screening.eventId = stored.front().id;
    record({&screening});
    return done(&stored.front(), nullptr);
  }
  const auto orgId = one.front().orgId;
  try {
    quota_.check(orgId, 1);
  } catch (...) {
    return done(nullptr, std::current_exception());
  }
  writer_.submit(std::move(one),
                 [this, orgId, done = std::move(done)](std::vector<StoredEvent>* stored, std::exception_ptr failure) {
                   if (stored) quota_.recordCommitted(orgId, 1);  // 5, all this event has
                   done(stored ? &stored->front() : nullptr, failure ? channelGoneAsNotFound(failure) : nullptr);
                 });
}

// Waits for the group commit; then 5 (the quota count, the spend settled).
std::vector<StoredEvent> Publisher::commit(std::vector<NewEvent> events) {
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

// A commit refused because its channel was deleted meanwhile is the publisher's 404; the
// directory forgets the channel so the next publisher gets it before the writer.
std::exception_ptr Publisher::channelGoneAsNotFound(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const ChannelsDeleted& deleted) {
    directory_.forget(deleted.channelIds);
    return std::make_exception_ptr(errors::notFound("Channel"));
  } catch (...) {
    return failure;
  }
}

// ---------------------------------------------------------------- 5. settle

void Publisher::record(const std::vector<const moderation::Screening*>& screenings) {
  if (moderator_) moderator_->record(screenings);
}

}  // namespace aev::events

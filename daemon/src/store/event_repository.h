#pragma once
// Event rows: the writer's multi-row insert with per-channel sequence allocation, and
// the reads (pages, replay after a sequence, lookup of an id's sequence).
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "store/database.h"
#include "store/event_records.h"

namespace aev::store {

struct EventFilter {
  std::optional<std::string> agentId;
  std::optional<std::string> eventType;
  std::optional<std::string> traceId;
  std::optional<std::string> identifier;
  std::optional<std::string> endUser;  // the telemetry end user (metadata.user or a convention's)
  bool matches(const StoredEvent& e) const;
};

// A channel's events as GET /event/{channelId}/list reads them: the filter (AND), a receive
// time window [since, until), and either an offset (pages) or a position (cursor: events
// with a sequence below beforeSeq, which events published meanwhile never shift).
struct EventListQuery {
  EventFilter filter;
  std::optional<std::int64_t> since;  // µs, inclusive
  std::optional<std::int64_t> until;  // µs, exclusive
  std::optional<std::int64_t> beforeSeq;
  std::int64_t offset = 0;
  std::int64_t limit = 20;
};

// insertBatch found channels of the batch deleted (after the publisher looked them up,
// possibly on another node): the transaction must not commit. Publishers answer 404.
class ChannelsGone : public std::runtime_error {
 public:
  explicit ChannelsGone(std::vector<std::int64_t> channelIds);
  const std::vector<std::int64_t>& channelIds() const { return channelIds_; }

 private:
  std::vector<std::int64_t> channelIds_;
};

// The event columns in the order eventFromRow reads them.
extern const char* const kEventColumns;
StoredEvent eventFromRow(const Row& r);

class EventRepository {
 public:
  // Inserts events (any channels) in the order given, assigning each channel's next
  // sequence numbers; fills id and seq. Stores telemetry columns and custom attributes
  // too. Runs inside the caller's transaction. Throws ChannelsGone, having stored
  // nothing, when a channel no longer exists.
  void insertBatch(Connection& c, std::vector<StoredEvent>& events);
  void addUsage(Connection& c, std::int64_t orgId, const std::string& period, std::int64_t count);
  std::int64_t usage(Connection& c, std::int64_t orgId, const std::string& period);

  // Newest first.
  std::vector<StoredEvent> page(Connection& c, std::int64_t orgId, std::int64_t channelId, std::int64_t offset,
                                std::int64_t limit);
  std::int64_t count(Connection& c, std::int64_t orgId, std::int64_t channelId);
  // Newest first, matching the query (its offset, or its beforeSeq, and limit).
  std::vector<StoredEvent> list(Connection& c, std::int64_t orgId, std::int64_t channelId, const EventListQuery& q);
  // How many match the query's filter and window (position and paging ignored).
  std::int64_t countMatching(Connection& c, std::int64_t orgId, std::int64_t channelId, const EventListQuery& q);
  // Oldest first, seq > afterSeq, matching the filter, at most limit rows.
  std::vector<StoredEvent> after(Connection& c, std::int64_t orgId, std::int64_t channelId, std::int64_t afterSeq,
                                 const EventFilter& filter, std::int64_t limit);
  // The sequence of event `eventId` in this channel, if it is one of its events.
  std::optional<std::int64_t> seqOf(Connection& c, std::int64_t orgId, std::int64_t channelId, std::int64_t eventId);
  // One event of the organization by id (webhook deliveries render it when they go out).
  std::optional<StoredEvent> find(Connection& c, std::int64_t orgId, std::int64_t eventId);
  // The channel's newest event (id, seq), if any.
  std::optional<std::pair<std::int64_t, std::int64_t>> newest(Connection& c, std::int64_t orgId,
                                                              std::int64_t channelId);

 private:
  // SQLite: multi-row INSERTs in a few fixed row counts (statements prepared once each).
  void insertRowsInShapes(Connection& c, std::vector<StoredEvent>& events);
  // PostgreSQL, events of one channel (the usual commit): sequence range and rows in one
  // statement.
  void insertIntoOneChannelPostgres(Connection& c, std::vector<StoredEvent>& events);
  // PostgreSQL: one INSERT ... SELECT FROM unnest(column arrays) for the whole batch.
  void insertRowsAsArrays(Connection& c, std::vector<StoredEvent>& events);
  void insertAttributes(Connection& c, const std::vector<StoredEvent>& events);
};

}  // namespace aev::store

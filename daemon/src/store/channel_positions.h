#pragma once
// The reads of the cross-node fan-out (cluster/fan_out.h): where held channels stand
// (channels.last_seq) and their events in seq ranges, several channels in one statement.
#include <cstdint>
#include <utility>
#include <vector>

#include "store/database.h"
#include "store/event_records.h"

namespace aev::store {

// Events of one channel with afterSeq < seq <= uptoSeq.
struct SeqRange {
  std::int64_t channelId = 0;
  std::int64_t afterSeq = 0;
  std::int64_t uptoSeq = 0;
};

class ChannelPositions {
 public:
  // The events of several channels' ranges in one read (PostgreSQL: one statement),
  // ordered by channel then seq, at most limit rows. Not scoped by organization: for the
  // node's own fan-out, which holds only channels of streams it has authorized.
  std::vector<StoredEvent> inRanges(Connection& c, const std::vector<SeqRange>& ranges, std::int64_t limit);
  // channels.last_seq of these channels (a deleted channel is absent).
  std::vector<std::pair<std::int64_t, std::int64_t>> lastSeqs(Connection& c, const std::vector<std::int64_t>& ids);
};

}  // namespace aev::store

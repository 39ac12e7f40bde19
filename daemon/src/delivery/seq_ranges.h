#pragma once
// Outbox rows for a batch of committed events are written with one INSERT … SELECT per
// channel over a seq range (a channel's events carry a gapless per-channel seq), so the
// event fan-outs (webhooks, exports) first fold the batch into those ranges.
#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "store/event_records.h"

namespace aev::delivery {

// channel id → [lowest seq, highest seq] of the events `wanted` accepts.
template <class Wanted>
std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> seqRanges(const std::vector<store::StoredEvent>& events,
                                                                        Wanted wanted) {
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> ranges;
  for (const auto& e : events) {
    if (!wanted(e)) continue;
    auto [it, fresh] = ranges.try_emplace(e.channelId, e.seq, e.seq);
    if (!fresh) {
      it->second.first = std::min(it->second.first, e.seq);
      it->second.second = std::max(it->second.second, e.seq);
    }
  }
  return ranges;
}

}  // namespace aev::delivery

#include "store/channel_positions.h"

#include <algorithm>
#include <string>

#include "store/event_repository.h"

namespace aev::store {

namespace {
std::string bigintArray(const std::vector<std::int64_t>& values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + std::to_string(values[i]);
  return out + "}";
}
}  // namespace

std::vector<StoredEvent> ChannelPositions::inRanges(Connection& c, const std::vector<SeqRange>& ranges,
                                                    std::int64_t limit) {
  std::vector<StoredEvent> out;
  if (ranges.empty()) return out;
  if (c.dialect() == Dialect::PostgreSQL) {
    std::vector<std::int64_t> ids, after, upto;
    for (const auto& r : ranges) {
      ids.push_back(r.channelId);
      after.push_back(r.afterSeq);
      upto.push_back(r.uptoSeq);
    }
    // The (channel_id, seq) index serves each range; one round trip for all of them.
    for (const auto& row :
         c.query(std::string("SELECT ") + kEventColumns +
                     " FROM unnest(?::bigint[], ?::bigint[], ?::bigint[]) AS r(ch, lo, hi) JOIN events ON "
                     "channel_id = r.ch AND seq > r.lo AND seq <= r.hi ORDER BY channel_id, seq LIMIT ?",
                 {bigintArray(ids), bigintArray(after), bigintArray(upto), limit}))
      out.push_back(eventFromRow(row));
    return out;
  }
  auto sorted = ranges;
  std::sort(sorted.begin(), sorted.end(),
            [](const SeqRange& a, const SeqRange& b) { return a.channelId < b.channelId; });
  for (const auto& r : sorted) {
    const auto left = limit - static_cast<std::int64_t>(out.size());
    if (left <= 0) break;
    for (const auto& row :
         c.query(std::string("SELECT ") + kEventColumns +
                     " FROM events WHERE channel_id = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
                 {r.channelId, r.afterSeq, r.uptoSeq, left}))
      out.push_back(eventFromRow(row));
  }
  return out;
}

std::vector<std::pair<std::int64_t, std::int64_t>> ChannelPositions::lastSeqs(Connection& c,
                                                                              const std::vector<std::int64_t>& ids) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  if (ids.empty()) return out;
  if (c.dialect() == Dialect::PostgreSQL) {
    for (const auto& row : c.query("SELECT id, last_seq FROM channels WHERE id = ANY(?::bigint[])", {bigintArray(ids)}))
      out.emplace_back(row.i64("id"), row.i64("last_seq"));
    return out;
  }
  for (auto id : ids)
    for (const auto& row : c.query("SELECT id, last_seq FROM channels WHERE id = ?", {id}))
      out.emplace_back(row.i64("id"), row.i64("last_seq"));
  return out;
}

}  // namespace aev::store

#include "events/after_commit.h"

#include <spdlog/spdlog.h>

#include <unordered_map>

#include "common/exceptions.h"

namespace aev::events {

const std::vector<ChannelHead>& CommittedEvents::channels() const {
  if (channels_) return *channels_;
  auto& heads = channels_.emplace();
  std::unordered_map<std::int64_t, std::size_t> at;  // channel id → index in heads
  for (const auto& e : events_) {
    auto [it, fresh] = at.try_emplace(e.channelId, heads.size());
    if (fresh)
      heads.push_back({e.orgId, e.channelId, e.seq, e.seq});
    else
      heads[it->second].lastSeq = e.seq;
  }
  return heads;
}

void AfterCommit::inTransaction(store::Connection& c, const std::vector<StoredEvent>& events) const {
  const CommittedEvents commit(events);
  for (auto* consumer : consumers_) consumer->inTransaction(c, commit);
}

void AfterCommit::committed(const std::vector<StoredEvent>& events) const noexcept {
  const CommittedEvents commit(events);
  for (auto* consumer : consumers_) {
    try {
      consumer->committed(commit);
    } catch (const std::exception& e) {
      spdlog::error("after-commit consumer failed: {}", describeException(e));
    }
  }
}

}  // namespace aev::events

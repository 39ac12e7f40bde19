#include "events/channel_directory.h"

#include <algorithm>

#include "common/metrics.h"

namespace aev::events {

std::optional<std::int64_t> ChannelDirectory::cached(const Key& key) {
  std::lock_guard lock(mutex_);
  auto it = apps_.find(key);
  if (it == apps_.end()) return std::nullopt;
  static auto& hits = Metrics::instance().counter("agent_events_channel_cache_hits_total",
                                                  "Publishes that found their channel's app in the cache.");
  hits.fetch_add(1, std::memory_order_relaxed);
  return it->second;
}

void ChannelDirectory::remember(const Key& key, std::int64_t appId) {
  std::lock_guard lock(mutex_);
  // A crude bound: publishers touching more channels than this re-read them after a reset.
  if (apps_.size() >= capacity_) apps_.clear();
  apps_[key] = appId;
}

std::optional<std::int64_t> ChannelDirectory::appOf(store::Connection& c, std::int64_t orgId, std::int64_t channelId) {
  const Key key{orgId, channelId};
  if (auto app = cached(key)) return app;
  auto ch = channels_.byId(c, orgId, channelId);
  if (!ch) return std::nullopt;
  remember(key, ch->appId);
  return ch->appId;
}

std::optional<std::int64_t> ChannelDirectory::appOf(store::Database& db, std::int64_t orgId, std::int64_t channelId) {
  if (auto app = cached({orgId, channelId})) return app;
  auto c = db.acquire();
  return appOf(*c, orgId, channelId);
}

void ChannelDirectory::forget(const std::vector<std::int64_t>& channelIds) {
  std::lock_guard lock(mutex_);
  std::erase_if(apps_, [&](const auto& entry) {
    return std::find(channelIds.begin(), channelIds.end(), entry.first.channelId) != channelIds.end();
  });
}

}  // namespace aev::events

#pragma once
// Which app a channel belongs to, for the publish paths, without a SELECT per publish.
//
// A channel's organization and app never change and channel ids are never reused, so a
// (organization, channel) → app entry, once read, stays true for as long as the channel
// exists. Deletion is the one change, and it needs no invalidation for correctness: the
// writer's transaction reserves the channel's sequence range with an UPDATE of the
// channel row, which finds nothing for a deleted channel (here or on another node), and
// the commit is refused (store::ChannelsGone → 404). forget() just spares the next
// publisher that refused commit. Only existing channels are cached (an id not created
// yet may be created later).
#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "store/app_repository.h"
#include "store/database.h"

namespace aev::events {

class ChannelDirectory {
 public:
  explicit ChannelDirectory(std::size_t capacity = 100000) : capacity_(capacity) {}

  // The channel's app, or nullopt when the organization has no such channel.
  std::optional<std::int64_t> appOf(store::Connection& c, std::int64_t orgId, std::int64_t channelId);
  // As appOf, taking a pooled connection only on a miss.
  std::optional<std::int64_t> appOf(store::Database& db, std::int64_t orgId, std::int64_t channelId);
  void forget(const std::vector<std::int64_t>& channelIds);

 private:
  struct Key {
    std::int64_t orgId;
    std::int64_t channelId;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const noexcept {
      return std::hash<std::int64_t>()(k.channelId * 1000003 ^ k.orgId);
    }
  };
  std::optional<std::int64_t> cached(const Key& key);
  void remember(const Key& key, std::int64_t appId);

  std::size_t capacity_;
  std::mutex mutex_;
  std::unordered_map<Key, std::int64_t, KeyHash> apps_;
  store::ChannelRepository channels_;
};

}  // namespace aev::events

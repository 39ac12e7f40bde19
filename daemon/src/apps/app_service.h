#pragma once
// Apps and their channels (docs/api.md). Another organization's ids are
// simply not found. Deleting a channel (or an app, with its channels) tells the
// listener so open streams of those channels end, and recomputes the rollups of the
// traces that had events there.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "audit/actor.h"
#include "store/app_repository.h"
#include "store/database.h"
#include "store/trace_repository.h"

namespace aev::audit {
class AuditLog;
}

namespace aev::apps {

struct AppWithChannels {
  store::AppRecord app;
  std::vector<store::ChannelRecord> channels;
};

class AppService {
 public:
  using ChannelsDeleted = std::function<void(const std::vector<std::int64_t>& channelIds)>;

  AppService(store::Database& db, audit::AuditLog& audit) : db_(db), audit_(audit) {}
  void onChannelsDeleted(ChannelsDeleted listener) { channelsDeleted_ = std::move(listener); }

  // Every change is recorded in the audit log in its own transaction (docs/features.md#audit-log).
  store::AppRecord create(std::int64_t orgId, std::optional<std::int64_t> userId, const std::string& name,
                          const audit::Actor& actor);
  std::vector<store::AppRecord> list(std::int64_t orgId);
  AppWithChannels get(std::int64_t orgId, std::int64_t appId);
  store::AppRecord rename(std::int64_t orgId, std::int64_t appId, const std::string& name, const audit::Actor& actor);
  void remove(std::int64_t orgId, std::int64_t appId, const audit::Actor& actor);

  store::ChannelRecord createChannel(std::int64_t orgId, std::int64_t appId, const std::string& name,
                                     const audit::Actor& actor);
  store::ChannelRecord channel(std::int64_t orgId, std::int64_t channelId);
  void removeChannel(std::int64_t orgId, std::int64_t channelId, const audit::Actor& actor);

 private:
  static void validateName(const std::string& name);
  store::Database& db_;
  audit::AuditLog& audit_;
  store::AppRepository apps_;
  store::ChannelRepository channels_;
  store::TraceRepository traces_;
  ChannelsDeleted channelsDeleted_;
};

}  // namespace aev::apps

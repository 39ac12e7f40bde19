#pragma once
// Apps and channels; every call is scoped by organization id.
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"
#include "store/records.h"

namespace aev::store {

class AppRepository {
 public:
  std::int64_t insert(Connection& c, const AppRecord& app);
  std::vector<AppRecord> list(Connection& c, std::int64_t orgId);
  std::optional<AppRecord> byId(Connection& c, std::int64_t orgId, std::int64_t id);
  void rename(Connection& c, std::int64_t orgId, std::int64_t id, const std::string& name, std::int64_t at);
  void remove(Connection& c, std::int64_t orgId, std::int64_t id);
};

class ChannelRepository {
 public:
  std::int64_t insert(Connection& c, const ChannelRecord& ch);
  std::vector<ChannelRecord> ofApp(Connection& c, std::int64_t orgId, std::int64_t appId);
  std::optional<ChannelRecord> byId(Connection& c, std::int64_t orgId, std::int64_t id);
  void remove(Connection& c, std::int64_t orgId, std::int64_t id);
};

}  // namespace aev::store

#pragma once
// Environments of an organization (docs/api.md); every call is scoped by organization id.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"

namespace aev::store {

struct EnvironmentRecord {
  std::int64_t id = 0;
  std::int64_t orgId = 0;
  std::string name;
  std::string slug;
  std::int64_t createdAt = 0;
  std::int64_t updatedAt = 0;
};

class EnvironmentRepository {
 public:
  std::int64_t insert(Connection& c, const EnvironmentRecord& env);
  // Oldest first (creation order).
  std::vector<EnvironmentRecord> list(Connection& c, std::int64_t orgId);
  std::optional<EnvironmentRecord> byId(Connection& c, std::int64_t orgId, std::int64_t id);
  std::optional<EnvironmentRecord> bySlug(Connection& c, std::int64_t orgId, const std::string& slug);
  // Writes name, slug and updatedAt of env (found by env.orgId and env.id).
  void update(Connection& c, const EnvironmentRecord& env);
  void remove(Connection& c, std::int64_t orgId, std::int64_t id);
};

}  // namespace aev::store

#pragma once
// Environments of an organization (docs/api.md: `/environments`, fields `name`, `slug`).
// Another organization's environment is simply not found (404). Analytics and export
// filters name an environment by id or slug through resolve().
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit/actor.h"
#include "store/database.h"
#include "store/environment_repository.h"

namespace aev::audit {
class AuditLog;
}

namespace aev::identity {

struct EnvironmentPatch {
  std::optional<std::string> name;
  std::optional<std::string> slug;
};

class EnvironmentService {
 public:
  EnvironmentService(store::Database& db, audit::AuditLog& audit) : db_(db), audit_(audit) {}

  // Without a slug, one is derived from the name (environment_rules.h); 422 when none
  // can be, 409 when the slug is taken in the organization.
  store::EnvironmentRecord create(std::int64_t orgId, const std::string& name, const std::optional<std::string>& slug,
                                  const audit::Actor& actor);
  std::vector<store::EnvironmentRecord> list(std::int64_t orgId);  // oldest first
  store::EnvironmentRecord get(std::int64_t orgId, std::int64_t environmentId);
  // Changes only the fields present; a renamed environment keeps its slug.
  store::EnvironmentRecord update(std::int64_t orgId, std::int64_t environmentId, const EnvironmentPatch& patch,
                                  const audit::Actor& actor);
  void remove(std::int64_t orgId, std::int64_t environmentId, const audit::Actor& actor);

  // An environment of the organization named by id or slug: an all-digits string is
  // tried as an id first, then as a slug. std::nullopt when neither matches.
  std::optional<store::EnvironmentRecord> resolve(std::int64_t orgId, const std::string& idOrSlug);
  // The values events may carry for an environment named by id or slug (the analytics
  // filter): its slug, name and id when it is registered; else the text itself (events
  // may name environments nobody registered). std::nullopt when idOrSlug is.
  std::optional<std::vector<std::string>> eventValues(std::int64_t orgId, const std::optional<std::string>& idOrSlug);

 private:
  store::Database& db_;
  audit::AuditLog& audit_;
  store::EnvironmentRepository environments_;
};

}  // namespace aev::identity

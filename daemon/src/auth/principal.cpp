#include "auth/principal.h"

#include <algorithm>

#include "common/errors.h"

namespace aev::auth {

bool Principal::hasScope(const std::string& scope) const {
  return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

std::int64_t Principal::requireOrg() const {
  if (!orgId) throw errors::forbidden("No active organization: create one or switch with PATCH /users/me/active-org.");
  return *orgId;
}

void Principal::requireOrgAdmin() const {
  requireOrg();
  if (role != "admin") throw errors::forbidden("This operation needs the admin role in the organization.");
}

}  // namespace aev::auth

#pragma once
// Users: registration (with the open / approval / closed modes), profiles, the
// organization-admin user operations, the instance admin's search and access requests.
#include <optional>
#include <string>
#include <vector>

#include "audit/actor.h"
#include "auth/password_hasher.h"
#include "common/revocation.h"
#include "store/credential_repositories.h"
#include "store/database.h"
#include "store/organization_repository.h"
#include "store/user_repository.h"

namespace aev::audit {
class AuditLog;
}

namespace aev::identity {

class PlanCatalog;

struct RegisterInput {
  std::string email;
  std::string username;
  std::string password;
  std::string firstName;
  std::string lastName;
};

// A user as seen in one organization: the first-shape user's organizationId and roles.
struct UserInOrg {
  store::UserRecord user;
  std::optional<std::int64_t> orgId;
  std::string role;
};

struct AdminUserUpdate {
  std::optional<std::string> firstName;
  std::optional<std::string> lastName;
  std::optional<std::string> role;
  std::optional<bool> disabled;
};

class UserService {
 public:
  UserService(store::Database& db, audit::AuditLog& audit, auth::PasswordHasher& hasher, const PlanCatalog& plans,
              std::string registrationMode);

  // `origin` carries the client address and request id: the new account's personal
  // organization starts its audit log with user.register.
  UserInOrg registerUser(const RegisterInput& input, const audit::Actor& origin);
  UserInOrg view(std::int64_t userId, std::optional<std::int64_t> orgId);
  UserInOrg updateProfile(std::int64_t userId, std::optional<std::int64_t> orgId,
                          const std::optional<std::string>& firstName, const std::optional<std::string>& lastName);

  std::vector<UserInOrg> listInOrganization(std::int64_t orgId);
  UserInOrg adminUpdate(std::int64_t orgId, std::int64_t actorId, std::int64_t targetId, const AdminUserUpdate& update,
                        const audit::Actor& actor);
  void adminDelete(std::int64_t orgId, std::int64_t actorId, std::int64_t targetId, const audit::Actor& actor);

  std::vector<store::UserRecord> search(const std::string& q, int limit);
  std::vector<store::AccessRequestRecord> accessRequests(const std::optional<std::string>& status);
  void decideAccessRequest(std::int64_t requestId, const std::string& status, std::int64_t adminId);

  const std::string& registrationMode() const { return mode_; }
  void onRevoked(RevocationListener listener) { revoked_ = std::move(listener); }

 private:
  std::string uniqueSlug(store::Connection& c, const std::string& base);

  store::Database& db_;
  audit::AuditLog& audit_;
  auth::PasswordHasher& hasher_;
  const PlanCatalog& plans_;
  std::string mode_;
  store::UserRepository users_;
  store::OrganizationRepository orgs_;
  store::MembershipRepository memberships_;
  store::AccessRequestRepository accessRequests_;
  store::RefreshTokenRepository refreshTokens_;
  RevocationListener revoked_;
};

}  // namespace aev::identity
